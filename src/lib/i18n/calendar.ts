import { counted, nouns } from './words';

export const calendar = {
  title: 'Календар',
  week: 'Тиждень',
  month: 'Місяць',
  view: 'Вигляд',
  previous: 'Попередній період',
  next: 'Наступний період',
  today: 'Сьогодні',
  profile: 'Профіль або група',
  allProfiles: 'Усі профілі',
  groups: 'Групи',
  profiles: 'Профілі',
  /** A group picked that has no posts in the period, by its number. */
  groupOption: (id: number) => `Група #${id}`,
  empty: 'У цьому періоді публікацій немає',
  truncated: (count: number) => `Показано ${counted(count, nouns.postsShown)} періоду — перші за часом`,
  badRange: 'Некоректний період календаря',
  weekdays: ['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Нд'],
  more: (count: number) => `ще ${count}`,
  untitled: 'без назви',
  postLabel: (time: string, platform: string, title: string, profile: string, status: string) =>
    `${time} ${platform}: ${title}, ${profile}, ${status}`,
  /**
   * The mark of a pending post that waits, by why it waits (src/lib/post-waits.ts): held ('Утримано')
   * on a cap, a quota or a new connection; a retry after a failed attempt is not held, it is tried again.
   */
  waitMarks: {
    retry: 'Повторна спроба',
    busy: 'Черга профілю',
    quota: 'Утримано: квота',
    cap: 'Утримано: ліміт',
    reconnect: 'Утримано: підключення',
  },
  waiting: (mark: string, reason: string) => `${mark} — ${reason}`,
  /** A phone's month cell: the day and how many posts it has; the day's list opens under the month. */
  dayPosts: (day: string, count: number) => `${day}: ${counted(count, nouns.posts)}`,
  dayList: (day: string) => `Публікації за ${day}`,
  /** The one profile shown: the hours it posts on its days, and its days off (server/services/planning/posting-slots.ts). */
  postingHours: (from: string, to: string) => `слоти ${from}–${to}`,
  dayOff: 'не публікує',
  hint: 'Заплановану публікацію можна перетягнути на інший день: час лишиться той самий, а публікації того самого відео на інших платформах — на своїх місцях.',
  /** A scheduled post's handle, said with the post (its label). */
  moveHandle: (post: string) => `Перенести ${post}`,
  cancelPost: (post: string) => `Скасувати публікацію ${post}`,
  dragRole: 'публікація, яку можна перенести',
  /** dnd-kit's screen reader instructions and announcements (calendar-screen.tsx). */
  dragInstructions:
    'Щоб узяти публікацію, натисніть пробіл. Стрілки переносять її на день раніше чи пізніше, а в місяці стрілки вгору і вниз — на тиждень. Пробіл ще раз кладе її на вибраний день о тій самій годині, клавіша Esc скасовує перенесення.',
  pickedUp: (post: string, day: string) => `Узято ${post}, зараз ${day}`,
  over: (post: string, day: string) => `${post}: над днем ${day}`,
  outside: (post: string) => `${post}: поза днями календаря`,
  dropped: (post: string, day: string, time: string) => `${post} покладено на ${day} о ${time}, переносимо`,
  droppedHome: (post: string) => `${post} лишилася на своєму дні`,
  dragCancelled: (post: string) => `Перенесення скасовано, ${post} лишилася на місці`,
  moved: (day: string, time: string) => `Публікацію перенесено на ${day} о ${time}`,
} as const;
