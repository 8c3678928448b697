export const controls = {
  tagPlaceholder: 'Введіть тег',
  removeTag: (tag: string) => `Видалити тег ${tag}`,
  removeOption: (title: string) => `Прибрати ${title}`,
} as const;
