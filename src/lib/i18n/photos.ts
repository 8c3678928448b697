export const photos = {
  title: 'Зображення',
  add: 'Додати зображення',
  pickFiles: 'Обрати зображення',
  dropHint: 'Перетягніть зображення сюди',
  dropAccept: 'Відпустіть, щоб додати зображення',
  dropReject: 'Тут приймаються лише зображення',
  mustBeImage: 'Файл повинен бути зображенням',
  atLeastOne: 'Мінімум одне зображення',
  rejectedType: (name: string) => `Файл «${name}» має недопустимий формат. Файл має бути зображенням`,
  uploaded: 'Зображення завантажено',
  deleted: 'Зображення видалено',
  image: (id: number) => `Зображення ${id}`,
} as const;
