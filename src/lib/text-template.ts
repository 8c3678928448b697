import { kyivWallTime } from './kyiv-time';

/**
 * A post's text template (issue 43.2): the words a set gives a platform, with variables filled per
 * post — `{profile}`, `{n}`, `{date}` — and spintax `{варіант1|варіант2}` (nested too), of which
 * each post gets one choice picked from its own seed, so a post filled again (a retry, a check)
 * says the same words. Braces that are neither stay as typed. Pure: the publish route fills each
 * post's words once as it plans them, the form measures a template's worst case with it.
 */

/** What a post fills its variables with. */
export interface TemplateValues {
  /** The profile's name as shown (src/lib/profile-name.ts). */
  profile: string;
  /** The variant's number in its request (1, 2, …). */
  n: number;
  /** The post's Kyiv date, dd.mm.yyyy. */
  date: string;
}

/** The variables a template may use, in the order the form lists them. */
export const templateVariables = ['profile', 'n', 'date'] as const;
type Variable = (typeof templateVariables)[number];

type Part = string | { variable: Variable } | { choices: Part[][] };

/** The index of the `}` that closes the `{` at `open`, counting the braces between; -1 when none does. */
function closing(template: string, open: number): number {
  let depth = 0;
  for (let index = open; index < template.length; index++) {
    if (template[index] === '{') depth++;
    else if (template[index] === '}' && --depth === 0) return index;
  }
  return -1;
}

/** The `|`s of `body` outside any inner braces: where its choices split. */
function choices(body: string): string[] {
  const split: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < body.length; index++) {
    const char = body[index];
    if (char === '{') depth++;
    else if (char === '}') depth--;
    else if (char === '|' && depth === 0) {
      split.push(body.slice(start, index));
      start = index + 1;
    }
  }
  split.push(body.slice(start));
  return split;
}

function parse(template: string): Part[] {
  const parts: Part[] = [];
  let text = '';
  let index = 0;
  while (index < template.length) {
    const end = template[index] === '{' ? closing(template, index) : -1;
    if (end === -1) {
      text += template[index++];
      continue;
    }
    const body = template.slice(index + 1, end);
    const options = choices(body);
    const part: Part | null =
      options.length > 1
        ? { choices: options.map(parse) }
        : (templateVariables as readonly string[]).includes(body)
          ? { variable: body as Variable }
          : null;
    if (part === null) {
      // Not ours (`{}`, `{слово}`): kept as typed, its inner braces still read.
      text += '{';
      index++;
      continue;
    }
    if (text) parts.push(text);
    text = '';
    parts.push(part);
    index = end + 1;
  }
  if (text) parts.push(text);
  return parts;
}

/** FNV-1a over the UTF-16 units: a cheap, stable hash, the same in the browser and on the server. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

const valueOf = (variable: Variable, values: TemplateValues) => String(values[variable]);

/**
 * The template filled for one post: each variable by its value, each spintax by one of its choices,
 * picked by the hash of `seed` and the spintax's place among those met, so the same seed always
 * picks the same words and two posts of other seeds most often differ.
 */
export function fillTemplate(template: string, values: TemplateValues, seed: string): string {
  let met = 0;
  const fill = (parts: Part[]): string =>
    parts
      .map((part) => {
        if (typeof part === 'string') return part;
        if ('variable' in part) return valueOf(part.variable, values);
        const choice = part.choices[hash(`${seed}#${met++}`) % part.choices.length]!;
        return fill(choice);
      })
      .join('');
  return fill(parse(template));
}

/**
 * The template filled with, at each spintax, the choice that weighs most by `weight` (its own
 * worst case first): the longest text a post may get when `weight` is the length, the most
 * hashtags when it counts them. Weights that add up over the parts (a length, a count of tags
 * not cut by a choice's edge) give the true worst case.
 */
export function worstFill(template: string, values: TemplateValues, weight: (text: string) => number): string {
  const fill = (parts: Part[]): string =>
    parts
      .map((part) => {
        if (typeof part === 'string') return part;
        if ('variable' in part) return valueOf(part.variable, values);
        const filled = part.choices.map(fill);
        return filled.reduce((worst, each) => (weight(each) > weight(worst) ? each : worst));
      })
      .join('');
  return fill(parse(template));
}

/** A post's date as `{date}` gives it: its Kyiv day, dd.mm.yyyy. */
export function templateDate(at: number): string {
  const [year, month, day] = kyivWallTime(at).slice(0, 10).split('-');
  return `${day}.${month}.${year}`;
}
