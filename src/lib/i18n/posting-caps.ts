import { counted, nouns } from './words';

export const postingCaps = {
  /** A post held by a cap: never an error, it goes out when the window frees. */
  rollingHeld: (platform: string, limit: number, hours: number) =>
    `Ліміт ${platform}: ${counted(limit, nouns.posts)} за ${hours} год вичерпано`,
  youtubeHeld: (limit: number) =>
    `Ліміт YouTube: ${counted(limit, nouns.uploads)} на день для проєкту Google вичерпано (доба за тихоокеанським часом)`,
  platformHeld: (platform: string) => `Ліміт ${platform} вичерпано — так відповіла платформа`,
  budgetTitle: (day: string) => `Ліміти публікацій на ${day}`,
  budgetLoading: 'Рахуємо ліміти…',
  budgetFailed: 'Не вдалося прочитати ліміти публікацій',
  budgetUnknown: 'ліміт невідомий',
  budgetLine: (limit: number, used: number, planned: number, remaining: number) =>
    `лишилось ${remaining} з ${limit} (опубліковано ${used}, заплановано ${planned})`,
  budgetOver: (profile: string, platform: string, over: number) =>
    `Профіль ${profile}: план перевищує ліміт ${platform} на ${over}. Зайві публікації не пропадуть: вони чекатимуть і вийдуть, щойно ліміт звільниться.`,
} as const;
