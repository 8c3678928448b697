import { asc, sql } from 'drizzle-orm';
import type { ManagedUser, Paged } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { users } from '../db/schema';
import { offsetOf, paged, pageSize } from '../routes/paging';

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
  const [rows, [{ total }]] = await Promise.all([
    db.orm.select(managedUserColumns).from(users).orderBy(asc(users.id)).limit(pageSize).offset(offsetOf(page)),
    db.orm.select({ total: sql<number>`count(*)::int` }).from(users),
  ]);
  return paged(rows, total, page);
}
