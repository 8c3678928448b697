import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { AccountGroup, SessionUser } from '../../../src/lib/contract';
import { t } from '../../messages';
import type { Database, Orm } from '../../db/connect';
import { accountGroups, accounts } from '../../db/schema';
import { found, visibleTo } from '../../auth/ownership';
import { HttpError } from '../../http-error';
import type { SlotColumns } from '../planning/posting-slots';
import { selectGroups } from '../lists/group-list';

/** The account groups' rows as their routes write them; their lists are read in services/lists/group-list.ts. */

type Transaction = Parameters<Parameters<Orm['transaction']>[0]>[0];

const ownedGroup = (user: SessionUser, id: number) => and(eq(accountGroups.id, id), visibleTo(user, accountGroups.userId));

/** Group `id` as the lists show it, when the user sees it; another operator's group is not found (404). */
export async function visibleGroup(db: Database, user: SessionUser, id: number): Promise<AccountGroup> {
  return found((await selectGroups(db, ownedGroup(user, id)))[0]);
}

/** The group's id when the user sees it; another operator's group is not found (404), as its own route answers it. */
export async function visibleGroupId(db: Database, user: SessionUser, id: number): Promise<number> {
  return found((await db.orm.select({ id: accountGroups.id }).from(accountGroups).where(ownedGroup(user, id)))[0]).id;
}

/**
 * Makes `accountIds` exactly the group's profiles. A profile is in at most one group, so one
 * that already belongs to another group is refused rather than silently taken from it.
 */
async function setMembers(tx: Transaction, user: SessionUser, groupId: number, accountIds: number[]) {
  const wanted = [...new Set(accountIds)];
  const rows = await tx
    .select({ id: accounts.id, groupId: accounts.groupId })
    .from(accounts)
    .where(and(inArray(accounts.id, wanted), visibleTo(user, accounts.userId)))
    .for('update');
  const missing = wanted.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) throw new HttpError(400, missing.map(t.groups.accountNotFound));
  const taken = rows.filter((row) => row.groupId !== null && row.groupId !== groupId);
  if (taken.length > 0)
    throw new HttpError(
      400,
      taken.map((row) => t.groups.accountInOtherGroup(row.id)),
    );
  await tx
    .update(accounts)
    .set({ groupId: null })
    .where(and(eq(accounts.groupId, groupId), notInArray(accounts.id, wanted)));
  await tx.update(accounts).set({ groupId }).where(inArray(accounts.id, wanted));
}

/** A new group of the user with exactly these profiles, in one transaction; its id. */
export async function createGroup(db: Database, user: SessionUser, name: string, accountIds: number[]): Promise<number> {
  return db.orm.transaction(async (tx) => {
    const [group] = await tx.insert(accountGroups).values({ userId: user.id, name }).returning({ id: accountGroups.id });
    await setMembers(tx, user, group.id, accountIds);
    return group.id;
  });
}

/** The group's new name and exactly these profiles, in one transaction. */
export async function updateGroup(db: Database, user: SessionUser, id: number, name: string, accountIds: number[]): Promise<void> {
  await db.orm.transaction(async (tx) => {
    await tx.update(accountGroups).set({ name }).where(eq(accountGroups.id, id));
    await setMembers(tx, user, id, accountIds);
  });
}

export async function setGroupSlots(db: Database, groupId: number, columns: SlotColumns): Promise<void> {
  await db.orm.update(accountGroups).set(columns).where(eq(accountGroups.id, groupId));
}

/** Deletes the group when the user sees it (404 otherwise); its profiles stay, out of any group. */
export async function deleteGroup(db: Database, user: SessionUser, id: number): Promise<void> {
  const deleted = await db.orm.delete(accountGroups).where(ownedGroup(user, id)).returning({ id: accountGroups.id });
  found(deleted[0]);
}
