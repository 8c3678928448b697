import type { Paged, SessionUser, VideoSummary } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { offsetOf, paged, pageSize } from '../routes/paging';
import { toSummary, videoSummaryColumns } from './user-video-list';

/**
 * The videos published through one profile, newest first, or undefined when the user may not see
 * the profile. The total is the profile's row of list_counts (0018); the page's ids come from an
 * index-only scan of videos (account_id, id DESC), which walks one profile's entries (thousands,
 * not the table), and only the page's 20 rows are read. The profile's visibility is checked in the
 * same statement, so a page costs one round trip.
 */
export async function accountVideoPage(
  db: Database,
  user: SessionUser,
  accountId: number,
  page: number,
): Promise<Paged<VideoSummary> | undefined> {
  const { rows } = await db.sql(
    `SELECT c.total, v.*
       FROM (SELECT id FROM accounts WHERE id = $1 AND ($4::int IS NULL OR user_id = $4)) AS a
       CROSS JOIN LATERAL (SELECT coalesce(max(total), 0) AS total FROM list_counts WHERE list = 'profile_videos' AND owner_id = a.id) AS c
       LEFT JOIN LATERAL (
         SELECT ${videoSummaryColumns} FROM videos
          WHERE id IN (SELECT id FROM videos WHERE account_id = a.id ORDER BY id DESC OFFSET $2 LIMIT $3)
          ORDER BY id DESC) AS v ON true`,
    [accountId, offsetOf(page), pageSize, user.role === 'admin' ? null : user.id],
  );
  if (rows.length === 0) return undefined;
  return paged(rows.filter((row) => row.id !== null).map(toSummary), rows[0].total, page);
}
