import { platformIds } from '../../../src/lib/platforms';
import type { PlatformName, StatsChoices, TopVideos } from '../../../src/lib/contract';
import { t } from '../../messages';
import type { Database } from '../../db/connect';
import { publishTimezone } from '../publishing/publish-date';

/** Kyiv days, `YYYY-MM-DD`, both included, checked by statsRangeSchema. */
export interface StatsDays {
  from: string;
  to: string;
}

/** Whose posts: every profile the user sees (an admin: every one), narrowed to one profile or group and one platform. */
export interface StatsSelection {
  /** The owner whose videos count; null for an admin, who sees every one. */
  ownerId: number | null;
  accountId?: number;
  groupId?: number;
  platform?: PlatformName;
}

/**
 * The conditions on posts `p` of videos `v` that a selection keeps, its values pushed onto
 * `values`. Only posts synced at least once have figures. A post belongs to its video's owner, so
 * the posts of a deleted profile stay the owner's.
 */
export function selectedPosts(selection: StatsSelection, values: unknown[]): string {
  const conditions = ['p.views IS NOT NULL'];
  if (selection.ownerId !== null) conditions.push(`v.user_id = $${values.push(selection.ownerId)}`);
  if (selection.accountId !== undefined) conditions.push(`p.account_id = $${values.push(selection.accountId)}`);
  if (selection.groupId !== undefined)
    conditions.push(`p.account_id IN (SELECT id FROM accounts WHERE group_id = $${values.push(selection.groupId)})`);
  if (selection.platform !== undefined) conditions.push(`p.platform = $${values.push(selection.platform)}`);
  return conditions.join(' AND ');
}

/** The moment a Kyiv day (an SQL date) starts, as SQL: its midnight in Kyiv, summer time or not. */
export const kyivMidnight = (day: string) => `((${day})::timestamp AT TIME ZONE '${publishTimezone}')`;

/** How many videos the top shows. */
export const topVideosLimit = 20;

/**
 * The videos whose posts gained the most views over the days: a post's views at the end of the
 * last day less its views at the start of the first (none before it: 0), summed over the video's
 * posts the selection keeps. A post's figures at a moment are its last point before it (points are
 * stored only on change). Two index probes per post, so its cost grows with the posts, never
 * with their history.
 */
export async function topVideos(db: Database, days: StatsDays, selection: StatsSelection): Promise<TopVideos> {
  const values: unknown[] = [days.from, days.to];
  const where = selectedPosts(selection, values);
  const { rows } = await db.sql(
    `WITH posts AS (
       SELECT p.id, p.video_id, p.platform FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id WHERE ${where}
     ), figures AS (
       SELECT posts.video_id, posts.platform, last.views, last.views - coalesce(prior.views, 0) AS gained
         FROM posts
         JOIN LATERAL (SELECT views FROM stats_points WHERE post_id = posts.id AND at < ${kyivMidnight('$2::date + 1')}
                        ORDER BY at DESC LIMIT 1) AS last ON true
         LEFT JOIN LATERAL (SELECT views FROM stats_points WHERE post_id = posts.id AND at < ${kyivMidnight('$1::date')}
                             ORDER BY at DESC LIMIT 1) AS prior ON true
     ), ranked AS (
       SELECT video_id, sum(gained)::bigint AS gained, sum(views)::bigint AS views, array_agg(platform) AS platforms
         FROM figures GROUP BY video_id HAVING sum(gained) > 0
        ORDER BY gained DESC, video_id LIMIT ${topVideosLimit}
     )
     SELECT ranked.*, videos.position, videos.account_id, accounts.comments, requests.id_upload, requests.title
       FROM ranked
       JOIN videos ON videos.id = ranked.video_id
       JOIN creation_requests AS requests ON requests.id = videos.request_id
       LEFT JOIN accounts ON accounts.id = videos.account_id
      ORDER BY ranked.gained DESC, ranked.video_id`,
    values,
  );
  return {
    videos: rows.map((row) => ({
      videoId: row.video_id,
      idUpload: row.id_upload,
      title: row.title ?? '',
      number: row.position + 1,
      account: row.account_id === null ? null : { id: row.account_id, title: t.accounts.optionTitle(row.account_id, row.comments ?? '') },
      platforms: platformIds.filter((platform) => (row.platforms as string[]).includes(platform)),
      gained: Number(row.gained),
      views: Number(row.views),
    })),
  };
}

/** The profiles and groups a user may narrow the statistics to: their own, or every one for an admin. */
export async function statsChoices(db: Database, ownerId: number | null): Promise<StatsChoices> {
  const owned = ownerId === null ? '' : 'WHERE user_id = $1';
  const values = ownerId === null ? [] : [ownerId];
  const [accounts, groups] = await Promise.all([
    db.sql(`SELECT id, comments FROM accounts ${owned} ORDER BY id`, values),
    db.sql(`SELECT id, name FROM account_groups ${owned} ORDER BY name, id`, values),
  ]);
  return {
    accounts: accounts.rows.map((row) => ({ id: row.id, title: t.accounts.optionTitle(row.id, row.comments) })),
    groups: groups.rows.map((row) => ({ id: row.id, name: row.name })),
  };
}
