import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../src/lib/contract';
import { t } from '../messages';
import { HttpError } from '../http-error';
import { readAccessToken } from './tokens';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    /** The session (refresh token family) the request's access token belongs to. */
    sessionId: string | null;
  }
}

/**
 * Reads the Bearer token and loads the user with its session from the database on every request
 * (one indexed lookup), so logout, a new password, a role change or a deleted user end access at
 * once rather than when the token expires.
 */
export async function requireUser(request: FastifyRequest, _reply?: FastifyReply): Promise<void> {
  const header = request.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  const claims = token ? await readAccessToken(request.server.tokenSettings, token) : null;
  if (claims === null) throw new HttpError(401, t.server.unauthorized);
  const { rows } = await request.server.db.sql(
    `SELECT users.id, users.login, users.role FROM users
      WHERE users.id = $1 AND EXISTS (
        SELECT 1 FROM refresh_tokens
         WHERE refresh_tokens.family_id = $2 AND refresh_tokens.user_id = users.id
           AND refresh_tokens.revoked_at IS NULL AND refresh_tokens.expires_at > now())`,
    [claims.userId, claims.sessionId],
  );
  const user = rows[0] as SessionUser | undefined;
  if (!user) throw new HttpError(401, t.server.unauthorized);
  request.user = { id: user.id, login: user.login, role: user.role };
  request.sessionId = claims.sessionId;
}

export async function requireAdmin(request: FastifyRequest, reply?: FastifyReply): Promise<void> {
  await requireUser(request, reply);
  if (request.user?.role !== 'admin') throw new HttpError(403, t.server.forbidden);
}

/** The signed-in user of a request that passed `requireUser`. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new HttpError(401, t.server.unauthorized);
  return request.user;
}
