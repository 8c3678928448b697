import { platformIds } from '../../../src/lib/platforms';
import { kyivMomentOf } from '../../../src/lib/calendar';
import type { PlatformName, StatsChoices, StatsOverview, TopVideos } from '../../../src/lib/contract';
import { profileName } from '../../../src/lib/profile-name';
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
 * `values`. A post belongs to its video's owner, so the posts of a deleted profile stay the owner's.
 */
export function ownedPosts(selection: StatsSelection, values: unknown[]): string {
  const conditions: string[] = [];
  if (selection.ownerId !== null) conditions.push(`v.user_id = $${values.push(selection.ownerId)}`);
  if (selection.accountId !== undefined) conditions.push(`p.account_id = $${values.push(selection.accountId)}`);
  if (selection.groupId !== undefined)
    conditions.push(`p.account_id IN (SELECT id FROM accounts WHERE group_id = $${values.push(selection.groupId)})`);
  if (selection.platform !== undefined) conditions.push(`p.platform = $${values.push(selection.platform)}`);
  return conditions.length === 0 ? 'true' : conditions.join(' AND ');
}

/** The same posts as `ownedPosts`, but only those synced at least once: only they have figures. */
export const selectedPosts = (selection: StatsSelection, values: unknown[]): string =>
  `p.views IS NOT NULL AND ${ownedPosts(selection, values)}`;

/**
 * A post's figures at a moment, as a LATERAL subquery: its last point before it (points are
 * stored only on change, so a figure holds until the next). One index probe.
 */
export const pointBefore = (post: string, moment: string) =>
  `LATERAL (SELECT views, likes, comments FROM stats_points WHERE post_id = ${post} AND at < ${moment} ORDER BY at DESC LIMIT 1)`;

/**
 * The joins that give post `post` its figures at the end of a span (`last`; a post with none then
 * has nothing to count and drops out) and at its start (`prior`, null when it had none).
 */
export const spanFigures = (post: string, start: string, end: string) =>
  `JOIN ${pointBefore(post, end)} AS last ON true LEFT JOIN ${pointBefore(post, start)} AS prior ON true`;

/** What a post gained over the span of `spanFigures`: its figure at the end less its figure at the start (none then: 0). */
export const gainedOverSpan = (figure: 'views' | 'likes' | 'comments') => `(last.${figure} - coalesce(prior.${figure}, 0))`;

/** The moment a Kyiv day (an SQL date) starts, as SQL: its midnight in Kyiv, summer time or not. */
export const kyivMidnight = (day: string) => `((${day})::timestamp AT TIME ZONE '${publishTimezone}')`;

/** The Kyiv day a moment (SQL timestamptz) falls on, as an SQL date. */
const kyivDayOf = (moment: string) => `(${moment} AT TIME ZONE '${publishTimezone}')::date`;

/**
 * The posts a selection keeps, with their figures over the days (`$1` to `$2`, Kyiv days): views,
 * likes and comments at the end of the last day and what each gained since the start of the first.
 * Two index probes per post, so its cost grows with the posts, never with their history. The one
 * reckoning of "gained" that the top, the totals and the profiles' ranking share.
 */
function postsOverDays(where: string): string {
  return `SELECT p.id, p.video_id, p.account_id, p.platform, last.views,
                 ${gainedOverSpan('views')} AS gained, ${gainedOverSpan('likes')} AS likes_gained,
                 ${gainedOverSpan('comments')} AS comments_gained
            FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id
            ${spanFigures('p.id', kyivMidnight('$1::date'), kyivMidnight('$2::date + 1'))}
           WHERE ${where}`;
}

/** How many videos the top shows. */
export const topVideosLimit = 20;

/** The videos whose posts gained the most views over the days, summed over the video's posts the selection keeps. */
export async function topVideos(db: Database, days: StatsDays, selection: StatsSelection): Promise<TopVideos> {
  const values: unknown[] = [days.from, days.to];
  const where = selectedPosts(selection, values);
  const { rows } = await db.sql(
    `WITH figures AS (${postsOverDays(where)}), ranked AS (
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

/** How many profiles the overview ranks. */
export const rankedProfilesLimit = 10;

/** The day after a `YYYY-MM-DD` day: plain calendar arithmetic at noon, untouched by summer time. */
const nextDay = (day: string) => new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The days from `from` to `to`, both included, `YYYY-MM-DD`. */
export function daysOf({ from, to }: StatsDays): string[] {
  const days = [from];
  while (days.at(-1)! < to) days.push(nextDay(days.at(-1)!));
  return days;
}

/** A ranked profile as the pickers name it: its number and what the operator calls it (src/lib/profile-name.ts). */
function profileOf(row: {
  account_id: number;
  account_comments: string | null;
  youtube_login: string | null;
  instagram_login: string | null;
}) {
  const connectedAs = { youtube: row.youtube_login ?? undefined, instagram: row.instagram_login ?? undefined };
  return {
    id: row.account_id,
    title: t.accounts.optionTitle(row.account_id, profileName({ comments: row.account_comments ?? '', connectedAs })),
  };
}

/**
 * The period at a glance: per platform the views, likes and comments its posts gained and the
 * posts published in it; each Kyiv day's views gained per platform; the profiles that gained the
 * most. Three statements, each over the posts the selection keeps.
 */
export async function statsOverview(db: Database, days: StatsDays, selection: StatsSelection): Promise<StatsOverview> {
  const values: unknown[] = [days.from, days.to];
  const owned = ownedPosts(selection, values);
  const synced = `p.views IS NOT NULL AND ${owned}`;
  const periodDays = daysOf(days);

  const [totals, daily, profiles] = await Promise.all([
    db.sql(
      `WITH figures AS (${postsOverDays(synced)}),
            gained AS (SELECT platform, sum(gained)::bigint AS views, sum(likes_gained)::bigint AS likes,
                              sum(comments_gained)::bigint AS comments
                         FROM figures GROUP BY platform),
            published AS (SELECT p.platform, count(*)::integer AS posts
                            FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id
                           WHERE ${owned} AND p.status = 'done'
                             AND p.published_at >= ${kyivMidnight('$1::date')} AND p.published_at < ${kyivMidnight('$2::date + 1')}
                           GROUP BY p.platform)
       SELECT platform, coalesce(gained.views, 0) AS views, coalesce(gained.likes, 0) AS likes,
              coalesce(gained.comments, 0) AS comments, coalesce(published.posts, 0) AS posts
         FROM gained FULL JOIN published USING (platform)`,
      values,
    ),
    // A day's gain is the views at its end less those at its start, summed over the posts: each
    // point read in the period adds what it rose by since the point before it (the last before the
    // period for its first), on the Kyiv day it was read. The steps add up to the period's gain as
    // the totals count it, and cost a range of each post's index, not a probe per post and day.
    db.sql(
      `WITH posts AS (SELECT p.id, p.platform FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id WHERE ${synced}),
            steps AS (
              SELECT posts.platform, point.at,
                     point.views - coalesce(lag(point.views) OVER (PARTITION BY posts.id ORDER BY point.at), prior.views, 0) AS gained
                FROM posts
                JOIN LATERAL (SELECT at, views FROM stats_points
                               WHERE post_id = posts.id AND at >= ${kyivMidnight('$1::date')} AND at < ${kyivMidnight('$2::date + 1')}) AS point ON true
                LEFT JOIN ${pointBefore('posts.id', kyivMidnight('$1::date'))} AS prior ON true
            )
       SELECT to_char(${kyivDayOf('steps.at')}, 'YYYY-MM-DD') AS day, platform, sum(gained)::bigint AS views
         FROM steps GROUP BY 1, 2`,
      values,
    ),
    db.sql(
      `WITH figures AS (${postsOverDays(synced)}), ranked AS (
         SELECT account_id, sum(gained)::bigint AS gained, sum(likes_gained)::bigint AS likes,
                sum(comments_gained)::bigint AS comments, count(*)::integer AS posts
           FROM figures GROUP BY account_id HAVING sum(gained) > 0
          ORDER BY gained DESC, account_id NULLS LAST LIMIT ${rankedProfilesLimit}
       )
       SELECT ranked.*, accounts.comments AS account_comments, accounts.youtube_login, accounts.instagram_login
         FROM ranked LEFT JOIN accounts ON accounts.id = ranked.account_id
        ORDER BY ranked.gained DESC, ranked.account_id NULLS LAST`,
      values,
    ),
  ]);

  const position = new Map(periodDays.map((day, index) => [day, index]));
  const gains = new Map<PlatformName, number[]>();
  for (const row of daily.rows) {
    const platform = row.platform as PlatformName;
    if (!gains.has(platform))
      gains.set(
        platform,
        periodDays.map(() => 0),
      );
    gains.get(platform)![position.get(row.day)!] = Number(row.views);
  }
  const byPlatform = new Map(totals.rows.map((row) => [row.platform as PlatformName, row]));

  return {
    totals: platformIds
      .filter((platform) => byPlatform.has(platform))
      .map((platform) => {
        const row = byPlatform.get(platform)!;
        return { platform, gained: Number(row.views), likes: Number(row.likes), comments: Number(row.comments), posts: row.posts };
      }),
    days: periodDays,
    at: periodDays.map((day) => Date.parse(kyivMomentOf(`${day}T00:00`)) / 1000),
    daily: platformIds.filter((platform) => gains.has(platform)).map((platform) => ({ platform, values: gains.get(platform)! })),
    profiles: profiles.rows.map((row) => ({
      account: row.account_id === null ? null : profileOf(row),
      gained: Number(row.gained),
      likes: Number(row.likes),
      comments: Number(row.comments),
      posts: row.posts,
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
