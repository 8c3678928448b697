import { numbers, counted } from './words';

/** The create form's drop of several files: what a drag would take, and why a file was not. */
export const sourceDrop = {
  files: 'Обрані файли',
  takes: (taken: number, dragged: number) => `Буде прийнято ${numbers.format(taken)} з ${counted(dragged, ['файлу', 'файлів', 'файлів'])}`,
  notVideo: 'це не відео',
  checking: 'Сервер перевіряє файл',
} as const;
