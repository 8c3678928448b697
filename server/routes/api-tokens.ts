import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiToken, CreatedApiToken } from '../../src/lib/contract';
import { apiTokenSchemaFor } from '../../src/lib/schemas';
import { apiTokenSchemas } from '../../src/lib/contract/api-tokens';
import { currentUser, requireUser } from '../auth/guards';
import { found } from '../auth/ownership';
import { maxActiveApiTokens, newApiToken } from '../auth/api-tokens';
import { HttpError, parseBody } from '../http-error';
import { t } from '../messages';

const dayMs = 24 * 3600 * 1000;
const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/**
 * A user's own API tokens (issue 32.4), managed from a session only: a token that could make
 * tokens could outlive its own revocation, and a read token could make itself a publish one.
 * Each user sees and revokes only their own; an admin too, as a token is a personal secret. At
 * most `maxActiveApiTokens` are active at once.
 */
export const apiTokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app;
  app.addHook('onRequest', requireUser);

  app.get('/', { schema: apiTokenSchemas.list, config: { sessionOnly: true } }, async (request): Promise<{ data: ApiToken[] }> => {
    const now = clock.now();
    const { rows } = await db.sql(
      `SELECT id, name, scope, created_at, expires_at, last_used_at FROM api_tokens
        WHERE user_id = $1 AND revoked_at IS NULL ORDER BY id DESC`,
      [currentUser(request).id],
    );
    return {
      data: rows.map((row) => ({
        id: row.id,
        name: row.name,
        scope: row.scope,
        createdAt: iso(row.created_at)!,
        expiresAt: iso(row.expires_at)!,
        lastUsedAt: iso(row.last_used_at),
        expired: new Date(row.expires_at).getTime() <= now,
      })),
    };
  });

  app.post('/', { schema: apiTokenSchemas.create, config: { sessionOnly: true } }, async (request, reply) => {
    const user = currentUser(request);
    const form = parseBody(apiTokenSchemaFor(user.role), request.body);
    const { token, hash } = newApiToken();
    const now = clock.now();
    const createdAt = new Date(now).toISOString();
    const expiresAt = new Date(now + form.expiresInDays * dayMs).toISOString();
    const rows = await db.transaction(async (sql) => {
      // Counted under the user's row lock, so two tokens made at once cannot pass the limit together.
      await sql('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [user.id]);
      const { rows: active } = await sql(
        'SELECT count(*)::int AS count FROM api_tokens WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2',
        [user.id, createdAt],
      );
      if (active[0].count >= maxActiveApiTokens) throw new HttpError(409, t.apiTokens.tooMany(maxActiveApiTokens));
      const inserted = await sql(
        `INSERT INTO api_tokens (user_id, name, scope, token_hash, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, expires_at`,
        [user.id, form.name.trim(), form.scope, hash, createdAt, expiresAt],
      );
      return inserted.rows;
    });
    const created: CreatedApiToken = {
      id: rows[0].id,
      name: form.name.trim(),
      scope: form.scope,
      expiresAt: iso(rows[0].expires_at)!,
      token,
    };
    return reply.status(201).send(created);
  });

  /** Revoked at once: the guard reads the row on every request. */
  app.delete('/:id', { schema: apiTokenSchemas.revoke, config: { sessionOnly: true } }, async (request, reply) => {
    const { rows } = await db.sql(
      'UPDATE api_tokens SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id',
      [request.params.id, currentUser(request).id, new Date(clock.now()).toISOString()],
    );
    found(rows[0]);
    return reply.status(204).send();
  });
};
