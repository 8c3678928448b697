import type { FastifyReply, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { SessionUser } from '../../src/lib/contract';
import { t } from '../../src/lib/i18n';
import { users } from '../db/schema';
import { HttpError } from '../http-error';
import { readAccessToken } from './tokens';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

/**
 * Reads the Bearer token and loads the user from the database on every request, so a deleted or
 * demoted user loses access at once rather than when the token expires.
 */
export async function requireUser(request: FastifyRequest, _reply?: FastifyReply): Promise<void> {
  const header = request.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  const userId = token ? await readAccessToken(request.server.tokenSettings, token) : null;
  if (userId === null) throw new HttpError(401, t.server.unauthorized);
  const [user] = await request.server.db.orm
    .select({ id: users.id, login: users.login, role: users.role })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new HttpError(401, t.server.unauthorized);
  request.user = user;
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
