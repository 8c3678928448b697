import { count, desc, getTableColumns } from 'drizzle-orm';
import type { Paged, SessionUser } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { accountGroups } from '../db/schema';
import { visibleTo } from '../auth/ownership';
import { offsetOf, paged, pageSize } from '../routes/paging';
import { totalBesideRows, totalOf } from './page-total';

/** Profile groups of a user (everyone's for an admin), newest first: index account_groups (user_id, id DESC). */
export async function groupPage(db: Database, user: SessionUser, page: number): Promise<Paged<typeof accountGroups.$inferSelect>> {
  const where = visibleTo(user, accountGroups.userId);
  const rows = await db.orm
    .select({ ...getTableColumns(accountGroups), total: totalBesideRows })
    .from(accountGroups)
    .where(where)
    .orderBy(desc(accountGroups.id))
    .limit(pageSize)
    .offset(offsetOf(page));
  const total = await totalOf(rows, async () => (await db.orm.select({ total: count() }).from(accountGroups).where(where))[0]!.total);
  return paged(
    rows.map(({ total: _total, ...group }) => group),
    total,
    page,
  );
}
