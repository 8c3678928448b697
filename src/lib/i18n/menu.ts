export const menu = {
  accounts: 'Профілі',
  accountsList: 'Профілі',
  accountGroups: 'Групи профілів',
  video: 'Відео',
  published: 'Публікації',
  requests: 'Запити на створення',
  photos: 'Зображення',
  tags: 'Набори тегів',
  users: 'Користувачі',
  settings: 'Налаштування',
  stats: 'Статистика',
} as const;
