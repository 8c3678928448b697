import type { Paged, VideoSummary } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import type { videos } from '../../db/schema';
import { platformColumns } from '../../db/platform-columns';
import { accountOption, toVideoSummary } from '../profiles/account-views';
import { paged } from './paging';
import { onPage, rankedPage } from './ranked-page';
import { postsColumns, postsOfRow } from '../publishing/video-status';

// Named as the ORM names them, so the rows go through the same wire mapping as every video list.
export const videoSummaryColumns = `id, date, created_at AS "createdAt", status,
  ${platformColumns('views')}, ${platformColumns('likes')}, ${platformColumns('comments')}, ${platformColumns('url')},
  render_failure AS "renderFailure", render_failure_detail AS "renderFailureDetail", account_id AS "accountId", ${postsColumns()}`;

/** A user's videos go through many profiles: the table names each one, read in the page's statement. */
const profileColumn = `(SELECT jsonb_build_object('id', a.id, 'comments', a.comments, 'youtubeLogin', a.youtube_login, 'instagramLogin', a.instagram_login)
   FROM accounts AS a WHERE a.id = videos.account_id) AS profile`;

/** The videos of one user, newest first (an admin's view of a user). */
export async function userVideoPage(db: Database, userId: number, page: number): Promise<Paged<VideoSummary>> {
  const { rows, total } = await rankedPage(
    db,
    'videos',
    userId,
    page,
    `SELECT ${videoSummaryColumns}, ${profileColumn} FROM videos WHERE user_id = $2 AND ${onPage('rank_owner')} ORDER BY rank_owner DESC`,
  );
  return paged(
    rows.map((row) => toSummary(row)),
    total,
    page,
  );
}

/** A row of videoSummaryColumns as the lists answer it; with the profile's title when it has `profile` (profileColumn). */
export const toSummary = (row: any): VideoSummary =>
  toVideoSummary(
    { ...row, date: row.date && new Date(row.date), createdAt: new Date(row.createdAt) } as typeof videos.$inferSelect,
    postsOfRow(row),
    row.profile ? new Map([[row.accountId, accountOption(row.profile).title]]) : undefined,
  );
