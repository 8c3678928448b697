import type { CalendarRange, EffectiveSlots, PostingSlots, SessionUser } from '../../../src/lib/contract';
import { t } from '../../messages';
import { waitFields } from '../../../src/lib/post-waits';
import { profileName } from '../../../src/lib/profile-name';
import type { Database } from '../../db/connect';
import { profileSlots } from './posting-slots';
import { postsOfSets, storedPostColumns, videoPostOf } from '../publishing/video-status';

/** The most posts one answer carries: a week of a busy agency (60 profiles × 21) fits, a runaway range does not. */
export const calendarLimit = 2000;

export interface CalendarQuery {
  from: Date;
  to: Date;
  accountId?: number;
  /** A group the user may see (the route checked it): its profiles' posts. */
  groupId?: number;
}

/**
 * The posts scheduled in [from, to): an operator's through their own profiles, read from the
 * (account_id, scheduled_at) index profile by profile; an admin's from the scheduled_at index.
 */
export async function calendarRange(
  db: Database,
  user: SessionUser,
  query: CalendarQuery,
  installationSlots: PostingSlots,
): Promise<CalendarRange> {
  const values: unknown[] = [query.from.toISOString(), query.to.toISOString()];
  const owned = user.role === 'admin' ? '' : `AND accounts.user_id = $${values.push(user.id)}`;
  const inRange = `video_posts.scheduled_at >= $1 AND video_posts.scheduled_at < $2 ${owned}`;
  const profileValues = [...values];
  const filter =
    query.accountId !== undefined
      ? `AND video_posts.account_id = $${values.push(query.accountId)}`
      : query.groupId !== undefined
        ? `AND accounts.group_id = $${values.push(query.groupId)}`
        : '';
  const groupValues = user.role === 'admin' ? [] : [user.id];

  const [posts, profiles, groups, slots] = await Promise.all([
    // A video's posts move together, and only while none of them has started or settled; a post is
    // cancelled alone while it has not started. A post's own title (issue 43: an imported plan's)
    // comes before its set's.
    db.sql(
      `SELECT video_posts.id, video_posts.video_id, creation_requests.id AS request_id, creation_requests.id_upload,
              COALESCE(video_posts.title, creation_requests.title) AS title,
              video_posts.platform, ${storedPostColumns('video_posts')}, video_posts.scheduled_at, video_posts.wait_detail,
              video_posts.url, video_posts.published_at,
              accounts.id AS account_id, accounts.comments, accounts.youtube_login, accounts.instagram_login,
              video_posts.status = 'pending' AND video_posts.started_at IS NULL AS cancellable,
              video_posts.status = 'pending' AND video_posts.started_at IS NULL AND NOT EXISTS (
                SELECT 1 FROM video_posts AS sibling
                 WHERE sibling.video_id = video_posts.video_id AND (sibling.status <> 'pending' OR sibling.started_at IS NOT NULL)
              ) AS changeable
         FROM video_posts
         JOIN accounts ON accounts.id = video_posts.account_id
         JOIN videos ON videos.id = video_posts.video_id
         JOIN creation_requests ON creation_requests.id = videos.request_id
        WHERE ${inRange} ${filter}
        ORDER BY video_posts.scheduled_at, video_posts.id
        LIMIT ${calendarLimit + 1}`,
      values,
    ),
    db.sql(
      `SELECT DISTINCT accounts.id AS account_id, accounts.comments, accounts.youtube_login, accounts.instagram_login
         FROM video_posts JOIN accounts ON accounts.id = video_posts.account_id
        WHERE ${inRange} ORDER BY account_id`,
      profileValues,
    ),
    db.sql(`SELECT id, name FROM account_groups ${groupValues.length ? 'WHERE user_id = $1' : ''} ORDER BY name, id`, groupValues),
    query.accountId === undefined ? null : visibleSlots(db, user, query.accountId, installationSlots),
  ]);
  const shown = posts.rows.slice(0, calendarLimit);
  // The sets of the posts shown, each with all its posts by state, read at once.
  const sets = await postsOfSets(db.sql, [...new Set(shown.map((row) => row.request_id as number))]);
  const idUploads = new Map(shown.map((row) => [row.request_id as number, row.id_upload as string]));
  return {
    posts: shown.map((row) => {
      const { state, kind, url, error } = videoPostOf(row);
      return {
        id: row.id,
        videoId: row.video_id,
        idUpload: row.id_upload,
        title: row.title ?? '',
        platform: row.platform,
        state,
        kind,
        url,
        error,
        scheduledAt: new Date(row.scheduled_at).toISOString(),
        account: profileOf(row),
        ...waitFields(row.status === 'pending' ? { platform: row.platform, kind: row.wait_kind, detail: row.wait_detail } : null),
        changeable: row.changeable,
        cancellable: row.cancellable,
      };
    }),
    truncated: posts.rows.length > calendarLimit,
    sets: [...sets].map(([id, set]) => ({ idUpload: idUploads.get(id)!, ...set })),
    accounts: profiles.rows.map(profileOf),
    groups: groups.rows.map((row) => ({ id: row.id, title: row.name })),
    slots,
  };
}

/** A profile as the calendar names it: its number and what the operator calls it (src/lib/profile-name.ts). */
function profileOf(row: { account_id: number; comments: string | null; youtube_login: string | null; instagram_login: string | null }) {
  const connectedAs = { youtube: row.youtube_login ?? undefined, instagram: row.instagram_login ?? undefined };
  return { id: row.account_id, title: t.accounts.optionTitle(row.account_id, profileName({ comments: row.comments ?? '', connectedAs })) };
}

/** The slots of a profile the user may see; another operator's profile shows nothing of it, its slots included. */
async function visibleSlots(
  db: Database,
  user: SessionUser,
  accountId: number,
  installation: PostingSlots,
): Promise<EffectiveSlots | null> {
  const owner = user.role === 'admin' ? '' : 'AND user_id = $2';
  const { rows } = await db.sql(
    `SELECT id FROM accounts WHERE id = $1 ${owner}`,
    user.role === 'admin' ? [accountId] : [accountId, user.id],
  );
  if (rows.length === 0) return null;
  return (await profileSlots(db, [accountId], installation)).get(accountId) ?? null;
}
