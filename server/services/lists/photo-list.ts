import type { Paged, Photo, SessionUser } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import { visibleOwner } from '../../auth/ownership';
import { offsetOf, paged, pageSize } from './paging';
import { ownedCount, totalOf } from './page-total';

/**
 * Background images of a user (everyone's for an admin), newest first: index photos (user_id, id
 * DESC), with the count beside the page's rows. Plain SQL: the query builder's per-request work
 * cost more than this two-column query.
 */
export async function photoPage(db: Database, user: SessionUser, page: number, urlOf: (fileKey: string) => string): Promise<Paged<Photo>> {
  const owner = visibleOwner(user);
  const where = owner === null ? '' : 'WHERE user_id = $3';
  const { rows } = await db.prepared(
    `SELECT id, file_key, count(*) OVER ()::int AS total FROM photos ${where} ORDER BY id DESC LIMIT $1 OFFSET $2`,
    owner === null ? [pageSize, offsetOf(page)] : [pageSize, offsetOf(page), owner],
  );
  const total = await totalOf(rows, () => ownedCount(db, 'photos', owner));
  return paged(
    rows.map((row) => ({ id: row.id, url: urlOf(row.file_key) })),
    total,
    page,
  );
}
