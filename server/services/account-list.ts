import { count, desc, eq, type SQL } from 'drizzle-orm';
import type { AccountSummary, Paged } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { accounts, accountGroups, users } from '../db/schema';
import { toAccountSummary } from '../routes/account-views';
import { offsetOf, paged, pageSize } from '../routes/paging';
import { totalBesideRows, totalOf } from './page-total';

/** One page of profiles with their owners' logins and groups, newest first: index accounts (user_id, id DESC). */
export async function accountPage(db: Database, where: SQL | undefined, page: number): Promise<Paged<AccountSummary>> {
  const rows = await db.orm
    .select({ account: accounts, ownerLogin: users.login, groupName: accountGroups.name, total: totalBesideRows })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .leftJoin(accountGroups, eq(accountGroups.id, accounts.groupId))
    .where(where)
    .orderBy(desc(accounts.id))
    .limit(pageSize)
    .offset(offsetOf(page));
  const total = await totalOf(rows, async () => (await db.orm.select({ total: count() }).from(accounts).where(where))[0]!.total);
  return paged(rows.map(toAccountSummary), total, page);
}
