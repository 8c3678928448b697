import { platformIds } from '../../../src/lib/platforms';
import type { PlatformName, StatsFigures, StatsPeriod, StatsReport } from '../../../src/lib/contract';
import { t } from '../../messages';
import type { Database } from '../../db/connect';

export interface Figures {
  views: number;
  likes: number;
  comments: number;
}

/**
 * Keeps posts' latest figures and, where they differ from the previous ones, their history: one
 * point per post and clock hour, holding the hour's latest figures and when they were read. No
 * chart resolves finer than an hour, so a sync every 15 minutes costs a row an hour, not four, and
 * a sync that read nothing new costs none. One statement for a whole batch of reads (the posts
 * distinct), whose parts all see the rows as they were before it: a sync of hundreds of thousands
 * of posts costs the database a statement per call to the platform, not one per post. Returns the
 * posts whose history changed. `at` is the read's moment on the app's clock, which reports measure by.
 */
export async function recordStats(db: Database, read: ({ postId: number } & Figures)[], at: Date): Promise<number[]> {
  if (read.length === 0) return [];
  const { rows } = await db.sql(
    `WITH input AS (SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[], $4::integer[]) AS input(post_id, views, likes, comments)),
          changed AS (SELECT input.* FROM input JOIN video_posts AS previous ON previous.id = input.post_id
                       WHERE (previous.views, previous.likes, previous.comments) IS DISTINCT FROM (input.views, input.likes, input.comments)),
          updated AS (UPDATE video_posts AS post SET views = input.views, likes = input.likes, comments = input.comments, stats_synced_at = $5::timestamptz
                         FROM input WHERE post.id = input.post_id),
          this_hour AS (UPDATE stats_points AS point SET at = $5::timestamptz, views = changed.views, likes = changed.likes, comments = changed.comments
                          FROM changed WHERE point.post_id = changed.post_id AND point.at >= date_trunc('hour', $5::timestamptz)
                        RETURNING point.post_id),
          added AS (INSERT INTO stats_points (post_id, at, views, likes, comments)
                    SELECT post_id, $5::timestamptz, views, likes, comments FROM changed WHERE post_id NOT IN (SELECT post_id FROM this_hour)
                    RETURNING post_id)
     SELECT post_id FROM this_hour UNION ALL SELECT post_id FROM added`,
    [
      read.map((entry) => entry.postId),
      read.map((entry) => entry.views),
      read.map((entry) => entry.likes),
      read.map((entry) => entry.comments),
      at,
    ],
  );
  return rows.map((row) => row.post_id as number);
}

/** Whose posts a report covers: a published set's, or a profile's. */
export type StatsScope = { requestId: number } | { accountId: number };

/** Posts synced at least once; a profile's are found through the index of its done posts. */
function scopedPosts(scope: StatsScope): { text: string; value: number } {
  return 'requestId' in scope
    ? {
        text: `SELECT p.id, p.platform, p.account_id, p.views, p.likes, p.comments, p.stats_synced_at
                 FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id
                WHERE v.request_id = $1 AND p.views IS NOT NULL`,
        value: scope.requestId,
      }
    : {
        text: `SELECT p.id, p.platform, p.account_id, p.views, p.likes, p.comments, p.stats_synced_at
                 FROM video_posts AS p
                WHERE p.account_id = $1 AND p.status = 'done' AND p.views IS NOT NULL`,
        value: scope.accountId,
      };
}

/**
 * The series has a bounded number of moments whatever the period (25 to 46), so a profile with
 * thousands of posts costs moments × posts index probes, never a scan of its points.
 */
const stepSeconds: Record<StatsPeriod, number> = { 1: 3600, 7: 6 * 3600, 30: 86_400, 90: 2 * 86_400 };

/**
 * Views over the period and the latest totals. A post's value at a moment is its last point at or
 * before it (points are stored only on change, so a value holds until the next one).
 */
export async function statsReport(db: Database, scope: StatsScope, days: StatsPeriod, now: Date): Promise<StatsReport> {
  const step = stepSeconds[days];
  // Rounded up, so a point stored earlier in the current second is in the last moment.
  const end = Math.ceil(now.getTime() / 1000);
  const count = Math.round((days * 86_400) / step);
  const at = Array.from({ length: count + 1 }, (_, index) => end - (count - index) * step);
  const posts = scopedPosts(scope);

  const [series, totals] = await Promise.all([
    db.sql(
      `WITH posts AS (${posts.text}), moments AS (SELECT unnest($2::bigint[]) AS at)
       SELECT moments.at, posts.platform, sum(point.views)::bigint AS views
         FROM moments CROSS JOIN posts
         JOIN LATERAL (SELECT views FROM stats_points
                        WHERE stats_points.post_id = posts.id AND stats_points.at <= to_timestamp(moments.at)
                        ORDER BY stats_points.at DESC LIMIT 1) AS point ON true
        GROUP BY moments.at, posts.platform`,
      [posts.value, at],
    ),
    db.sql(
      `WITH posts AS (${posts.text})
       SELECT posts.account_id, accounts.comments AS title, posts.platform, count(*)::integer AS posts,
              sum(posts.views)::bigint AS views, sum(posts.likes)::bigint AS likes, sum(posts.comments)::bigint AS comments,
              max(posts.stats_synced_at) AS synced_at
         FROM posts LEFT JOIN accounts ON accounts.id = posts.account_id
        GROUP BY posts.account_id, accounts.comments, posts.platform
        ORDER BY posts.account_id NULLS LAST, posts.platform`,
      [posts.value],
    ),
  ]);

  const index = new Map(at.map((moment, position) => [moment, position]));
  const views = new Map<PlatformName, number[]>();
  for (const row of series.rows) {
    const platform = row.platform as PlatformName;
    if (!views.has(platform))
      views.set(
        platform,
        at.map(() => 0),
      );
    views.get(platform)![index.get(Number(row.at))!] = Number(row.views);
  }

  const byPlatform = new Map<PlatformName, StatsFigures>();
  const byProfile = new Map<number | null, StatsReport['byProfile'][number]>();
  let syncedAt: Date | null = null;
  for (const row of totals.rows) {
    const figures: StatsFigures = { posts: row.posts, views: Number(row.views), likes: Number(row.likes), comments: Number(row.comments) };
    const platform = row.platform as PlatformName;
    byPlatform.set(platform, addFigures(byPlatform.get(platform), figures));
    const accountId = row.account_id === null ? null : Number(row.account_id);
    const account = accountId === null ? null : { id: accountId, title: t.accounts.optionTitle(accountId, row.title ?? '') };
    byProfile.set(accountId, { account, ...addFigures(byProfile.get(accountId), figures) });
    const synced = new Date(row.synced_at);
    if (!syncedAt || synced > syncedAt) syncedAt = synced;
  }

  return {
    days,
    at,
    views: platformIds.filter((platform) => views.has(platform)).map((platform) => ({ platform, values: views.get(platform)! })),
    byPlatform: platformIds.filter((platform) => byPlatform.has(platform)).map((platform) => ({ platform, ...byPlatform.get(platform)! })),
    byProfile: [...byProfile.values()],
    syncedAt: syncedAt ? syncedAt.toISOString() : null,
  };
}

function addFigures(sum: StatsFigures | undefined, figures: StatsFigures): StatsFigures {
  if (!sum) return figures;
  return {
    posts: sum.posts + figures.posts,
    views: sum.views + figures.views,
    likes: sum.likes + figures.likes,
    comments: sum.comments + figures.comments,
  };
}
