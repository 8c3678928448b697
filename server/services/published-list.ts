import type { Paged, SessionUser, UploadRow } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { paged } from '../routes/paging';
import { requestsPage } from './ranked-page';

/**
 * A set is in error when any of its videos is, under way while any is, else published. Asked
 * only for the page's rows, each answer is an index-only probe of videos (request_id, status).
 */
export const setStatusOf = (requestId: string) => `CASE
  WHEN EXISTS (SELECT 1 FROM videos WHERE videos.request_id = ${requestId} AND videos.status = 'error') THEN 'error'
  WHEN EXISTS (SELECT 1 FROM videos WHERE videos.request_id = ${requestId} AND videos.status IN ('loading', 'publication')) THEN 'publication'
  ELSE 'success' END`;

const columns = `id, id_upload, ${setStatusOf('creation_requests.id')} AS status`;

/** The published sets of a user (of everyone for an admin), the most recently published first. */
export async function publishedListPage(db: Database, user: SessionUser, page: number): Promise<Paged<UploadRow>> {
  const { rows, total } = await requestsPage(db, user, 'published', 'published_rank', columns, page);
  return paged(
    rows.map((row) => ({ id: row.id, idUpload: row.id_upload, status: row.status })),
    total,
    page,
  );
}
