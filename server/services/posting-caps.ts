import type { CapDetail } from '../../src/lib/post-waits';
import { dayjs } from '../../src/lib/dates';
import { LRUCache } from 'lru-cache';
import type { Database } from '../db/connect';
import type { accounts } from '../db/schema';
import { quotaRetryMs } from '../platforms/errors';
import type { Platform, PostingCapSettings, PublishingLimit } from '../platforms/types';

/**
 * The platforms' posting caps as planning inputs (issue 23.2). A post past its profile's cap is
 * held until the window frees, never failed:
 * - Instagram, "IG User Content Publishing Limit": `quota_total` posts per account within a moving
 *   `quota_duration` (86,400 s), read from the platform through the connector and cached briefly;
 * - TikTok, "Content Posting API – Direct Post": a daily post cap per creator
 *   (`spam_risk_too_many_posts`), counted here over a moving 24 hours, TIKTOK_DAILY_POSTS;
 * - YouTube, "Quota Calculator": 100 `videos.insert` a day per project (the profile's OAuth
 *   client), resetting at midnight Pacific Time, YOUTUBE_DAILY_UPLOADS.
 * Usage is counted from video_posts' published_at (migration 0025), one indexed query per check.
 */

const hour = 60 * 60 * 1000;
const day = 24 * hour;
export const pacificTimezone = 'America/Los_Angeles';

/** Midnight Pacific Time that starts the day holding `at`, and the one that ends it. */
export function pacificDay(at: Date): { start: Date; end: Date } {
  const start = dayjs(at).tz(pacificTimezone).startOf('day');
  const end = dayjs.tz(start.add(1, 'day').format('YYYY-MM-DD'), pacificTimezone);
  return { start: start.toDate(), end: end.toDate() };
}

/** Instagram's figure changes only when Meta changes it: reading it once per few minutes per account is enough. */
const instagramLimitTtlMs = 5 * 60 * 1000;
const instagramLimits = new LRUCache<string, PublishingLimit, () => Promise<PublishingLimit>>({
  // One entry per Instagram profile, a few numbers each: far more profiles than an installation has.
  max: 10_000,
  ttl: instagramLimitTtlMs,
  // A failed read answers the last figure known, however old.
  allowStaleOnFetchRejection: true,
  fetchMethod: (_key, _stale, { context: read }) => read(),
});

/** The Instagram account's cap, from the cache when fresh; null when the platform cannot tell. */
export async function instagramLimit(key: string, read: () => Promise<PublishingLimit>): Promise<PublishingLimit | null> {
  // Unknown for now: the post is tried, and the platform's own cap answer still holds it.
  return (await instagramLimits.fetch(key, { context: read }).catch(() => undefined)) ?? null;
}

/** Drops cached Instagram figures, for tests that change the sandbox's cap. */
export function forgetInstagramLimits() {
  instagramLimits.clear();
}

type CapAccount = Pick<typeof accounts.$inferSelect, 'id' | 'youtubeClientId'>;

/** The cap of one profile on one platform now: how many, over which window, and whose posts count. */
export interface Cap {
  limit: number;
  /** A moving window of this length, or (null) YouTube's Pacific day. */
  windowMs: number | null;
  /** The profiles whose posts count: the profile itself, or every profile on the same Google project. */
  scope: { accountId: number } | { youtubeClientId: string };
}

export function capOf(
  platform: Platform,
  account: CapAccount,
  instagram: PublishingLimit | null,
  settings: PostingCapSettings,
): Cap | null {
  if (platform === 'instagram') {
    if (!instagram) return null;
    return {
      limit: instagram.limit,
      windowMs: instagram.windowSeconds * 1000,
      scope: { accountId: account.id },
    };
  }
  if (platform === 'tiktok') return { limit: settings.tiktokDailyPosts, windowMs: day, scope: { accountId: account.id } };
  return {
    limit: settings.youtubeDailyUploads,
    windowMs: null,
    scope: account.youtubeClientId ? { youtubeClientId: account.youtubeClientId } : { accountId: account.id },
  };
}

/** The posts of a cap's scope on a platform, as SQL over video_posts `p`, with its parameters from $3 on. */
function scopeSql(cap: Cap): { where: string; value: number | string } {
  return 'accountId' in cap.scope
    ? { where: 'p.account_id = $3', value: cap.scope.accountId }
    : { where: 'p.account_id IN (SELECT id FROM accounts WHERE youtube_client_id = $3)', value: cap.scope.youtubeClientId };
}

/** The published times of the scope's posts from `since` on, oldest first (one range scan of video_posts_published_window_idx). */
async function publishedSince(db: Database, platform: Platform, cap: Cap, since: Date): Promise<Date[]> {
  const scope = scopeSql(cap);
  const { rows } = await db.sql(
    `SELECT p.published_at FROM video_posts p
      WHERE p.platform = $1 AND p.status = 'done' AND p.published_at >= $2 AND ${scope.where}
      ORDER BY p.published_at`,
    [platform, since, scope.value],
  );
  return rows.map((row) => new Date(row.published_at as string));
}

export interface CapHold {
  /** Which cap holds the post, for the words the set's page gives it (waitText). */
  detail: CapDetail;
  /** When the window frees enough for one more post. */
  until: Date;
}

function heldDetail(cap: Cap): CapDetail {
  return { limit: cap.limit, windowHours: cap.windowMs === null ? null : Math.round(cap.windowMs / hour) };
}

/** Where the window that counts against a post made at `now` starts: a moving window's length back, or Pacific midnight. */
export function windowStart(cap: Pick<Cap, 'windowMs'>, now: Date): Date {
  // A post exactly one window old has aged out: the moving window is (now - length, now].
  return cap.windowMs === null ? pacificDay(now).start : new Date(now.getTime() - cap.windowMs + 1);
}

/**
 * When one more post fits, given the window's posts (oldest first, all from windowStart on): null
 * when it fits now; in a moving window, once enough of the oldest have aged out; on YouTube, at
 * the next Pacific midnight.
 */
export function freeAt(cap: Pick<Cap, 'limit' | 'windowMs'>, published: Date[], now: Date): Date | null {
  if (published.length < cap.limit) return null;
  if (cap.windowMs === null) return pacificDay(now).end;
  return new Date(published[published.length - cap.limit]!.getTime() + cap.windowMs);
}

/** Whether one more post now would pass the cap, and if so until when it waits. */
export async function holdFor(db: Database, platform: Platform, cap: Cap, now = new Date()): Promise<CapHold | null> {
  const published = await publishedSince(db, platform, cap, windowStart(cap, now));
  const until = freeAt(cap, published, now);
  return until && { detail: heldDetail(cap), until };
}

/**
 * The platform answered its cap before ours was reached (posts made elsewhere, a lower cap than
 * configured): held until the oldest counted post ages out, or the next Pacific midnight, or an hour.
 */
export async function holdAfterRefusal(db: Database, platform: Platform, cap: Cap | null, now = new Date()): Promise<CapHold> {
  const detail: CapDetail = { refused: true };
  if (platform === 'youtube') return { detail, until: pacificDay(now).end };
  if (!cap || cap.windowMs === null) return { detail, until: new Date(now.getTime() + quotaRetryMs) };
  const [oldest] = await publishedSince(db, platform, cap, windowStart(cap, now));
  const until = oldest ? new Date(oldest.getTime() + cap.windowMs) : new Date(now.getTime() + quotaRetryMs);
  return { detail, until: until > now ? until : new Date(now.getTime() + quotaRetryMs) };
}
