import type { Paged, SessionUser, VideoSummary } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import { visibleOwner } from '../../auth/ownership';
import { offsetOf, paged, pageSize } from './paging';
import { toSummary, videoSummaryColumns } from './user-video-list';

/**
 * The videos published through one profile, newest first, or undefined when the user may not see
 * the profile. The total is the profile's row of list_counts (0018). A page is found by walking the
 * index videos (account_id, id), an index-only walk of one profile's entries (thousands, not the
 * table), from whichever end is nearer: the first half of the list from the newest entry, the
 * second half from the oldest, so the last page costs what the first does and the middle one half
 * a walk. Its 20 rows are then read in index order. The profile's visibility is checked in the
 * same statement, so a page costs one round trip. The page size is written into the statement:
 * with it as a parameter, Postgres estimated a generic plan dearer than a custom one and planned
 * the statement again on every request (0.12 ms, a third of its time). Each row carries its posts
 * (postsColumns).
 */
export async function accountVideoPage(
  db: Database,
  user: SessionUser,
  accountId: number,
  page: number,
): Promise<Paged<VideoSummary> | undefined> {
  const { rows } = await db.prepared(
    `SELECT c.total, v.*
       FROM accounts AS a
       CROSS JOIN LATERAL (SELECT coalesce(max(total), 0) AS total FROM list_counts WHERE list = 'profile_videos' AND owner_id = a.id) AS c
       LEFT JOIN LATERAL (
         (SELECT ${videoSummaryColumns} FROM videos
           WHERE $2 * 2 < c.total AND account_id = a.id
             AND id <= (SELECT id FROM videos WHERE account_id = a.id ORDER BY id DESC OFFSET $2 LIMIT 1)
           ORDER BY id DESC LIMIT ${pageSize})
         UNION ALL
         (SELECT ${videoSummaryColumns} FROM videos
           WHERE $2 * 2 >= c.total AND account_id = a.id
             AND id >= (SELECT id FROM videos WHERE account_id = a.id ORDER BY id OFFSET greatest(c.total - $2 - ${pageSize}, 0) LIMIT 1)
           ORDER BY id LIMIT greatest(least(${pageSize}, c.total - $2), 0))) AS v ON true
      WHERE a.id = $1 AND ($3::int IS NULL OR a.user_id = $3)
      ORDER BY v.id DESC`,
    [accountId, offsetOf(page), visibleOwner(user)],
  );
  if (rows.length === 0) return undefined;
  return paged(rows.filter((row) => row.id !== null).map(toSummary), rows[0].total, page);
}
