export const filters = {
  search: 'Пошук',
  searchRequests: 'Назва файлу або ID',
  searchSets: 'Назва, файл або ID',
  searchProfiles: 'Коментар, проксі або акаунт',
  find: 'Знайти',
  status: 'Статус',
  platform: 'Платформа',
  any: 'Усі',
  reset: 'Скинути фільтри',
  published: 'Опубліковано',
} as const;
