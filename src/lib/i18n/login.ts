export const login = {
  title: 'Вхід',
  sessionEnded: 'Сесію завершено, увійдіть знову',
  login: 'Логін',
  password: 'Пароль',
  submit: 'Увійти',
} as const;
