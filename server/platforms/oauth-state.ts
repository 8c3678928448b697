import crypto from 'node:crypto';
import type { Database } from '../db/connect';
import type { Platform } from './types';

/**
 * How long a consent link works. Short, because whoever holds the link can connect the account
 * to this profile; the operator asks for a fresh one whenever the account's owner needs it.
 */
export const stateTtlSeconds = 30 * 60;

const hashState = (state: string) => crypto.createHash('sha256').update(state).digest('base64url');

/** RFC 7636 §4.2, S256: BASE64URL(SHA256(ASCII(code_verifier))), unpadded. */
export const pkceChallenge = (verifier: string) => crypto.createHash('sha256').update(verifier).digest('base64url');

/** A consent flow's start: the `state` for the link, and the PKCE challenge of the verifier kept with it. */
export interface IssuedState {
  state: string;
  codeChallenge: string;
}

/**
 * A `state` naming the platform, the profile to connect and the user who asked for the link:
 * random, stored only as a hash, so the unauthenticated callback can trust it and use it once.
 * With it, the flow's PKCE code_verifier (RFC 9700 §2.1.1, §4.5): 32 random bytes as 43 base64url
 * characters (RFC 7636 §4.1), kept here and never sent to the browser, so a code handed out to
 * this flow is redeemed only by this flow's callback, not by another user's holding the code.
 */
export async function issueOAuthState(
  db: Database,
  platform: Platform,
  accountId: number,
  userId: number,
  now: number,
): Promise<IssuedState> {
  const state = crypto.randomBytes(32).toString('base64url');
  const codeVerifier = crypto.randomBytes(32).toString('base64url');
  await db.sql(`DELETE FROM oauth_states WHERE expires_at < $1::timestamptz - interval '1 day'`, [new Date(now)]);
  await db.sql(
    `INSERT INTO oauth_states (state_hash, platform, account_id, user_id, expires_at, code_verifier)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [hashState(state), platform, accountId, userId, new Date(now + stateTtlSeconds * 1000), codeVerifier],
  );
  return { state, codeChallenge: pkceChallenge(codeVerifier) };
}

/** The flow a live `state` started, not spent: the profile, and its PKCE challenge for the consent link. */
export async function openOAuthState(
  db: Database,
  platform: Platform,
  state: string,
  now: number,
): Promise<{ accountId: number; codeChallenge: string } | null> {
  const { rows } = await db.sql(
    `SELECT account_id, code_verifier FROM oauth_states
      WHERE state_hash = $1 AND platform = $2 AND used_at IS NULL AND expires_at > $3`,
    [hashState(state), platform, new Date(now)],
  );
  return rows[0] ? { accountId: rows[0].account_id, codeChallenge: pkceChallenge(rows[0].code_verifier) } : null;
}

/** What a spent `state` was issued for; `codeVerifier` is null for a state issued before PKCE (migration 0033). */
export interface SpentState {
  accountId: number;
  userId: number;
  codeVerifier: string | null;
}

/**
 * Spends a `state` of the platform's callback: the profile and the user it was issued to, or null
 * when it is unknown, expired, already used or issued for another platform. Spending is one
 * statement, so two callbacks cannot both use it.
 */
export async function consumeOAuthState(db: Database, platform: Platform, state: string, now: number): Promise<SpentState | null> {
  const { rows } = await db.sql(
    `UPDATE oauth_states SET used_at = $3
      WHERE state_hash = $1 AND platform = $2 AND used_at IS NULL AND expires_at > $3
      RETURNING account_id, user_id, code_verifier`,
    [hashState(state), platform, new Date(now)],
  );
  return rows[0] ? { accountId: rows[0].account_id, userId: rows[0].user_id, codeVerifier: rows[0].code_verifier } : null;
}
