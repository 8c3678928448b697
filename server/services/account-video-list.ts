import type { Paged, VideoSummary } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { offsetOf, paged, pageSize } from '../routes/paging';
import { toSummary, videoSummaryColumns } from './user-video-list';

/**
 * The videos published through one profile, newest first. A video changes profile when it is
 * published again, so this list has no ranks: the count and the page's ids come from index-only
 * scans of videos (account_id, id DESC), which walk one profile's entries (thousands, not the
 * table), and only the page's 20 rows are read.
 */
export async function accountVideoPage(db: Database, accountId: number, page: number): Promise<Paged<VideoSummary>> {
  const { rows } = await db.sql(
    `SELECT c.total, v.*
       FROM (SELECT count(*)::int AS total FROM videos WHERE account_id = $1) AS c
       LEFT JOIN LATERAL (
         SELECT ${videoSummaryColumns} FROM videos
          WHERE id IN (SELECT id FROM videos WHERE account_id = $1 ORDER BY id DESC OFFSET $2 LIMIT $3)
          ORDER BY id DESC) AS v ON true`,
    [accountId, offsetOf(page), pageSize],
  );
  return paged(rows.filter((row) => row.id !== null).map(toSummary), rows[0]?.total ?? 0, page);
}
