export const published = {
  /** Every platform's sets, though SPEC's route is still /video/list. */
  title: 'Публікації',
  status: 'Статус',
  updated: 'Оновлено дані',
  republish: 'Опублікувати',
  noError: 'Причину не вказано',
  /** The set named by its request's number and when it was published, never by its UUID. */
  detailTitle: (id: number, publishedAt: string) => (publishedAt ? `Запит #${id}, надіслано на публікацію ${publishedAt}` : `Запит #${id}`),
  editPanel: 'Дані публікації',
  videosPanel: 'Відео',
  editReach: 'Куди дійдуть зміни',
  editReady: 'змінить назву, опис і теги вже опублікованих відео',
  editPending: (count: number) => `зміни надсилаються (відео: ${count})…`,
  editDone: (count: number) => `зміни внесено (відео: ${count})`,
  editFailed: (count: number) => `не вдалося змінити відео: ${count}`,
  editUnsupported: 'не змінюється через API: опубліковані відео зберігають попередні назву, опис і теги',
} as const;
