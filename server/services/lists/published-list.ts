import type { ListFilters, Paged, SessionUser, UploadRow } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import { platformOf } from '../../../src/lib/platforms';
import { paged } from './paging';
import { containsPattern, filteredRequestsPage, requestsPage } from './ranked-page';
import { firstPosterOf } from './request-list';
import { postsOfSets, setStatusConditions } from '../publishing/video-status';

const columns = `id, id_upload, title, source_name, published_at, count_video, ${firstPosterOf('creation_requests.id')} AS poster_key`;

/**
 * The published sets of a user (of everyone for an admin), the most recently published first.
 * Unfiltered, a page is found by its ranks; filtered, the owner's sets are walked by publication
 * time, each probed for the status through the videos (request_id, status) index. The page's
 * statuses and posts by state are read for its rows at once (postsOfSets).
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
  if (filters.status) where.push(setStatusConditions[filters.status]!);
  if (filters.platform) where.push(platformOf(filters.platform).columns.ticked);
  if (filters.q?.trim()) {
    params.push(containsPattern(filters.q.trim()));
    where.push(`(title ILIKE $${params.length} OR source_name ILIKE $${params.length} OR id_upload::text ILIKE $${params.length})`);
  }
  const { rows, total } =
    where.length === 0
      ? await requestsPage(db, user, 'published', 'published_rank', columns, page)
      : await filteredRequestsPage(db, user, ['published_at IS NOT NULL', ...where], params, columns, 'published_at DESC, id DESC', page);
  const sets = await postsOfSets(
    db.sql,
    rows.map((row) => row.id),
  );
  return paged(
    rows.map((row) => ({
      id: row.id,
      idUpload: row.id_upload,
      ...sets.get(row.id)!,
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
