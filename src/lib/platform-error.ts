import { t } from './i18n';

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

/** One line for the summary, a second for the platform's words: for toasts, which are plain text. */
export function errorLines(text: string): string {
  const { summary, detail } = splitError(text);
  return detail ? `${summary}\n${t.screens.errorDetail(detail)}` : summary;
}
