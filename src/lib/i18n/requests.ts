export const requests = {
  title: 'Запити на створення',
  /** The column naming a request: its source file's name and its number (issue 40.7: it held no ID alone). */
  id: 'Запит',
  status: 'Статус',
  publish: 'Публікувати',
  openPublished: 'Переглянути',
  created: 'Створено',
  videos: 'Відео',
  create: 'Створити відео',
  delete: 'Видалити запит',
  deleteLabel: (name: string | null, id: number) => (name ? `Видалити запит «${name}»` : `Видалити запит #${id}`),
  deleteConsequence: (published: boolean) =>
    published
      ? 'Разом із запитом буде видалено його відео та їхню статистику. Уже опубліковані відео залишаться на платформах, заплановані публікації не відбудуться.'
      : 'Разом із запитом буде видалено його відео та їхні файли.',
  deleted: 'Запит видалено',
} as const;
