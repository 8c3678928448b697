import { afterColon } from './words';

export const upload = {
  rejected: (name: string, reason: string) => `Файл «${name}» не прийнято: ${afterColon(reason)}`,
  remove: (name: string) => `Прибрати ${name}`,
  progress: 'Завантаження файлів',
  fileInput: 'Вибір файлів',
  connectionLost: 'Зʼєднання перервано, файл не завантажено',
} as const;
