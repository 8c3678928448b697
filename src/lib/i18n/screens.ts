import { counted, nouns } from './words';

export const screens = {
  untitledSet: 'Публікація без назви',
  deleteProfile: (name: string) => `Видалити профіль ${name}`,
  /** Issue 40.7: the platform's own answer (often English) waits behind this, never on the screen at once. */
  errorDetails: 'Подробиці',
  errorDetail: (detail: string) => `Відповідь платформи: ${detail}`,
  chartLatest: 'Зараз',
  leaveUnsaved: 'Зміни не збережено. Піти зі сторінки й втратити їх?',
  tagSetSearch: (count: number) => `Пошук серед ${counted(count, nouns.tagSets)}: назва або тег`,
  empty: {
    profiles: {
      text: 'Спершу додайте профіль: через профілі відео виходять на платформи.',
      link: 'Додати профіль',
      href: '/accounts/create',
    },
    groups: {
      text: 'Група збирає профілі, щоб обирати їх у публікації одним натиском.',
      link: 'Створити групу',
      href: '/accounts/group/create',
    },
    tagSets: { text: 'Набір тегів додається до публікації одним натиском.', link: 'Створити набір тегів', href: '/tags/create' },
    photos: { text: 'Спершу завантажте зображення: на них накладається відео.', link: 'Завантажити зображення', href: '/photos/create' },
    requests: { text: 'Спершу створіть відео з кліпу та зображень.', link: 'Створити відео', href: '/video/create' },
    published: {
      text: 'Тут зʼявляться опубліковані відео: опублікуйте готовий запит.',
      link: 'До запитів',
      href: '/video/request-create',
    },
    users: { text: 'Додайте оператора, щоб він міг публікувати через свої профілі.', link: 'Додати користувача', href: '/users/create' },
  },
  chartViews: (platform: string, views: number) => `${platform}: ${counted(views, nouns.views)}`,
} as const;
