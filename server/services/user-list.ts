import { asc, count, sql } from 'drizzle-orm';
import type { ManagedUser, Paged } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { users } from '../db/schema';
import { offsetOf, paged, pageSize } from '../routes/paging';
import { totalBesideRows, totalOf } from './page-total';

/**
 * Users are few, so the page is an OFFSET over the primary key; a user's video count is their row
 * of list_counts rather than a count of their videos.
 */
export const managedUserColumns = {
  id: users.id,
  login: users.login,
  role: users.role,
  // Spelled out: inside a select list drizzle leaves columns unqualified, which a subquery would misread.
  videosCount: sql<number>`coalesce((SELECT total FROM list_counts WHERE list = 'videos' AND owner_id = users.id), 0)::int`,
  accountsCount: sql<number>`(SELECT count(*) FROM accounts WHERE accounts.user_id = users.id)::int`,
};

export async function userListPage(db: Database, page: number): Promise<Paged<ManagedUser>> {
  const rows = await db.orm
    .select({ ...managedUserColumns, total: totalBesideRows })
    .from(users)
    .orderBy(asc(users.id))
    .limit(pageSize)
    .offset(offsetOf(page));
  const total = await totalOf(rows, async () => (await db.orm.select({ total: count() }).from(users))[0]!.total);
  return paged(
    rows.map(({ total: _total, ...user }) => user),
    total,
    page,
  );
}
