export const dates = {
  kyivTime: '(за київським часом)',
  day: (label: string) => `${label}: день`,
  hour: (label: string) => `${label}: година`,
  minute: (label: string) => `${label}: хвилина`,
  noTime: '--',
  dayPlaceholder: 'дд.мм.рррр',
  dayFormat: 'Введіть дату як дд.мм.рррр',
  openCalendar: (label: string) => `${label}: вибрати день у календарі`,
  calendar: (label: string) => `${label}: календар`,
} as const;
