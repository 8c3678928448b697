import { counted } from './words';

/** Issue 40.1 and 40.5: the calendar's cancel of one post (or of all its video's), and what each post says. */
export const calendarPosts = {
  cancelQuestion: (id: number, platform: string) => `Скасувати публікацію відео #${id} в ${platform}?`,
  /** What the cancel takes, as the dialog lists it. */
  video: 'Відео',
  platform: 'Платформа',
  profile: 'Профіль',
  time: 'Час',
  videoTitle: (id: number, title: string) => (title ? `#${id} «${title}»` : `#${id}`),
  /** Another post of the same video, as the dialog names it: 'TikTok, 02.12.2026 10:00, заплановано'. */
  otherPost: (platform: string, time: string, state: string) => `${platform}, ${time}, ${state.toLowerCase()}`,
  othersStay: (posts: string) => `Публікації відео на інших платформах залишаться: ${posts}.`,
  othersWithAll: 'Кнопка «Скасувати всі платформи відео» скасує й їх.',
  undoFor: (seconds: number) => `Скасоване можна повернути ще ${counted(seconds, ['секунду', 'секунди', 'секунд'])}.`,
  cancelPost: (platform: string) => `Скасувати публікацію в ${platform}`,
  cancelAll: 'Скасувати всі платформи відео',
  cancelledPost: (id: number, platform: string) => `Публікацію відео #${id} в ${platform} скасовано`,
  undoPostOf: (id: number, platform: string) => `Повернути публікацію відео #${id} в ${platform}`,
  legend: 'Позначення',
} as const;
