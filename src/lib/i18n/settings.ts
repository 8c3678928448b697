export const settings = {
  title: 'Налаштування',
  account: 'Обліковий запис',
  login: 'Логін',
  role: 'Роль',
  roleAdmin: 'Адміністратор',
  roleUser: 'Оператор',
  timezone: 'Часовий пояс',
  timezoneValue: 'Київ, 24-годинний формат',
  changePassword: 'Зміна пароля',
  currentPassword: 'Поточний пароль',
  submitPassword: 'Змінити пароль',
  passwordChanged: 'Пароль змінено. Інші сесії завершено.',
} as const;
