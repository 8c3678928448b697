import crypto from 'node:crypto';
import type { ApiTokenScope, Role, SessionUser } from '../../src/lib/contract';
import type { Database } from '../db/connect';

/**
 * Personal API tokens (issue 32.4): `sho_` and 32 random bytes in base64url. The prefix tells them
 * from the session's access JWTs in the same `Authorization: Bearer` header, and lets secret
 * scanners recognise one that leaked. Only the SHA-256 of the whole token is stored: with 256
 * random bits a plain hash is enough, and the guard's lookup stays one indexed read.
 */
export const apiTokenPrefix = 'sho_';

export const isApiToken = (bearer: string) => bearer.startsWith(apiTokenPrefix);

export function newApiToken(): { token: string; hash: string } {
  const token = `${apiTokenPrefix}${crypto.randomBytes(32).toString('base64url')}`;
  return { token, hash: hashApiToken(token) };
}

function hashApiToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Active (neither revoked nor expired) tokens a user may hold: a leaked session cannot scatter tokens unnoticed. */
export const maxActiveApiTokens = 20;

/** The last use is written at most this often per token, so a busy script costs no write per request. */
export const lastUseResolutionMs = 60_000;

/**
 * The role a token acts with: an admin token as its admin, any other as an operator, so a read or
 * publish token of an admin sees only that admin's own rows and reaches no admin route.
 */
const roleOf = (scope: ApiTokenScope): Role => (scope === 'admin' ? 'admin' : 'user');

export type ApiTokenCheck =
  /** `lastUsedAt`: when its use was last recorded, null before its first. */
  | { kind: 'valid'; user: SessionUser; tokenId: number; scope: ApiTokenScope; lastUsedAt: number | null }
  /** Issued once, but revoked, expired, or above its user's role now. */
  | { kind: 'ended' }
  /** No token ever issued: a guess, or a typing error. */
  | { kind: 'unknown' };

/** Who the token speaks for, at `now` (the server's Clock). A deleted user's tokens went with the user. */
export async function checkApiToken(db: Database, token: string, now: number): Promise<ApiTokenCheck> {
  const { rows } = await db.sql(
    `SELECT api_tokens.id AS token_id, api_tokens.scope, api_tokens.expires_at, api_tokens.revoked_at, api_tokens.last_used_at,
            users.id, users.login, users.role
       FROM api_tokens JOIN users ON users.id = api_tokens.user_id
      WHERE api_tokens.token_hash = $1`,
    [hashApiToken(token)],
  );
  const row = rows[0];
  if (!row) return { kind: 'unknown' };
  const scope = row.scope as ApiTokenScope;
  const ended = row.revoked_at !== null || new Date(row.expires_at).getTime() <= now || (scope === 'admin' && row.role !== 'admin');
  if (ended) return { kind: 'ended' };
  return {
    kind: 'valid',
    user: { id: row.id, login: row.login, role: roleOf(scope) },
    tokenId: row.token_id,
    scope,
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at).getTime(),
  };
}

/** Records a token's use at `now` when the last one recorded is older than `lastUseResolutionMs`. */
export async function recordApiTokenUse(db: Database, token: { tokenId: number; lastUsedAt: number | null }, now: number): Promise<void> {
  if (token.lastUsedAt !== null && token.lastUsedAt > now - lastUseResolutionMs) return;
  await db.sql('UPDATE api_tokens SET last_used_at = $2 WHERE id = $1', [token.tokenId, new Date(now).toISOString()]);
}
