import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { AccountGroup, AccountGroupDetail, Paged, PostingSlots, SessionUser } from '../../src/lib/contract';
import { t } from '../messages';
import { groupSchema, postingSlotsSchema } from '../../src/lib/schemas';
import type { Orm } from '../db/connect';
import { accountGroups, accounts } from '../db/schema';
import { currentUser, requireUser } from '../auth/guards';
import { found, visibleTo } from '../auth/ownership';
import { HttpError, parseBody } from '../http-error';
import { pageFromQuery } from '../services/lists/paging';
import { groupPage, selectGroups } from '../services/lists/group-list';
import { groupSchemas } from '../../src/lib/contract/groups-tags';
import { postingSlotsSchemas } from '../../src/lib/contract/posting-slots';
import { groupSlots, inheritedSlotColumns, slotColumns, type SlotColumns } from '../services/planning/posting-slots';

type Transaction = Parameters<Parameters<Orm['transaction']>[0]>[0];

export const accountGroupRoutes: FastifyPluginAsyncTypebox<{
  /** The installation's slots (config.postingSlots), which a group without its own hands its profiles. */
  postingSlots: PostingSlots;
}> = async (app, { postingSlots }) => {
  const { db } = app;
  app.addHook('onRequest', requireUser);

  const ownedGroup = (user: SessionUser, id: number) => and(eq(accountGroups.id, id), visibleTo(user, accountGroups.userId));

  async function groupById(user: SessionUser, id: number): Promise<AccountGroupDetail> {
    const group: AccountGroup = found((await selectGroups(db, ownedGroup(user, id)))[0]);
    return { ...group, slots: await groupSlots(db, group.id, postingSlots) };
  }

  async function ownedGroupId(user: SessionUser, id: number) {
    return found((await db.orm.select({ id: accountGroups.id }).from(accountGroups).where(ownedGroup(user, id)))[0]).id;
  }

  /** The group's own slots from now on (`columns`), or none: its profiles without their own take the installation's. */
  async function setSlots(user: SessionUser, id: number, columns: SlotColumns) {
    const groupId = await ownedGroupId(user, id);
    await db.orm.update(accountGroups).set(columns).where(eq(accountGroups.id, groupId));
    return groupSlots(db, groupId, postingSlots);
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

  app.get('/', { schema: groupSchemas.list }, async (request): Promise<Paged<AccountGroup>> => {
    return groupPage(db, currentUser(request), pageFromQuery(request.query));
  });

  app.get('/:id', { schema: groupSchemas.detail }, async (request) => groupById(currentUser(request), request.params.id));

  app.post('/', { schema: groupSchemas.create }, async (request, reply) => {
    const user = currentUser(request);
    const form = parseBody(groupSchema, request.body);
    const id = await db.orm.transaction(async (tx) => {
      const [group] = await tx
        .insert(accountGroups)
        .values({ userId: user.id, name: form.name.trim() })
        .returning({ id: accountGroups.id });
      await setMembers(
        tx,
        user,
        group.id,
        form.accounts.map((account) => account.id),
      );
      return group.id;
    });
    return reply.status(201).send(await groupById(user, id));
  });

  app.patch('/:id', { schema: groupSchemas.update }, async (request) => {
    const user = currentUser(request);
    const id = request.params.id;
    await ownedGroupId(user, id);
    const form = parseBody(groupSchema, request.body);
    await db.orm.transaction(async (tx) => {
      await tx.update(accountGroups).set({ name: form.name.trim() }).where(eq(accountGroups.id, id));
      await setMembers(
        tx,
        user,
        id,
        form.accounts.map((account) => account.id),
      );
    });
    return groupById(user, id);
  });

  app.put('/:id/slots', { schema: postingSlotsSchemas.save }, async (request) =>
    setSlots(currentUser(request), request.params.id, slotColumns(parseBody(postingSlotsSchema, request.body))),
  );

  app.delete('/:id/slots', { schema: postingSlotsSchemas.clear }, async (request) =>
    setSlots(currentUser(request), request.params.id, inheritedSlotColumns),
  );

  /** The group's profiles stay; they only leave the group. */
  app.delete('/:id', { schema: groupSchemas.remove }, async (request, reply) => {
    const deleted = await db.orm
      .delete(accountGroups)
      .where(ownedGroup(currentUser(request), request.params.id))
      .returning({ id: accountGroups.id });
    found(deleted[0]);
    return reply.status(204).send();
  });
};
