import { desc, sql, type SQL } from 'drizzle-orm';
import type { AccountGroup, Paged, SessionUser } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import { visibleOwner } from '../../auth/ownership';
import { accountGroups } from '../../db/schema';
import { accountOption } from '../profiles/account-views';
import { offsetOf, paged, pageSize } from './paging';
import { ownedCount, totalOf } from './page-total';

interface Member {
  id: number;
  comments: string;
  youtubeLogin: string | null;
  instagramLogin: string | null;
}

/**
 * A group's profiles in the group's own row (index accounts (group_id)), so a page of groups is one
 * statement. `groupId` names the group's id column, qualified: inside this subquery an unqualified
 * id would be the profile's own.
 */
const membersOf = (groupId: string) => `(
  SELECT coalesce(json_agg(json_build_object('id', a.id, 'comments', a.comments, 'youtubeLogin', a.youtube_login,
                                             'instagramLogin', a.instagram_login) ORDER BY a.id), '[]'::json)
    FROM accounts AS a WHERE a.group_id = ${groupId})`;

const toGroup = (row: { id: number; name: string; members: Member[] }): AccountGroup => ({
  id: row.id,
  name: row.name,
  accounts: row.members.map(accountOption),
});

/** The groups matching `where` with their profiles, newest first. */
export async function selectGroups(db: Database, where: SQL | undefined): Promise<AccountGroup[]> {
  const rows = await db.orm
    .select({ id: accountGroups.id, name: accountGroups.name, members: sql<Member[]>`${sql.raw(membersOf('account_groups.id'))}` })
    .from(accountGroups)
    .where(where)
    .orderBy(desc(accountGroups.id));
  return rows.map(toGroup);
}

/**
 * Profile groups of a user (everyone's for an admin), newest first: index account_groups (user_id,
 * id DESC), counted before the page's members are read, so only its 20 groups read theirs. Plain
 * SQL prepared once per connection, with the page size written in: the query builder's work cost
 * more than the statement.
 */
export async function groupPage(db: Database, user: SessionUser, page: number): Promise<Paged<AccountGroup>> {
  const owner = visibleOwner(user);
  const where = owner === null ? '' : 'WHERE user_id = $2';
  const { rows } = await db.prepared(
    `SELECT p.id, p.name, p.total, ${membersOf('p.id')} AS members
       FROM (SELECT id, name, count(*) OVER ()::int AS total FROM account_groups ${where}
              ORDER BY id DESC LIMIT ${pageSize} OFFSET $1) AS p
      ORDER BY p.id DESC`,
    owner === null ? [offsetOf(page)] : [offsetOf(page), owner],
  );
  const total = await totalOf(rows, () => ownedCount(db, 'account_groups', owner));
  return paged(rows.map(toGroup), total, page);
}
