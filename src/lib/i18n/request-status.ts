export const requestStatus = {
  loading: 'Створюється',
  success: 'Готово',
  error: 'Помилка',
} as const;
