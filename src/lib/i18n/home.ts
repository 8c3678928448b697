import { plural } from './words';

/** The home screen (/): today's posts, the profiles that need attention, a new account's first steps. */
export const home = {
  title: 'Головна',
  today: (day: string) => `Сьогодні ${day}, за київським часом`,
  retry: 'Спробувати ще раз',
  postsTitle: 'Публікації сьогодні',
  postsTotal: (count: number) => `Усього ${count} ${plural(count, ['публікація', 'публікації', 'публікацій'])}`,
  noPosts: 'На сьогодні публікацій немає.',
  publishReady: 'Опублікувати готовий запит',
  stateHints: {
    scheduled: 'вийдуть у свій час',
    published: 'уже на платформах',
    held: 'чекають ліміту, квоти або нового підключення',
    failed: 'опублікуйте знову або змініть профіль',
  },
  attentionTitle: 'Профілі, що потребують уваги',
  attentionNone: 'Доступ усіх профілів до платформ працює.',
  attentionCount: (count: number) =>
    `${count} ${plural(count, ['профіль потребує', 'профілі потребують', 'профілів потребують'])} нового підключення`,
  accessFailed: (platforms: string) => `не працює доступ до ${platforms}`,
  owner: (login: string) => `оператор ${login}`,
  attentionMore: (count: number) => `Ще ${count} ${plural(count, ['профіль', 'профілі', 'профілів'])} у списку профілів`,
  stepsTitle: 'Перші кроки',
  stepsLeft: (count: number) => plural(count, [`Залишився ${count} крок`, `Залишилося ${count} кроки`, `Залишилося ${count} кроків`]),
  stepDone: 'Зроблено',
  stepToDo: 'Ще не зроблено',
  steps: {
    profile: {
      title: 'Додайте профіль',
      text: 'Профіль — це акаунт у соцмережах зі своїм проксі: через нього відео виходять на платформи.',
      link: 'Додати профіль',
    },
    connect: {
      title: 'Підключіть профіль',
      text: 'Відкрийте профіль і підключіть його до YouTube, TikTok або Instagram.',
      link: 'До профілів',
    },
    backgrounds: {
      title: 'Завантажте фонові зображення',
      text: 'На них накладається відео; без них фоном стане розмита копія самого кліпу.',
      link: 'Завантажити зображення',
    },
    video: {
      title: 'Створіть відео',
      text: 'Завантажте кліп і вкажіть, скільки відео з нього створити; готові відео публікуються зі списку запитів.',
      link: 'Створити відео',
    },
  },
} as const;
