/** SPEC's drafts said 'Не активний' of a video never sent, 'В обробці' of one being made (issue 40.7), as of a request. */
export const videoStatus = {
  loading: 'Створюється',
  publication: 'На публікації',
  success: 'Опубліковано',
  error: 'Помилка',
  noactive: 'Не опубліковано',
  cancelled: 'Скасовано',
} as const;
