import * as t from './i18n';

export interface SplitError {
  /** Ukrainian: what happened, said first. */
  summary: string;
  /** The platform's own words (its code and message), or null when the text has none. */
  detail: string | null;
}

const platformNames = Object.values(t.platform.names).join('|');
// server/platforms/errors.ts words a failure 'Платформа: summary (detail)'; `error` keeps that whole text.
const platformMessage = new RegExp(`^((?:${platformNames}): [^()]*?) \\((.+)\\)$`, 's');

/** A platform failure split for display: the Ukrainian summary, and the platform's code apart. */
export function splitError(text: string): SplitError {
  const match = platformMessage.exec(text);
  return match ? { summary: match[1]!, detail: match[2]! } : { summary: text, detail: null };
}

/** What a toast says of an error: its summary alone; the platform's own words wait on the page, behind 'Подробиці'. */
export const errorSummary = (text: string): string => splitError(text).summary;
