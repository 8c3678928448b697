import type { Paged, VideoPost, VideoSummary } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import type { videos } from '../../db/schema';
import { accountTitles, toVideoSummary } from '../profiles/account-views';
import { paged } from './paging';
import { onPage, rankedPage } from './ranked-page';
import { postsOfVideos } from '../publishing/video-status';

// Named as the ORM names them, so the rows go through the same wire mapping as every video list.
export const videoSummaryColumns = `id, date, created_at AS "createdAt", status, views, likes, comments,
  views_instagram AS "viewsInstagram", likes_instagram AS "likesInstagram", comments_instagram AS "commentsInstagram",
  views_tiktok AS "viewsTikTok", likes_tiktok AS "likesTikTok", comments_tiktok AS "commentsTikTok",
  url_youtube AS "urlYouTube", url_instagram AS "urlInstagram", url_tiktok AS "urlTiktok",
  render_failure AS "renderFailure", render_failure_detail AS "renderFailureDetail", account_id AS "accountId"`;

/** The videos of one user, newest first (an admin's view of a user). */
export async function userVideoPage(db: Database, userId: number, page: number): Promise<Paged<VideoSummary>> {
  const { rows, total } = await rankedPage(
    db,
    'videos',
    userId,
    page,
    `SELECT ${videoSummaryColumns} FROM videos WHERE user_id = $2 AND ${onPage('rank_owner')} ORDER BY rank_owner DESC`,
  );
  // A user's videos go through many profiles: the table names each one.
  const [titles, posts] = await Promise.all([
    accountTitles(
      db,
      rows.map((row) => row.accountId),
    ),
    postsOfVideos(
      db.sql,
      rows.map((row) => row.id),
    ),
  ]);
  return paged(
    rows.map((row) => toSummary(row, posts, titles)),
    total,
    page,
  );
}

/** A row of videoSummaryColumns as the lists answer it, with its posts from the page's postsOfVideos. */
export const toSummary = (row: any, posts: Map<number, VideoPost[]>, accountTitle?: Map<number, string>): VideoSummary =>
  toVideoSummary(
    { ...row, date: row.date && new Date(row.date), createdAt: new Date(row.createdAt) } as typeof videos.$inferSelect,
    posts.get(row.id) ?? [],
    accountTitle,
  );
