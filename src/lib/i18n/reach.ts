import { numbers, counted, nouns } from './words';

/** Issue 32.2: reach shown, not guessed (server/services/statistics/reach.ts). */
export const reach = {
  limited: 'Можливе обмеження показів',
  limitedOn: (platform: string) => `${platform}: можливе обмеження показів`,
  /** The figures behind a profile's mark: the last posts' views, newest first, against the median of the posts before. */
  limitedFigures: (views: number[], median: number, history: number) =>
    `Перегляди останніх публікацій (${views.length}): ${views.map((value) => numbers.format(value)).join(', ')}; медіана попередніх (${history}): ${numbers.format(median)}`,
  /** A post of such a mark on its set's page. */
  postLimited: (platform: string, views: number, median: number) =>
    `${platform}: можливе обмеження показів — ${counted(views, nouns.views)} при медіані профілю ${numbers.format(median)}`,
  postUnseen: (platform: string, hours: number) => `${platform}: жодного перегляду через ${hours} год після публікації`,
} as const;
