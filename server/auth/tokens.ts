import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Database } from '../db/connect';
import type { Keys } from './keys';

/** A rotated token presented again within this window gets the same successor, so parallel tabs survive. */
export const reuseGraceSeconds = 10;

export interface TokenSettings {
  keys: Keys;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
}

/**
 * An access token names its user and its session (the refresh token family), so the guard can
 * refuse it as soon as that session ends, long before the token expires.
 */
export function signAccessToken(settings: TokenSettings, userId: number, sessionId: string, now: number): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(userId))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + settings.accessTokenTtlSeconds)
    .sign(settings.keys.accessToken);
}

export interface AccessClaims {
  userId: number;
  sessionId: string;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user and session the token was issued to, or null when it is forged, malformed or expired. */
export async function readAccessToken(settings: TokenSettings, token: string, now: number): Promise<AccessClaims | null> {
  try {
    // jose judges `exp` by its own wall clock unless given the moment (JWTClaimVerificationOptions.currentDate).
    const { payload } = await jwtVerify(token, settings.keys.accessToken, { algorithms: ['HS256'], currentDate: new Date(now) });
    const userId = Number(payload.sub);
    const sessionId = payload.sid;
    if (!Number.isSafeInteger(userId) || userId < 1 || userId > 2_147_483_647) return null;
    if (typeof sessionId !== 'string' || !uuidPattern.test(sessionId)) return null;
    return { userId, sessionId };
  } catch {
    return null;
  }
}

function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('base64url');
}

/**
 * A spent token's successor is derived from it with a server key, so the grace window can hand
 * the same successor out again without ever storing a usable token.
 */
function successorOf(settings: TokenSettings, token: string): string {
  return crypto.createHmac('sha256', settings.keys.refreshToken).update(token).digest('base64url');
}

function expiryFrom(settings: TokenSettings, now: number): Date {
  return new Date(now + settings.refreshTokenTtlDays * 24 * 3600 * 1000);
}

/** A new session: its first refresh token and an access token bound to it. */
export async function startSession(db: Database, settings: TokenSettings, userId: number, now: number) {
  const refreshToken = crypto.randomBytes(32).toString('base64url');
  const sessionId = crypto.randomUUID();
  await db.sql('INSERT INTO refresh_tokens (user_id, family_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)', [
    userId,
    sessionId,
    hashToken(refreshToken),
    expiryFrom(settings, now),
  ]);
  return { accessToken: await signAccessToken(settings, userId, sessionId, now), refreshToken };
}

export type RotationResult =
  { kind: 'rotated'; userId: number; sessionId: string; refreshToken: string } | { kind: 'invalid' } | { kind: 'reused' };

/**
 * Spends a refresh token and returns its successor (RFC 9700 rotation). A token spent more than
 * `reuseGraceSeconds` ago is treated as stolen: its whole family is revoked.
 */
export async function rotateRefreshToken(db: Database, settings: TokenSettings, presented: string, now: number): Promise<RotationResult> {
  return db.transaction(async (sql) => {
    const { rows } = await sql(
      `SELECT id, user_id, family_id, expires_at, rotated_at, revoked_at
         FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE`,
      [hashToken(presented)],
    );
    const row = rows[0];
    if (!row || row.revoked_at || new Date(row.expires_at).getTime() <= now) return { kind: 'invalid' } as const;

    const successor = successorOf(settings, presented);
    if (row.rotated_at) {
      const spentForMs = now - new Date(row.rotated_at).getTime();
      if (spentForMs > reuseGraceSeconds * 1000) {
        await sql('UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL', [row.family_id, new Date(now)]);
        return { kind: 'reused' } as const;
      }
      return { kind: 'rotated', userId: row.user_id, sessionId: row.family_id, refreshToken: successor } as const;
    }

    await sql('UPDATE refresh_tokens SET rotated_at = $2 WHERE id = $1', [row.id, new Date(now)]);
    await sql('INSERT INTO refresh_tokens (user_id, family_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)', [
      row.user_id,
      row.family_id,
      hashToken(successor),
      expiryFrom(settings, now),
    ]);
    return { kind: 'rotated', userId: row.user_id, sessionId: row.family_id, refreshToken: successor } as const;
  });
}

/** Revokes the family of the presented token; unknown tokens are ignored so logout always succeeds. */
export async function revokeRefreshFamily(db: Database, presented: string, now: number): Promise<void> {
  await db.sql(
    `UPDATE refresh_tokens SET revoked_at = $2
      WHERE revoked_at IS NULL
        AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1)`,
    [hashToken(presented), new Date(now)],
  );
}

/** Removes tokens that can no longer be used: expired, or revoked more than a day ago. */
export async function purgeExpiredRefreshTokens(db: Database, now: number): Promise<number> {
  const { rows } = await db.sql(
    `DELETE FROM refresh_tokens
      WHERE expires_at < $1 OR revoked_at < $1::timestamptz - interval '1 day'
      RETURNING id`,
    [new Date(now)],
  );
  return rows.length;
}
