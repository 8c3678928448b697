/** A post's one state (src/lib/post-states.ts), on every screen that names it. */
export const postStates = {
  scheduled: 'Заплановано',
  uploading: 'Публікується',
  published: 'Опубліковано',
  held: 'Утримано',
  failed: 'Помилка',
  cancelled: 'Скасовано',
} as const;
