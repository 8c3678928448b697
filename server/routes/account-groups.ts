import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { AccountGroup, Paged, SessionUser } from '../../src/lib/contract';
import { t } from '../messages';
import { groupSchema } from '../../src/lib/schemas';
import type { Orm } from '../db/connect';
import { accountGroups, accounts } from '../db/schema';
import { currentUser, requireUser } from '../auth/guards';
import { found, visibleTo } from '../auth/ownership';
import { HttpError, parseBody } from '../http-error';
import { pageFromQuery } from '../services/paging';
import { groupPage, selectGroups } from '../services/group-list';
import { groupSchemas } from '../../src/lib/contract/groups-tags';

type Transaction = Parameters<Parameters<Orm['transaction']>[0]>[0];

export const accountGroupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  app.addHook('onRequest', requireUser);

  const ownedGroup = (user: SessionUser, id: number) => and(eq(accountGroups.id, id), visibleTo(user, accountGroups.userId));

  async function groupById(user: SessionUser, id: number): Promise<AccountGroup> {
    return found((await selectGroups(db, ownedGroup(user, id)))[0]);
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
    found((await db.orm.select({ id: accountGroups.id }).from(accountGroups).where(ownedGroup(user, id)))[0]);
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
