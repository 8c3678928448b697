import { counted, nouns, setPostCounts } from './words';

export const notifications = {
  bell: (unread: number) => (unread > 0 ? `Сповіщення: ${counted(unread, nouns.unread)}` : 'Сповіщення'),
  markAllRead: 'Позначити всі прочитаними',
  /** Named by the request's title, else its source file (issue 40.7: five alike lines named nothing). */
  renderDone: (name: string) => (name ? `Запит «${name}»: відео створено, можна публікувати` : 'Відео створено, можна публікувати'),
  renderFailed: (name: string) => (name ? `Запит «${name}»: не вдалося створити відео` : 'Не вдалося створити відео'),
  /** One entry per set: '…: 5 публікацій вийшло, 1 не вдалася, 2 утримані' (held: waiting for a cap, a quota or a new connection). */
  setPosts: (title: string, posts: { published: number; failed: number; held: number }) =>
    `${title ? `Набір «${title}»` : 'Набір без назви'}: ${setPostCounts(posts)}`,
  accessRevoked: (profile: string, platform: string) => `Профіль ${profile}: доступ ${platform} відкликано — підключіть профіль знову`,
  accessRefused: (profile: string, platform: string) => `Профіль ${profile}: ${platform} відмовляє в доступі — перевірте профіль`,
  /** The message of a sign-in spray names the login being guessed (server/auth/login-throttle.ts). */
  signInSpray: (login: string) => `Логін «${login}»: пароль підбирають з багатьох адрес, вхід з нових браузерів сповільнено`,
  unread: 'Нове',
} as const;
