import type { CreationRequestRow, ListFilters, Paged, SessionUser } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import { paged } from './paging';
import { containsPattern, filteredRequestsPage, requestsPage } from './ranked-page';
import { postsOfSets } from '../publishing/video-status';

/** A request's first poster, for its row: an index probe of videos (request_id, position) per row of the page. */
export const firstPosterOf = (requestId: string) =>
  `(SELECT poster_key FROM videos WHERE videos.request_id = ${requestId} AND poster_key IS NOT NULL ORDER BY position LIMIT 1)`;

const columns = `id, id_upload, status, count_video, created_at, source_name, ${firstPosterOf('creation_requests.id')} AS poster_key`;

/**
 * The creation requests of a user (of everyone for an admin), newest first. Unfiltered, a page is
 * found by its ranks; a status walks the (user_id, status, id) index; a search reads the file
 * name and the UUID of every row the other conditions leave, which is one owner's requests at most.
 */
export async function requestListPage(
  db: Database,
  user: SessionUser,
  page: number,
  urlOf: (fileKey: string | null) => string | null,
  filters: ListFilters = {},
): Promise<Paged<CreationRequestRow>> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filters.status) {
    params.push(filters.status);
    where.push(`status = $${params.length}`);
  }
  if (filters.q?.trim()) {
    params.push(containsPattern(filters.q.trim()));
    where.push(`(source_name ILIKE $${params.length} OR id_upload::text ILIKE $${params.length})`);
  }
  const { rows, total } =
    where.length === 0
      ? await requestsPage(db, user, 'requests', 'rank', columns, page)
      : await filteredRequestsPage(db, user, where, params, columns, 'id DESC', page);
  // A published request is a set: its status and posts by state, read for the page's sets at once.
  const sets = await postsOfSets(
    db.sql,
    rows.filter((row) => row.status === 'published').map((row) => row.id),
  );
  const data = rows.map((row) => {
    const set = sets.get(row.id);
    return {
      id: row.id,
      idUpload: row.id_upload,
      status: row.status,
      countVideo: row.count_video,
      createdAt: new Date(row.created_at).toISOString(),
      sourceName: row.source_name,
      posterUrl: urlOf(row.poster_key),
      ...(set ? { publicationStatus: set.status, posts: set.posts } : {}),
    };
  });
  return paged(data, total, page);
}
