import type { Cap, CapAccount, PostingCapSettings } from '../types';

/**
 * YouTube's posting cap ("Quota Calculator"): 100 `videos.insert` a day per Google Cloud project
 * (the profile's OAuth client), resetting at midnight Pacific Time, YOUTUBE_DAILY_UPLOADS.
 */
export const pacificTimezone = 'America/Los_Angeles';

// Read with Intl rather than dayjs's timezone plugin, which takes about a millisecond a call: the
// spread asks this for every hour it plans in (bench/spread.ts).
const pacificHour = new Intl.DateTimeFormat('en-CA', {
  timeZone: pacificTimezone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
});
const hourMs = 3_600_000;

/** The Pacific date (`YYYY-MM-DD`) and hour of a moment. */
function pacificParts(at: number): { date: string; hour: number } {
  const parts = Object.fromEntries(pacificHour.formatToParts(at).map(({ type, value }) => [type, value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

/** Midnight of a Pacific date: 07:00 or 08:00 UTC, as the clocks change at 02:00, never at midnight. */
function pacificMidnight(date: string): number {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  const summer = utcMidnight + 7 * hourMs;
  const { date: seen, hour } = pacificParts(summer);
  return seen === date && hour === 0 ? summer : utcMidnight + 8 * hourMs;
}

/** Midnight Pacific Time that starts the day holding `at`, and the one that ends it. */
export function pacificDay(at: Date): { start: Date; end: Date } {
  const { date } = pacificParts(at.getTime());
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 24 * hourMs).toISOString().slice(0, 10);
  return { start: new Date(pacificMidnight(date)), end: new Date(pacificMidnight(next)) };
}

/** Every profile on the same Google project counts against one cap; a profile with no client of its own, alone. */
export function youtubeCap(account: CapAccount, settings: PostingCapSettings): Cap {
  return {
    limit: settings.youtubeDailyUploads,
    windowMs: null,
    scope: account.youtubeClientId ? { youtubeClientId: account.youtubeClientId } : { accountId: account.id },
  };
}
