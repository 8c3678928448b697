import { count, desc, sql, type SQL } from 'drizzle-orm';
import type { AccountGroup, Paged, SessionUser } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { accountGroups } from '../db/schema';
import { visibleTo } from '../auth/ownership';
import { accountOption } from '../routes/account-views';
import { offsetOf, paged, pageSize } from '../routes/paging';
import { totalBesideRows, totalOf } from './page-total';

interface Member {
  id: number;
  comments: string;
  youtubeLogin: string | null;
  instagramLogin: string | null;
}

/**
 * A group's profiles in the group's own row (index accounts (group_id)), so a page of groups is one
 * statement. The group's id is spelled out: the ORM leaves a single table's columns unqualified,
 * which inside this subquery would name the profile's own id.
 */
const members = sql<Member[]>`(
  SELECT coalesce(json_agg(json_build_object('id', a.id, 'comments', a.comments, 'youtubeLogin', a.youtube_login,
                                             'instagramLogin', a.instagram_login) ORDER BY a.id), '[]'::json)
    FROM accounts AS a WHERE a.group_id = account_groups.id)`;

const toGroup = (row: { id: number; name: string; members: Member[] }): AccountGroup => ({
  id: row.id,
  name: row.name,
  accounts: row.members.map(accountOption),
});

/** The groups matching `where` with their profiles, newest first. */
export async function selectGroups(db: Database, where: SQL | undefined): Promise<AccountGroup[]> {
  const rows = await db.orm
    .select({ id: accountGroups.id, name: accountGroups.name, members })
    .from(accountGroups)
    .where(where)
    .orderBy(desc(accountGroups.id));
  return rows.map(toGroup);
}

/** Profile groups of a user (everyone's for an admin), newest first: index account_groups (user_id, id DESC). */
export async function groupPage(db: Database, user: SessionUser, page: number): Promise<Paged<AccountGroup>> {
  const where = visibleTo(user, accountGroups.userId);
  const rows = await db.orm
    .select({ id: accountGroups.id, name: accountGroups.name, members, total: totalBesideRows })
    .from(accountGroups)
    .where(where)
    .orderBy(desc(accountGroups.id))
    .limit(pageSize)
    .offset(offsetOf(page));
  const total = await totalOf(rows, async () => (await db.orm.select({ total: count() }).from(accountGroups).where(where))[0]!.total);
  return paged(rows.map(toGroup), total, page);
}
