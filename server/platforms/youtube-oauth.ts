import crypto from 'node:crypto';
import type { Database } from '../db/connect';
import type { PlatformsMode } from './types';
import { platformFetch } from './http';

/** Google's OAuth 2.0 for YouTube: the consent link, its signed `state`, and the token endpoint calls. */

export const youtubeScopes = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.readonly',
  'https://www.googleapis.com/auth/youtube.force-ssl',
];

export interface GoogleOAuthEndpoints {
  authorize: string;
  token: string;
}

/**
 * The real Google, or the built-in sandbox that this server mounts at `{baseUrl}/sandbox`. The
 * base comes from configuration only (PUBLIC_URL for browsers, SANDBOX_ORIGIN for the server's
 * own calls), never from a request, so a forged Host header cannot redirect a client secret.
 */
export function googleOAuthEndpoints(mode: PlatformsMode, baseUrl: string): GoogleOAuthEndpoints {
  if (mode === 'live') {
    return { authorize: 'https://accounts.google.com/o/oauth2/v2/auth', token: 'https://oauth2.googleapis.com/token' };
  }
  return {
    authorize: `${baseUrl}/sandbox/accounts.google.com/o/oauth2/v2/auth`,
    token: `${baseUrl}/sandbox/oauth2.googleapis.com/token`,
  };
}

export const youtubeCallbackPath = '/api/oauth/youtube/callback';

export function youtubeRedirectUri(baseUrl: string): string {
  return `${baseUrl}${youtubeCallbackPath}`;
}

export function youtubeConsentUrl(
  endpoints: GoogleOAuthEndpoints,
  { clientId, redirectUri, state }: { clientId: string; redirectUri: string; state: string },
): string {
  const params = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: youtubeScopes.join(' '),
    access_type: 'offline',
    // Asks again even when the Google account already granted access, so Google returns a refresh token.
    prompt: 'consent',
    include_granted_scopes: 'true',
    state,
  });
  return `${endpoints.authorize}?${params}`;
}

/**
 * How long a consent link works. Short, because whoever holds the link can connect the channel
 * to this profile; the operator copies a fresh one whenever the channel's owner needs it.
 */
export const stateTtlSeconds = 30 * 60;

const hashState = (state: string) => crypto.createHash('sha256').update(state).digest('base64url');

/**
 * A `state` naming the profile to connect and the user who asked for the link: random, stored
 * only as a hash, so the unauthenticated callback can trust it and use it once.
 */
export async function issueYouTubeState(db: Database, accountId: number, userId: number): Promise<string> {
  const state = crypto.randomBytes(32).toString('base64url');
  await db.sql(`DELETE FROM oauth_states WHERE expires_at < now() - interval '1 day'`, []);
  await db.sql(
    `INSERT INTO oauth_states (state_hash, account_id, user_id, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [hashState(state), accountId, userId, stateTtlSeconds],
  );
  return state;
}

/**
 * Spends a `state`: the profile and the user it was issued to, or null when it is unknown,
 * expired or already used. Spending is one statement, so two callbacks cannot both use it.
 */
export async function consumeYouTubeState(db: Database, state: string): Promise<{ accountId: number; userId: number } | null> {
  const { rows } = await db.sql(
    `UPDATE oauth_states SET used_at = now()
      WHERE state_hash = $1 AND used_at IS NULL AND expires_at > now()
      RETURNING account_id, user_id`,
    [hashState(state)],
  );
  return rows[0] ? { accountId: rows[0].account_id, userId: rows[0].user_id } : null;
}

export interface GoogleTokens {
  accessToken: string;
  expiresIn: number;
  refreshToken: string | undefined;
  scope: string;
  tokenType: string;
}

/** Google answered the token call with an OAuth error (`invalid_grant`, `invalid_client`, ...). */
export class GoogleTokenError extends Error {
  constructor(
    readonly code: string,
    readonly description: string | undefined,
  ) {
    super(description ? `${code}: ${description}` : code);
  }
}

/** A call to the token endpoint, through the profile's proxy like every platform call of a profile. */
async function requestTokens(proxy: string, tokenUrl: string, form: Record<string, string>): Promise<GoogleTokens> {
  const response = await platformFetch(proxy, tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || typeof body.access_token !== 'string') {
    throw new GoogleTokenError(
      typeof body.error === 'string' ? body.error : `HTTP ${response.status}`,
      typeof body.error_description === 'string' ? body.error_description : undefined,
    );
  }
  return {
    accessToken: body.access_token,
    expiresIn: Number(body.expires_in ?? 0),
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
    scope: typeof body.scope === 'string' ? body.scope : '',
    tokenType: typeof body.token_type === 'string' ? body.token_type : 'Bearer',
  };
}

export interface GoogleClient {
  proxy: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

export function exchangeAuthorizationCode(client: GoogleClient, code: string, redirectUri: string): Promise<GoogleTokens> {
  return requestTokens(client.proxy, client.tokenUrl, {
    grant_type: 'authorization_code',
    code,
    client_id: client.clientId,
    client_secret: client.clientSecret,
    redirect_uri: redirectUri,
  });
}

/** A fresh access token for uploads, from the stored refresh token. */
export function refreshAccessToken(client: GoogleClient, refreshToken: string): Promise<GoogleTokens> {
  return requestTokens(client.proxy, client.tokenUrl, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
}
