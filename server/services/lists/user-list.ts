import { eq, sql } from 'drizzle-orm';
import type { ManagedUser, Paged } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import { users } from '../../db/schema';
import { found } from '../../auth/ownership';
import { offsetOf, paged, pageSize } from './paging';
import { ownedCount, totalOf } from './page-total';

// `userId` names the user's id column, qualified: inside these subqueries an unqualified id is another table's.
const videosCountOf = (userId: string) =>
  `coalesce((SELECT total FROM list_counts WHERE list = 'videos' AND owner_id = ${userId}), 0)::int`;
const accountsCountOf = (userId: string) => `(SELECT count(*) FROM accounts WHERE accounts.user_id = ${userId})::int`;

/**
 * Users are few, so the page is an OFFSET over the primary key; a user's video count is their row
 * of list_counts rather than a count of their videos.
 */
export const managedUserColumns = {
  id: users.id,
  login: users.login,
  role: users.role,
  videosCount: sql<number>`${sql.raw(videosCountOf('users.id'))}`,
  accountsCount: sql<number>`${sql.raw(accountsCountOf('users.id'))}`,
};

/**
 * Counted before the page's counts are read, so only its 20 users read theirs. Plain SQL prepared
 * once per connection, with the page size written in: the query builder's work cost more than the statement.
 */
export async function userListPage(db: Database, page: number): Promise<Paged<ManagedUser>> {
  const { rows } = await db.prepared(
    `SELECT p.id, p.login, p.role, p.total,
            ${videosCountOf('p.id')} AS "videosCount", ${accountsCountOf('p.id')} AS "accountsCount"
       FROM (SELECT id, login, role, count(*) OVER ()::int AS total FROM users ORDER BY id LIMIT ${pageSize} OFFSET $1) AS p
      ORDER BY p.id`,
    [offsetOf(page)],
  );
  const total = await totalOf(rows, () => ownedCount(db, 'users', null));
  return paged(
    rows.map(({ total: _total, ...user }) => user as ManagedUser),
    total,
    page,
  );
}

/** One user as the list shows them; a user that does not exist is not found (404). */
export async function managedUserOf(db: Database, id: number): Promise<ManagedUser> {
  const [row] = await db.orm.select(managedUserColumns).from(users).where(eq(users.id, id));
  return found(row);
}
