import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiTokenScope, SessionUser } from '../../src/lib/contract';
import { t } from '../messages';
import { HttpError } from '../http-error';
import { readAccessToken } from './tokens';
import { checkApiToken, isApiToken, recordApiTokenUse } from './api-tokens';
import { countAlertTest, countTokenGuess, refuseTokenGuesser } from './login-throttle';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    /** The session (refresh token family) the request's access token belongs to; null for an API token. */
    sessionId: string | null;
    /** The API token the request came with, when it came with one instead of a session. */
    apiToken: { id: number; scope: ApiTokenScope } | null;
  }
  interface FastifyContextConfig {
    /**
     * The route changes who can sign in or act as whom (a password, a login, a user, an API token):
     * only a person signed in with a password may call it, never an API token of any scope, so a
     * leaked token can neither take the account nor outlive its revocation. Declared on the route
     * and kept by `requireUser`, so every guard keeps it.
     */
    sessionOnly?: boolean;
  }
}

/** Methods that change nothing: all a read token may use. */
const readMethods = new Set(['GET', 'HEAD']);

/**
 * Reads the Bearer token and loads the user with its session from the database on every request
 * (one indexed lookup), so logout, a new password, a role change or a deleted user end access at
 * once rather than when the token expires. A personal API token (`sho_…`) is taken instead of a
 * session on the same routes, within its scope, except on a route declared `sessionOnly`.
 */
export async function requireUser(request: FastifyRequest, reply?: FastifyReply): Promise<void> {
  const header = request.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  if (isApiToken(token)) return requireApiToken(request, token, reply);
  const claims = token ? await readAccessToken(request.server.tokenSettings, token, request.server.clock.now()) : null;
  if (claims === null) throw new HttpError(401, t.server.unauthorized);
  const { rows } = await request.server.db.sql(
    `SELECT users.id, users.login, users.role FROM users
      WHERE users.id = $1 AND EXISTS (
        SELECT 1 FROM refresh_tokens
         WHERE refresh_tokens.family_id = $2 AND refresh_tokens.user_id = users.id
           AND refresh_tokens.revoked_at IS NULL AND refresh_tokens.expires_at > $3)`,
    [claims.userId, claims.sessionId, new Date(request.server.clock.now())],
  );
  const user = rows[0] as SessionUser | undefined;
  if (!user) throw new HttpError(401, t.server.unauthorized);
  request.user = { id: user.id, login: user.login, role: user.role };
  request.sessionId = claims.sessionId;
}

/**
 * An API token, held to its scope: a read token only reads, and no token reaches a route declared
 * `sessionOnly`. A token that has worked before is taken at once; any other (a guess, an ended
 * token, a new one's first use) only while its address, its first characters and all guesses are
 * within the guessing limits (login-throttle.ts), else 429. A guess is counted there. So guessers,
 * from a shared office address or from everywhere, never lock out a working script.
 */
async function requireApiToken(request: FastifyRequest, token: string, reply: FastifyReply | undefined): Promise<void> {
  const { db, clock } = request.server;
  const now = clock.now();
  const check = await checkApiToken(db, token, now);
  const workedBefore = check.kind === 'valid' && check.lastUsedAt !== null;
  if (!workedBefore) {
    const refusal =
      check.kind === 'unknown' ? await countTokenGuess(db, request.ip, token, now) : await refuseTokenGuesser(db, request.ip, token, now);
    if (refusal) {
      reply?.header('retry-after', String(refusal.retryAfterSeconds));
      throw new HttpError(429, t.server.tooManyTokenAttempts(refusal.retryAfterSeconds));
    }
  }
  if (check.kind === 'unknown') throw new HttpError(401, t.server.unauthorized);
  if (check.kind === 'ended') throw new HttpError(401, t.server.apiTokenEnded);
  await recordApiTokenUse(db, check, now);
  request.user = check.user;
  request.apiToken = { id: check.tokenId, scope: check.scope };
  if (request.routeOptions.config.sessionOnly) throw new HttpError(403, t.server.apiTokenNeedsSession);
  if (check.scope === 'read' && !readMethods.has(request.method)) throw new HttpError(403, t.server.apiTokenReadOnly);
}

export async function requireAdmin(request: FastifyRequest, reply?: FastifyReply): Promise<void> {
  await requireUser(request, reply);
  if (request.apiToken && request.apiToken.scope !== 'admin') throw new HttpError(403, t.server.apiTokenNotAdmin);
  if (request.user?.role !== 'admin') throw new HttpError(403, t.server.forbidden);
}

/** The signed-in user of a request that passed `requireUser`. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new HttpError(401, t.server.unauthorized);
  return request.user;
}

/** The preHandler of the alert test routes: each test is counted, and one past the user's limit answers 429 (login-throttle.ts). */
export async function limitAlertTests(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { db, clock } = request.server;
  const refusal = await countAlertTest(db, currentUser(request).id, clock.now());
  if (refusal) {
    reply.header('retry-after', String(refusal.retryAfterSeconds));
    throw new HttpError(429, t.alertTests.tooMany(refusal.retryAfterSeconds));
  }
}
