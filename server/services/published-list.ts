import type { ListFilters, Paged, SessionUser, UploadRow } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { paged } from './paging';
import { containsPattern, filteredRequestsPage, requestsPage } from './ranked-page';
import { firstPosterOf } from './request-list';

/**
 * A video that went out: its posts are done. A rendered video left out of the publication is
 * 'success' too (ready), but has no date; videos_published_idx (migration 0020) answers this alone.
 */
const wentOut = `videos.status = 'success' AND videos.date IS NOT NULL`;

/**
 * A set's status follows its videos, whose status follows their posts: in error when any video
 * is, under way while any is, published once some video went out, else not active (nothing went
 * out: no video got a post, or every publication was cancelled). Asked only for the page's rows,
 * each answer is at most three index-only probes of videos: (request_id, status), then the
 * partial index of videos that went out.
 */
export const setStatusOf = (requestId: string) => `CASE
  WHEN EXISTS (SELECT 1 FROM videos WHERE videos.request_id = ${requestId} AND videos.status = 'error') THEN 'error'
  WHEN EXISTS (SELECT 1 FROM videos WHERE videos.request_id = ${requestId} AND videos.status IN ('loading', 'publication')) THEN 'publication'
  WHEN EXISTS (SELECT 1 FROM videos WHERE videos.request_id = ${requestId} AND ${wentOut}) THEN 'success'
  ELSE 'noactive' END`;

const columns = `id, id_upload, title, source_name, published_at, count_video, ${firstPosterOf('creation_requests.id')} AS poster_key,
  ${setStatusOf('creation_requests.id')} AS status`;

/** The status filter as the set's own rule above: a set shows 'error' when any of its videos is in error, and so on. */
const statusConditions: Record<string, string> = {
  error: `EXISTS (SELECT 1 FROM videos WHERE videos.request_id = creation_requests.id AND videos.status = 'error')`,
  publication: `NOT EXISTS (SELECT 1 FROM videos WHERE videos.request_id = creation_requests.id AND videos.status = 'error')
    AND EXISTS (SELECT 1 FROM videos WHERE videos.request_id = creation_requests.id AND videos.status IN ('loading', 'publication'))`,
  success: `NOT EXISTS (SELECT 1 FROM videos WHERE videos.request_id = creation_requests.id AND videos.status IN ('error', 'loading', 'publication'))
    AND EXISTS (SELECT 1 FROM videos WHERE videos.request_id = creation_requests.id AND ${wentOut})`,
};

const platformColumns = { youtube: 'in_youtube', tiktok: 'in_tiktok', instagram: 'in_instagram' } as const;

/**
 * The published sets of a user (of everyone for an admin), the most recently published first.
 * Unfiltered, a page is found by its ranks; filtered, the owner's sets are walked by publication
 * time, each probed for the status through the videos (request_id, status) index.
 */
export async function publishedListPage(
  db: Database,
  user: SessionUser,
  page: number,
  urlOf: (fileKey: string | null) => string | null,
  filters: ListFilters = {},
): Promise<Paged<UploadRow>> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filters.status) where.push(statusConditions[filters.status]!);
  if (filters.platform) where.push(platformColumns[filters.platform]);
  if (filters.q?.trim()) {
    params.push(containsPattern(filters.q.trim()));
    where.push(`(title ILIKE $${params.length} OR source_name ILIKE $${params.length} OR id_upload::text ILIKE $${params.length})`);
  }
  const { rows, total } =
    where.length === 0
      ? await requestsPage(db, user, 'published', 'published_rank', columns, page)
      : await filteredRequestsPage(db, user, ['published_at IS NOT NULL', ...where], params, columns, 'published_at DESC, id DESC', page);
  return paged(
    rows.map((row) => ({
      id: row.id,
      idUpload: row.id_upload,
      status: row.status,
      title: row.title ?? '',
      sourceName: row.source_name,
      posterUrl: urlOf(row.poster_key),
      publishedAt: new Date(row.published_at).toISOString(),
      countVideo: row.count_video,
    })),
    total,
    page,
  );
}
