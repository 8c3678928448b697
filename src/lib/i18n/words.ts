/** The catalog's grammar: Ukrainian plurals, counts, sizes and the nouns they count (index.ts). */

const pluralRules = new Intl.PluralRules('uk');
export const numbers = new Intl.NumberFormat('uk-UA');

/**
 * A sentence carried on after a colon: its first word lower-cased unless it is a name or an
 * abbreviation ('Файл завеликий' → 'файл завеликий', 'TikTok' and 'МБ' stay), as Ukrainian writes it (issue 40.7).
 */
export const afterColon = (sentence: string) =>
  sentence.replace(/^[А-ЩЬЮЯЄІЇҐ](?=[а-щьюяєіїґʼ'])/u, (letter) => letter.toLocaleLowerCase('uk'));

/** The words for `count` by Ukrainian rules (Intl.PluralRules('uk')): [1, 21, 31…; 2–4, 22–24…; 0, 5–20, 25…]. */
export function plural(count: number, [one, few, many]: [string, string, string]): string {
  const form = pluralRules.select(count);
  if (form === 'one') return one;
  // Fractions ('other') take the same form as 2–4: «1,5 публікації».
  return form === 'many' ? many : few;
}

/** A count, its digits grouped as Ukrainian groups them ('2 300'), with its noun: '1 публікація', '3 публікації', '44 перегляди'. */
export function counted(count: number, forms: [string, string, string]): string {
  return `${numbers.format(count)} ${plural(count, forms)}`;
}

const oneDecimal = new Intl.NumberFormat('uk-UA', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const twoDecimals = new Intl.NumberFormat('uk-UA', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A file's size as a Ukrainian reader writes it, with a decimal comma: '0,2 МБ', '1,25 ГБ'. */
export function fileSize(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${twoDecimals.format(bytes / 1024 ** 3)} ГБ` : `${oneDecimal.format(bytes / 1024 ** 2)} МБ`;
}

export const nouns = {
  characters: ['символ', 'символи', 'символів'],
  posts: ['публікація', 'публікації', 'публікацій'],
  postsShown: ['публікацію', 'публікації', 'публікацій'],
  uploads: ['завантаження', 'завантаження', 'завантажень'],
  creationRequests: ['запит', 'запити', 'запитів'],
  views: ['перегляд', 'перегляди', 'переглядів'],
  newViews: ['новий перегляд', 'нові перегляди', 'нових переглядів'],
  unread: ['непрочитане', 'непрочитані', 'непрочитаних'],
  tagSets: ['набору', 'наборів', 'наборів'],
  days: ['день', 'дні', 'днів'],
  pixels: ['піксель', 'пікселі', 'пікселів'],
  megapixels: ['мегапіксель', 'мегапікселі', 'мегапікселів'],
  bytes: ['байт', 'байти', 'байтів'],
  postsOut: ['публікація вийшла', 'публікації вийшли', 'публікацій вийшло'],
  postsFailed: ['публікація не вдалася', 'публікації не вдалися', 'публікацій не вдалося'],
  postsHeld: ['публікація утримана', 'публікації утримані', 'публікацій утримано'],
  /** The same, after the noun was said once: '5 публікацій вийшло, 1 не вдалася'. */
  out: ['вийшла', 'вийшли', 'вийшло'],
  failed: ['не вдалася', 'не вдалися', 'не вдалося'],
  held: ['утримана', 'утримані', 'утримано'],
} satisfies Record<string, [string, string, string]>;

/** A set's posts by state as the bell tells them: the first count with its noun, the rest after it, none that is 0. */
export function setPostCounts(posts: { published: number; failed: number; held: number }): string {
  const said = (
    [
      [posts.published, nouns.postsOut, nouns.out],
      [posts.failed, nouns.postsFailed, nouns.failed],
      [posts.held, nouns.postsHeld, nouns.held],
    ] as const
  ).filter(([count]) => count > 0);
  return said.map(([count, first, next], index) => counted(count, index === 0 ? first : next)).join(', ');
}
