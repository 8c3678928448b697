import { counted, nouns } from './words';

export const spread = {
  action: 'Розподілити',
  title: 'Розподілити за слотами',
  hint: 'Кожне відео отримає профіль і слот у його години, з його проміжком і в межах лімітів платформ.',
  from: 'З дня',
  to: 'До дня',
  propose: 'Запропонувати дати',
  proposing: 'Підбираємо слоти…',
  fromInvalid: 'Початок: дата РРРР-ММ-ДД',
  toInvalid: 'Кінець: дата РРРР-ММ-ДД',
  toPast: 'Кінець уже минув',
  tooFarAhead: 'Кінець задалеко: розподілити можна щонайбільше на рік уперед',
  toBeforeFrom: 'Кінець не може бути раніше за початок',
  tooLong: (days: number) => `Щонайбільше ${counted(days, nouns.days)} за раз`,
  proposed: (placed: number) => `Запропоновано дати для ${placed} відео. Перегляньте й за потреби змініть їх перед збереженням.`,
  unplacedTitle: 'Не вмістилися',
  failed: 'Не вдалося підібрати дати',
  /** Issue 43.1: how the videos are placed over the days. */
  mode: 'Як розподілити',
  modeEven: 'Рівномірно',
  modeEvenHint: 'порівну на кожен день, у найкращі години профілю',
  modeSoonest: 'Якнайшвидше',
  modeSoonestHint: 'у найближчі вільні слоти',
  daysTitle: 'Публікацій на день',
  /** One day of the proposal: its date and each profile's count. */
  dayLine: (day: string, total: number, profiles: string) => `${day}: ${counted(total, nouns.posts)} — ${profiles}`,
  profileCount: (profile: string, posts: number) => `${profile} × ${posts}`,
  budgetDays: 'Дні плану',
  /** Issue 43.5: the first line of a refusal whose other lines are possible duplicates; the form and the calendar recognise it. */
  duplicatesFound: 'Можливі дублі, нічого не збережено. Щоб зберегти все одно, позначте «Все одно зберегти»',
  duplicatesTitle: 'Схоже на дублі',
  duplicatesHint: 'Перевірте дати й профілі. Якщо так і задумано, збережіть свідомо.',
  saveAnyway: 'Все одно зберегти',
  moveAnyway: 'Все одно перенести',
  moveDuplicateQuestion: 'Перенести, попри можливий дубль?',
  moveDuplicateConsequence: 'Профіль опублікує обидва відео так, як ви їх поставили.',
} as const;
