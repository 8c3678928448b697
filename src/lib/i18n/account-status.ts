/** A profile's: 'loading' while a platform switched on is not connected yet, 'noactive' with none switched on. */
export const accountStatus = {
  publication: 'На публікації',
  loading: 'Очікує підключення',
  success: 'Активний',
  error: 'Помилка',
  noactive: 'Без платформ',
} as const;
