import { count, desc } from 'drizzle-orm';
import type { Paged, SessionUser, TagSet } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { tagSets } from '../db/schema';
import { visibleTo } from '../auth/ownership';
import { offsetOf, paged, pageSize } from '../routes/paging';
import { totalBesideRows, totalOf } from './page-total';

/** Tag sets of a user (everyone's for an admin), newest first: index tag_sets (user_id, id DESC). */
export async function tagSetPage(db: Database, user: SessionUser, page: number): Promise<Paged<TagSet>> {
  const where = visibleTo(user, tagSets.userId);
  const rows = await db.orm
    .select({ id: tagSets.id, name: tagSets.name, tags: tagSets.tags, total: totalBesideRows })
    .from(tagSets)
    .where(where)
    .orderBy(desc(tagSets.id))
    .limit(pageSize)
    .offset(offsetOf(page));
  const total = await totalOf(rows, async () => (await db.orm.select({ total: count() }).from(tagSets).where(where))[0]!.total);
  return paged(
    rows.map(({ id, name, tags }) => ({ id, name, tags })),
    total,
    page,
  );
}
