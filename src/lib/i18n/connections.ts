import { counted, nouns } from './words';

export const connections = {
  /** Live mode without the installation's app credentials for the platform. */
  appMissing: (platform: string, variables: string) => `${platform} не налаштовано на сервері: задайте ${variables}`,
  connect: (platform: string) => `Підключити ${platform}`,
  connectFailed: (platform: string) => `Не вдалося відкрити сторінку дозволу ${platform}: спробуйте ще раз`,
  reconnect: 'Підключіть знову',
  connectedAs: (name: string) => `Підключено як ${name}`,
  connected: 'Підключено',
  notConnected: 'Не підключено',
  /** A new profile's platform: its connect button saves the profile on the way. */
  savedOnConnect: 'Не підключено; профіль збережеться перед підключенням',
  /** What a YouTube profile brings in place of the installation's app: its own Google client. */
  youtubeAppFields: 'ID клієнта і секрет клієнта профілю',
  revoked: (platform: string) => `Доступ ${platform} відкликано — підключіть профіль знову`,
  ending: (platform: string, days: number) =>
    `Доступ ${platform} закінчується через ${counted(days, nouns.days)} — підключіть профіль знову`,
  pastedLeft: (left: string) => `Рядок доступу TikTok діє ще ${left}`,
  pastedExpired: 'Рядок доступу TikTok закінчився — підключіть TikTok',
  hours: (hours: number, minutes: number) => (hours > 0 ? `${hours} год ${minutes} хв` : `${minutes} хв`),
  days: (days: number) => counted(days, nouns.days),
  platformConnected: (platform: string) => `${platform} підключено`,
  /** The channel or profile name the sandbox's YouTube and Instagram give an account it emulates. */
  sandboxAccount: (label: string) => `Тестовий акаунт ${label}`,
  /** The bell's title of a grant nearing its end, named as the truth branch names profiles. */
  credentialsEnding: (profile: string) => `Профіль ${profile}: доступ до платформи скоро закінчиться`,
} as const;
