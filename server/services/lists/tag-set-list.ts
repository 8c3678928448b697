import type { Paged, SessionUser, TagSet } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import { visibleOwner } from '../../auth/ownership';
import { offsetOf, paged, pageSize } from './paging';
import { ownedCount, totalOf } from './page-total';

/**
 * Tag sets of a user (everyone's for an admin), newest first: index tag_sets (user_id, id DESC),
 * with the count beside the page's rows. Plain SQL prepared once per connection, with the page
 * size written in: the query builder's work cost more than the statement.
 */
export async function tagSetPage(db: Database, user: SessionUser, page: number): Promise<Paged<TagSet>> {
  const owner = visibleOwner(user);
  const where = owner === null ? '' : 'WHERE user_id = $2';
  const { rows } = await db.prepared(
    `SELECT id, name, tags, count(*) OVER ()::int AS total FROM tag_sets ${where} ORDER BY id DESC LIMIT ${pageSize} OFFSET $1`,
    owner === null ? [offsetOf(page)] : [offsetOf(page), owner],
  );
  const total = await totalOf(rows, () => ownedCount(db, 'tag_sets', owner));
  return paged(
    rows.map(({ id, name, tags }) => ({ id, name, tags })),
    total,
    page,
  );
}
