import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Paged, TagSet } from '../../src/lib/contract';
import { tagSetSchema } from '../../src/lib/schemas';
import { currentUser, requireUser } from '../auth/guards';
import { parseBody } from '../http-error';
import { pageFromQuery } from '../services/lists/paging';
import { tagSetPage } from '../services/lists/tag-set-list';
import { createTagSet, deleteTagSet, tagSetOf, updateTagSet, visibleTagSetId } from '../services/library/tag-sets';
import { tagSchemas } from '../../src/lib/contract/groups-tags';

export const tagRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  app.addHook('onRequest', requireUser);

  app.get('/', { schema: tagSchemas.list }, async (request): Promise<Paged<TagSet>> =>
    tagSetPage(db, currentUser(request), pageFromQuery(request.query)),
  );

  app.get('/:id', { schema: tagSchemas.detail }, async (request) => tagSetOf(db, currentUser(request), request.params.id));

  app.post('/', { schema: tagSchemas.create }, async (request, reply) => {
    const form = parseBody(tagSetSchema, request.body);
    return reply.status(201).send(await createTagSet(db, currentUser(request), form));
  });

  app.patch('/:id', { schema: tagSchemas.update }, async (request) => {
    const id = await visibleTagSetId(db, currentUser(request), request.params.id);
    return updateTagSet(db, id, parseBody(tagSetSchema, request.body));
  });

  app.delete('/:id', { schema: tagSchemas.remove }, async (request, reply) => {
    await deleteTagSet(db, currentUser(request), request.params.id);
    return reply.status(204).send();
  });
};
