import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq } from 'drizzle-orm';
import type { Paged, SessionUser, TagSet } from '../../src/lib/contract';
import { tagSetSchema, type TagSetForm } from '../../src/lib/schemas';
import { addTags } from '../../src/lib/tags';
import { tagSets } from '../db/schema';
import { currentUser, requireUser } from '../auth/guards';
import { found, visibleTo } from '../auth/ownership';
import { parseBody } from '../http-error';
import { pageFromQuery } from '../services/lists/paging';
import { tagSetPage } from '../services/lists/tag-set-list';
import { tagSchemas } from '../../src/lib/contract/groups-tags';

const toTagSet = ({ id, name, tags }: typeof tagSets.$inferSelect): TagSet => ({ id, name, tags });

/** Tags are kept the way the tag input makes them, whoever sends them: trimmed, lower-cased, no duplicates. */
const columns = (form: TagSetForm) => ({ name: form.name.trim(), tags: addTags([], form.tags.join(' ')) });

export const tagRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  app.addHook('onRequest', requireUser);

  const ownedTagSet = (user: SessionUser, id: number) => and(eq(tagSets.id, id), visibleTo(user, tagSets.userId));

  app.get('/', { schema: tagSchemas.list }, async (request): Promise<Paged<TagSet>> =>
    tagSetPage(db, currentUser(request), pageFromQuery(request.query)),
  );

  app.get('/:id', { schema: tagSchemas.detail }, async (request) => {
    const [row] = await db.orm
      .select()
      .from(tagSets)
      .where(ownedTagSet(currentUser(request), request.params.id));
    return toTagSet(found(row));
  });

  app.post('/', { schema: tagSchemas.create }, async (request, reply) => {
    const form = parseBody(tagSetSchema, request.body);
    const [row] = await db.orm
      .insert(tagSets)
      .values({ userId: currentUser(request).id, ...columns(form) })
      .returning();
    return reply.status(201).send(toTagSet(row));
  });

  app.patch('/:id', { schema: tagSchemas.update }, async (request) => {
    const user = currentUser(request);
    const id = request.params.id;
    found((await db.orm.select({ id: tagSets.id }).from(tagSets).where(ownedTagSet(user, id)))[0]);
    const form = parseBody(tagSetSchema, request.body);
    const [row] = await db.orm.update(tagSets).set(columns(form)).where(eq(tagSets.id, id)).returning();
    return toTagSet(row);
  });

  app.delete('/:id', { schema: tagSchemas.remove }, async (request, reply) => {
    const deleted = await db.orm
      .delete(tagSets)
      .where(ownedTagSet(currentUser(request), request.params.id))
      .returning({ id: tagSets.id });
    found(deleted[0]);
    return reply.status(204).send();
  });
};
