import { platformIds } from '../../../src/lib/platforms';
import type { PostReach, ReachMark } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import type { Platform } from '../../platforms/types';

/** When a profile's reach is marked as limited, and a post as unseen (issue 32.2). */
export interface ReachSettings {
  /** REACH_RECENT_POSTS: the profile's latest posts that must each fall short (5). */
  recentPosts: number;
  /** REACH_HISTORY_POSTS: the posts before them whose median views they are held against (30); fewer, and nothing is marked. */
  historyPosts: number;
  /** REACH_RATIO: the share of that median under which a post falls short (0.1). */
  ratio: number;
  /**
   * REACH_SETTLED_HOURS: a post counts once it has been live this long (48): younger ones have not
   * had their views yet. A post read with no views past it is marked unseen.
   */
  settledHours: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

/**
 * After a sync of one profile's platform: the profile is marked 'Можливе обмеження показів' there
 * when each of its last `recentPosts` settled posts drew under `ratio` of the median views of the
 * `historyPosts` settled posts before them, and the mark is lifted when that no longer holds. A
 * profile with fewer settled posts, or whose earlier posts drew no views at all, is not judged.
 * The posts are the newest by when they went live, read through the index of the profile's
 * published posts: a constant amount of work per sync, whatever the profile's history.
 */
export async function judgeReach(
  db: Database,
  accountId: number,
  platform: Platform,
  settings: ReachSettings,
  now: number,
): Promise<boolean> {
  const settledBy = new Date(now - settings.settledHours * 3600_000);
  const { rows } = await db.sql(
    `SELECT id, views FROM video_posts
      WHERE account_id = $1 AND platform = $2 AND status = 'done' AND published_at <= $3 AND views IS NOT NULL
      ORDER BY published_at DESC, id DESC LIMIT $4`,
    [accountId, platform, settledBy, settings.recentPosts + settings.historyPosts],
  );
  const recent = rows.slice(0, settings.recentPosts);
  const history = rows.slice(settings.recentPosts).map((row) => row.views as number);
  const typical = history.length === settings.historyPosts ? median(history) : 0;
  const limited = typical > 0 && recent.every((row) => row.views < settings.ratio * typical);
  if (!limited) {
    await db.sql(`DELETE FROM profile_reach WHERE account_id = $1 AND platform = $2`, [accountId, platform]);
    return false;
  }
  await db.sql(
    `INSERT INTO profile_reach (account_id, platform, post_ids, views, median_views, history_posts, marked_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (account_id, platform) DO UPDATE SET post_ids = EXCLUDED.post_ids, views = EXCLUDED.views,
       median_views = EXCLUDED.median_views, history_posts = EXCLUDED.history_posts`,
    [accountId, platform, recent.map((row) => row.id), recent.map((row) => row.views), typical, history.length, new Date(now)],
  );
  return true;
}

/**
 * Marks the posts just read that went live at least `settledHours` ago and still have no views,
 * and lifts the mark from those that have some now.
 */
export async function markUnseenPosts(db: Database, postIds: number[], settings: ReachSettings, now: number): Promise<void> {
  if (postIds.length === 0) return;
  await db.sql(
    `UPDATE video_posts SET no_views_since = CASE WHEN views = 0 AND published_at <= $2 THEN coalesce(no_views_since, $3) END
      WHERE id = ANY($1::integer[]) AND (no_views_since IS NOT NULL OR (views = 0 AND published_at <= $2))`,
    [postIds, new Date(now - settings.settledHours * 3600_000), new Date(now)],
  );
}

/** The rows of profile_reach as a profile's summary carries them (summaryColumns). */
export interface StoredReach {
  platform: Platform;
  views: number[];
  medianViews: number;
  historyPosts: number;
  markedAt: string;
}

/** A profile's reach marks on the platforms switched on. */
export function reachOf(stored: StoredReach[], active: Record<Platform, boolean>): ReachMark[] {
  return stored
    .filter((mark) => active[mark.platform])
    .map((mark) => ({ ...mark, markedAt: new Date(mark.markedAt).toISOString() }))
    .sort((a, b) => platformIds.indexOf(a.platform) - platformIds.indexOf(b.platform));
}

/**
 * The reach marks of a set's posts (of one video of it, with `videoId`), by video: each post read
 * with no views once settled, and each post behind its profile's mark.
 */
export async function postReachOf(db: Pick<Database, 'sql'>, requestId: number, videoId?: number): Promise<Map<number, PostReach[]>> {
  const params = videoId === undefined ? [requestId] : [requestId, videoId];
  const { rows } = await db.sql(
    `SELECT p.video_id, p.platform, p.views, r.median_views,
            CASE WHEN p.no_views_since IS NOT NULL THEN floor(extract(epoch FROM p.no_views_since - p.published_at) / 3600)::int END AS hours_live
       FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id
       LEFT JOIN profile_reach AS r ON r.account_id = p.account_id AND r.platform = p.platform AND p.id = ANY(r.post_ids)
      WHERE v.request_id = $1 ${videoId === undefined ? '' : 'AND v.id = $2'} AND p.status = 'done'
        AND (p.no_views_since IS NOT NULL OR r.account_id IS NOT NULL)
      ORDER BY p.video_id, array_position($${params.length + 1}::text[], p.platform)`,
    [...params, platformIds],
  );
  const marks = new Map<number, PostReach[]>();
  for (const row of rows) {
    const unseen = row.hours_live !== null;
    const mark: PostReach = {
      platform: row.platform,
      mark: unseen ? 'unseen' : 'limited',
      views: row.views ?? 0,
      medianViews: unseen ? null : row.median_views,
      hoursLive: unseen ? Math.max(0, row.hours_live) : null,
    };
    marks.set(row.video_id, [...(marks.get(row.video_id) ?? []), mark]);
  }
  return marks;
}
