export const toast = {
  authorized: 'Ви увійшли',
  loggedOut: 'Ви вийшли із системи',
  loading: 'Завантаження ...',
  genericError: 'Сталася помилка',
  /** fetch() refused: no answer came (offline, server down); the browser's own words are English. */
  connectionLost: 'Немає звʼязку із сервером: перевірте мережу й спробуйте ще раз',
  /** An answer that is not the API's JSON (a proxy's error page): its status line is English. */
  serverError: (status: number) => `Сервер не зміг відповісти (код ${status}): спробуйте ще раз`,
  deleting: 'Видалення ...',
  deleteFailed: 'Помилка при видаленні',
} as const;
