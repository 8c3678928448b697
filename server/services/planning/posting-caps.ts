import type { CapDetail } from '../../../src/lib/post-waits';
import type { Database } from '../../db/connect';
import { quotaRetryMs } from '../../platforms/errors';
import type { Cap, CapAccount, Platform, PostingCapSettings, PublishingLimit } from '../../platforms/types';
import { serverPlatforms } from '../../platforms/registry';
import { pacificDay } from '../../platforms/youtube/caps';
import { platformOf } from '../../../src/lib/platforms';

/**
 * The platforms' posting caps as planning inputs (issue 23.2). A post past its profile's cap is
 * held until the window frees, never failed:
 * - Instagram, "IG User Content Publishing Limit": `quota_total` posts per account within a moving
 *   `quota_duration` (86,400 s), read from the platform through the connector and cached briefly
 *   (server/platforms/instagram/caps.ts);
 * - TikTok, "Content Posting API – Direct Post": a daily post cap per creator
 *   (`spam_risk_too_many_posts`), counted here over a moving 24 hours, TIKTOK_DAILY_POSTS
 *   (server/platforms/tiktok/caps.ts);
 * - YouTube, "Quota Calculator": 100 `videos.insert` a day per project (the profile's OAuth
 *   client), resetting at midnight Pacific Time, YOUTUBE_DAILY_UPLOADS (server/platforms/youtube/caps.ts).
 * Usage is counted from video_posts' published_at (migration 0025), one indexed query per check.
 */

const hour = 60 * 60 * 1000;

/**
 * The cap of one profile on one platform now, as its platform counts it; `live` is the platform's
 * own figure where it publishes one (Instagram's), null when unread: the cap is then unknown.
 */
export function capOf(platform: Platform, account: CapAccount, live: PublishingLimit | null, settings: PostingCapSettings): Cap | null {
  return serverPlatforms[platform].cap(account, settings, live);
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
export async function holdFor(db: Database, platform: Platform, cap: Cap, now: Date): Promise<CapHold | null> {
  const published = await publishedSince(db, platform, cap, windowStart(cap, now));
  const until = freeAt(cap, published, now);
  return until && { detail: heldDetail(cap), until };
}

/**
 * The platform answered its cap before ours was reached (posts made elsewhere, a lower cap than
 * configured): held until the oldest counted post ages out, or the next Pacific midnight, or an hour.
 */
export async function holdAfterRefusal(db: Database, platform: Platform, cap: Cap | null, now: Date): Promise<CapHold> {
  const detail: CapDetail = { refused: true };
  if (platformOf(platform).cap.window === 'pacific-day') return { detail, until: pacificDay(now).end };
  if (!cap || cap.windowMs === null) return { detail, until: new Date(now.getTime() + quotaRetryMs) };
  const [oldest] = await publishedSince(db, platform, cap, windowStart(cap, now));
  const until = oldest ? new Date(oldest.getTime() + cap.windowMs) : new Date(now.getTime() + quotaRetryMs);
  return { detail, until: until > now ? until : new Date(now.getTime() + quotaRetryMs) };
}
