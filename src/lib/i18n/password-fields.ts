export const passwordFields = {
  password: 'Новий пароль',
  confirmation: 'Повторіть пароль',
} as const;
