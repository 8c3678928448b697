export const media = {
  renderFailed: 'Не вдалося створити відео',
  renderInterrupted: 'Створення відео перервано',
  backgroundsGone: 'Обрані фонові зображення видалено: створіть запит знову з іншими',
  diskFull: 'Диск заповнений: звільніть місце та повторіть',
} as const;
