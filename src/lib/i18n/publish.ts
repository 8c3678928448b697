import { plural } from './words';

export const publish = {
  title: 'Публікація',
  name: 'Назва',
  description: 'Опис',
  tags: 'Теги',
  accounts: 'Профілі',
  date: 'Дата',
  save: 'Зберегти',
  anyAccount: 'Будь-який',
  nameRequired: "Назва обов'язкова",
  videoMin: 'Мінімум одне відео',
  videoFieldMissing: (position: number, field: string) => `Відео ${position} у списку «video»: немає поля «${field}»`,
  videoFieldInvalid: (position: number, field: string) => `Відео ${position} у списку «video»: некоректне значення поля «${field}»`,
  sent: 'Відео надіслано на публікацію',
  platforms: 'Платформи',
  tagSets: 'Набори тегів',
  groups: 'Групи профілів',
  videos: 'Відео',
  /** A video of the request by its place in it (1, 2, …), as the form lists them: never its id, which counts every request's. */
  video: (number: number) => `Відео ${number}`,
  preview: (number: number) => `Переглянути відео ${number}`,
  removeVideo: (number: number) => `Прибрати відео ${number}`,
  videoAccount: (number: number) => `Профіль відео ${number}`,
  videoDate: (number: number) => `Дата відео ${number}`,
  noVideos: 'Усі відео прибрано',
  assignmentRule:
    'Відео по черзі отримують вибрані профілі: перше відео — перший профіль, друге — другий. «Будь-який» означає профіль за цією чергою; коли відео більше, ніж профілів, черга йде по колу.',
  assignedByRule: (title: string) => `Отримає ${title} — за чергою вибраних профілів`,
  assignedNone: 'Оберіть профілі: «Будь-який» бере профіль із вибраних',
  profilesIdle: (count: number, titles: string) =>
    `Профілів більше, ніж відео: ${count} з вибраних не ${plural(count, ['отримає', 'отримають', 'отримають'])} відео (${titles}).`,
  profilesShared: (count: number, titles: string) =>
    count === 1
      ? `Відео більше, ніж профілів: ${titles} отримає кілька відео.`
      : `Відео більше, ніж профілів: ${titles} отримають по кілька відео.`,
  notReady: 'Запит ще не готовий до публікації',
  alreadyPublished: 'Цей запит уже опубліковано. Змінити назву, опис і теги можна на сторінці публікації.',
  openPublished: 'Відкрити публікацію',
  pastDate: 'Дата вже минула: оберіть майбутній час',
  tooFarAhead: 'Дата задалека: публікацію можна запланувати щонайбільше на рік уперед',
} as const;
