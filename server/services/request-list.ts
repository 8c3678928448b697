import type { CreationRequestRow, Paged, SessionUser } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { paged } from '../routes/paging';
import { requestsPage } from './ranked-page';

const columns = 'id, id_upload, status, count_video, created_at';

/** The creation requests of a user (of everyone for an admin), newest first. */
export async function requestListPage(db: Database, user: SessionUser, page: number): Promise<Paged<CreationRequestRow>> {
  const { rows, total } = await requestsPage(db, user, 'requests', 'rank', columns, page);
  const data = rows.map((row) => ({
    id: row.id,
    idUpload: row.id_upload,
    status: row.status,
    countVideo: row.count_video,
    createdAt: new Date(row.created_at).toISOString(),
  }));
  return paged(data, total, page);
}
