import type { CalendarRange, SessionUser } from '../../src/lib/contract';
import { t } from '../messages';
import { waitFields } from '../../src/lib/post-waits';
import type { Database } from '../db/connect';

/** The most posts one answer carries: a month of a busy agency fits, a runaway range does not. */
export const calendarLimit = 1000;

export interface CalendarQuery {
  from: Date;
  to: Date;
  accountId?: number;
}

/**
 * The posts scheduled in [from, to): an operator's through their own profiles, read from the
 * (account_id, scheduled_at) index profile by profile; an admin's from the scheduled_at index.
 */
export async function calendarRange(db: Database, user: SessionUser, query: CalendarQuery): Promise<CalendarRange> {
  const values: unknown[] = [query.from.toISOString(), query.to.toISOString()];
  const owned = user.role === 'admin' ? '' : `AND accounts.user_id = $${values.push(user.id)}`;
  const inRange = `video_posts.scheduled_at >= $1 AND video_posts.scheduled_at < $2 ${owned}`;
  const profileValues = [...values];
  const oneProfile = query.accountId === undefined ? '' : `AND video_posts.account_id = $${values.push(query.accountId)}`;

  const [posts, profiles] = await Promise.all([
    db.sql(
      `SELECT video_posts.id, video_posts.video_id, creation_requests.id_upload, creation_requests.title, video_posts.platform,
              video_posts.status, video_posts.scheduled_at, video_posts.wait_kind, video_posts.wait_detail,
              accounts.id AS account_id, accounts.comments
         FROM video_posts
         JOIN accounts ON accounts.id = video_posts.account_id
         JOIN videos ON videos.id = video_posts.video_id
         JOIN creation_requests ON creation_requests.id = videos.request_id
        WHERE ${inRange} ${oneProfile}
        ORDER BY video_posts.scheduled_at, video_posts.id
        LIMIT ${calendarLimit + 1}`,
      values,
    ),
    db.sql(
      `SELECT DISTINCT accounts.id, accounts.comments FROM video_posts JOIN accounts ON accounts.id = video_posts.account_id
        WHERE ${inRange} ORDER BY accounts.id`,
      profileValues,
    ),
  ]);
  return {
    posts: posts.rows.slice(0, calendarLimit).map((row) => ({
      id: row.id,
      videoId: row.video_id,
      idUpload: row.id_upload,
      title: row.title ?? '',
      platform: row.platform,
      status: row.status,
      scheduledAt: new Date(row.scheduled_at).toISOString(),
      account: { id: row.account_id, title: t.accounts.optionTitle(row.account_id, row.comments) },
      ...waitFields(row.status === 'pending' ? { platform: row.platform, kind: row.wait_kind, detail: row.wait_detail } : null),
    })),
    truncated: posts.rows.length > calendarLimit,
    accounts: profiles.rows.map((row) => ({ id: row.id, title: t.accounts.optionTitle(row.id, row.comments) })),
  };
}
