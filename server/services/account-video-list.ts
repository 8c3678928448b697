import type { Paged, SessionUser, VideoSummary } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { offsetOf, paged, pageSize } from '../routes/paging';
import { toSummary, videoSummaryColumns } from './user-video-list';

/**
 * The videos published through one profile, newest first, or undefined when the user may not see
 * the profile. The total is the profile's row of list_counts (0018). The page starts at the id
 * found `offset` entries down the index videos (account_id, id DESC), an index-only walk of one
 * profile's entries (thousands, not the table), and its 20 rows are read from there in index order,
 * so a deep page reads no more rows than the first. The profile's visibility is checked in the same
 * statement, so a page costs one round trip.
 */
export async function accountVideoPage(
  db: Database,
  user: SessionUser,
  accountId: number,
  page: number,
): Promise<Paged<VideoSummary> | undefined> {
  const { rows } = await db.prepared(
    `SELECT coalesce((SELECT total FROM list_counts WHERE list = 'profile_videos' AND owner_id = a.id), 0) AS total, v.*
       FROM accounts AS a
       LEFT JOIN LATERAL (
         SELECT ${videoSummaryColumns} FROM videos
          WHERE account_id = a.id
            AND id <= (SELECT id FROM videos WHERE account_id = a.id ORDER BY id DESC OFFSET $2 LIMIT 1)
          ORDER BY id DESC LIMIT $3) AS v ON true
      WHERE a.id = $1 AND ($4::int IS NULL OR a.user_id = $4)`,
    [accountId, offsetOf(page), pageSize, user.role === 'admin' ? null : user.id],
  );
  if (rows.length === 0) return undefined;
  return paged(rows.filter((row) => row.id !== null).map(toSummary), rows[0].total, page);
}
