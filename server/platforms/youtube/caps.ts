import { dayjs } from '../../../src/lib/dates';
import type { Cap, CapAccount, PostingCapSettings } from '../types';

/**
 * YouTube's posting cap ("Quota Calculator"): 100 `videos.insert` a day per Google Cloud project
 * (the profile's OAuth client), resetting at midnight Pacific Time, YOUTUBE_DAILY_UPLOADS.
 */
export const pacificTimezone = 'America/Los_Angeles';

/** Midnight Pacific Time that starts the day holding `at`, and the one that ends it. */
export function pacificDay(at: Date): { start: Date; end: Date } {
  const start = dayjs(at).tz(pacificTimezone).startOf('day');
  const end = dayjs.tz(start.add(1, 'day').format('YYYY-MM-DD'), pacificTimezone);
  return { start: start.toDate(), end: end.toDate() };
}

/** Every profile on the same Google project counts against one cap; a profile with no client of its own, alone. */
export function youtubeCap(account: CapAccount, settings: PostingCapSettings): Cap {
  return {
    limit: settings.youtubeDailyUploads,
    windowMs: null,
    scope: account.youtubeClientId ? { youtubeClientId: account.youtubeClientId } : { accountId: account.id },
  };
}
