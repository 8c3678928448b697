import crypto from 'node:crypto';
import type { ApiToken, ApiTokenScope, CreatedApiToken, Role, SessionUser } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { HttpError } from '../http-error';
import { t } from '../messages';

/**
 * Personal API tokens (issue 32.4): `sho_` and 32 random bytes in base64url. The prefix tells them
 * from the session's access JWTs in the same `Authorization: Bearer` header, and lets secret
 * scanners recognise one that leaked. Only the SHA-256 of the whole token is stored: with 256
 * random bits a plain hash is enough, and the guard's lookup stays one indexed read.
 */
export const apiTokenPrefix = 'sho_';

export const isApiToken = (bearer: string) => bearer.startsWith(apiTokenPrefix);

function newApiToken(): { token: string; hash: string } {
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

const dayMs = 24 * 3600 * 1000;
const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/** The user's tokens not revoked, newest first, each told expired or not at `now`. */
export async function apiTokensOf(db: Database, userId: number, now: number): Promise<ApiToken[]> {
  const { rows } = await db.sql(
    `SELECT id, name, scope, created_at, expires_at, last_used_at FROM api_tokens
      WHERE user_id = $1 AND revoked_at IS NULL ORDER BY id DESC`,
    [userId],
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    scope: row.scope,
    createdAt: iso(row.created_at)!,
    expiresAt: iso(row.expires_at)!,
    lastUsedAt: iso(row.last_used_at),
    expired: new Date(row.expires_at).getTime() <= now,
  }));
}

/**
 * A new token for the user, made at `now` and valid `expiresInDays`; the token itself is in the
 * answer only, never stored. Refused with a 409 when the user holds `maxActiveApiTokens` already.
 */
export async function issueApiToken(
  db: Database,
  userId: number,
  { name, scope, expiresInDays }: { name: string; scope: ApiTokenScope; expiresInDays: number },
  now: number,
): Promise<CreatedApiToken> {
  const { token, hash } = newApiToken();
  const createdAt = new Date(now).toISOString();
  const expiresAt = new Date(now + expiresInDays * dayMs).toISOString();
  const rows = await db.transaction(async (sql) => {
    // Counted under the user's row lock, so two tokens made at once cannot pass the limit together.
    await sql('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const { rows: active } = await sql(
      'SELECT count(*)::int AS count FROM api_tokens WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2',
      [userId, createdAt],
    );
    if (active[0].count >= maxActiveApiTokens) throw new HttpError(409, t.apiTokens.tooMany(maxActiveApiTokens));
    const inserted = await sql(
      `INSERT INTO api_tokens (user_id, name, scope, token_hash, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, expires_at`,
      [userId, name, scope, hash, createdAt, expiresAt],
    );
    return inserted.rows;
  });
  return { id: rows[0].id, name, scope, expiresAt: iso(rows[0].expires_at)!, token };
}

/** Revokes the user's token `id` at `at`; false when they have no such token still active. */
export async function revokeApiToken(db: Database, userId: number, id: number, at: number): Promise<boolean> {
  const { rows } = await db.sql(
    'UPDATE api_tokens SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id',
    [id, userId, new Date(at).toISOString()],
  );
  return rows.length > 0;
}
