import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AccountGroup, AccountGroupDetail, Paged, PostingSlots, SessionUser } from '../../src/lib/contract';
import { groupSchema, postingSlotsSchema } from '../../src/lib/schemas';
import { currentUser, requireUser } from '../auth/guards';
import { parseBody } from '../http-error';
import { pageFromQuery } from '../services/lists/paging';
import { groupPage } from '../services/lists/group-list';
import { createGroup, deleteGroup, setGroupSlots, updateGroup, visibleGroup, visibleGroupId } from '../services/library/account-groups';
import { groupSchemas } from '../../src/lib/contract/groups-tags';
import { postingSlotsSchemas } from '../../src/lib/contract/posting-slots';
import { groupSlots, inheritedSlotColumns, slotColumns, type SlotColumns } from '../services/planning/posting-slots';

export const accountGroupRoutes: FastifyPluginAsyncTypebox<{
  /** The installation's slots (config.postingSlots), which a group without its own hands its profiles. */
  postingSlots: PostingSlots;
}> = async (app, { postingSlots }) => {
  const { db } = app;
  app.addHook('onRequest', requireUser);

  async function groupById(user: SessionUser, id: number): Promise<AccountGroupDetail> {
    const group = await visibleGroup(db, user, id);
    return { ...group, slots: await groupSlots(db, group.id, postingSlots) };
  }

  /** The group's own slots from now on (`columns`), or none: its profiles without their own take the installation's. */
  async function setSlots(user: SessionUser, id: number, columns: SlotColumns) {
    const groupId = await visibleGroupId(db, user, id);
    await setGroupSlots(db, groupId, columns);
    return groupSlots(db, groupId, postingSlots);
  }

  app.get('/', { schema: groupSchemas.list }, async (request): Promise<Paged<AccountGroup>> => {
    return groupPage(db, currentUser(request), pageFromQuery(request.query));
  });

  app.get('/:id', { schema: groupSchemas.detail }, async (request) => groupById(currentUser(request), request.params.id));

  app.post('/', { schema: groupSchemas.create }, async (request, reply) => {
    const user = currentUser(request);
    const form = parseBody(groupSchema, request.body);
    const id = await createGroup(
      db,
      user,
      form.name.trim(),
      form.accounts.map((account) => account.id),
    );
    return reply.status(201).send(await groupById(user, id));
  });

  app.patch('/:id', { schema: groupSchemas.update }, async (request) => {
    const user = currentUser(request);
    const id = request.params.id;
    await visibleGroupId(db, user, id);
    const form = parseBody(groupSchema, request.body);
    await updateGroup(
      db,
      user,
      id,
      form.name.trim(),
      form.accounts.map((account) => account.id),
    );
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
    await deleteGroup(db, currentUser(request), request.params.id);
    return reply.status(204).send();
  });
};
