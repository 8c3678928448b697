import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiToken } from '../../src/lib/contract';
import { apiTokenSchemaFor } from '../../src/lib/schemas';
import { apiTokenSchemas } from '../../src/lib/contract/api-tokens';
import { currentUser, requireUser } from '../auth/guards';
import { apiTokensOf, issueApiToken, revokeApiToken } from '../auth/api-tokens';
import { HttpError, parseBody } from '../http-error';
import { t } from '../messages';

/**
 * A user's own API tokens (issue 32.4), managed from a session only: a token that could make
 * tokens could outlive its own revocation, and a read token could make itself a publish one.
 * Each user sees and revokes only their own; an admin too, as a token is a personal secret. At
 * most `maxActiveApiTokens` are active at once.
 */
export const apiTokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app;
  app.addHook('onRequest', requireUser);

  app.get('/', { schema: apiTokenSchemas.list, config: { sessionOnly: true } }, async (request): Promise<{ data: ApiToken[] }> => ({
    data: await apiTokensOf(db, currentUser(request).id, clock.now()),
  }));

  app.post('/', { schema: apiTokenSchemas.create, config: { sessionOnly: true } }, async (request, reply) => {
    const user = currentUser(request);
    const form = parseBody(apiTokenSchemaFor(user.role), request.body);
    const created = await issueApiToken(
      db,
      user.id,
      { name: form.name.trim(), scope: form.scope, expiresInDays: form.expiresInDays },
      clock.now(),
    );
    return reply.status(201).send(created);
  });

  /** Revoked at once: the guard reads the row on every request. */
  app.delete('/:id', { schema: apiTokenSchemas.revoke, config: { sessionOnly: true } }, async (request, reply) => {
    if (!(await revokeApiToken(db, currentUser(request).id, request.params.id, clock.now()))) throw new HttpError(404, t.server.notFound);
    return reply.status(204).send();
  });
};
