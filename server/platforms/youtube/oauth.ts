import type { PlatformsMode } from '../types';
import type { PlatformNetwork } from '../../net/http';
import { OAuthGrantError, type GrantedTokens, type LinkConnector, type LinkEndpoints, type OAuthApp } from '../oauth-links';

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

/** The consent link a profile's YouTube gets: this server's step that binds the browser opening it, then Google's page. */
export function youtubeConsentLink(baseUrl: string, state: string, signature: string): string {
  return `${baseUrl}/api/oauth/youtube/start?${new URLSearchParams({ state, sig: signature })}`;
}

/**
 * Google takes PKCE from web server apps too: `code_challenge` with `code_challenge_method=S256` on
 * the consent link and `code_verifier` at the token endpoint ("OAuth 2.0 for Mobile & Desktop Apps",
 * developers.google.com/identity/protocols/oauth2/native-app, Step 1, whose parameters the
 * web-server flow's endpoint shares), and refuses the code then without the matching verifier.
 */
export function youtubeConsentUrl(
  endpoints: GoogleOAuthEndpoints,
  { clientId, redirectUri, state, codeChallenge }: { clientId: string; redirectUri: string; state: string; codeChallenge: string },
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
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
  });
  return `${endpoints.authorize}?${params}`;
}

export interface GoogleTokens {
  accessToken: string;
  /** Seconds the access token lives: 3599 of Google's hour. */
  expiresIn: number;
  refreshToken: string | undefined;
  /** Google's `refresh_token_expires_in`, sent only when the refresh token ends at a known time. */
  refreshExpiresIn: number | undefined;
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
async function requestTokens(client: GoogleClient, form: Record<string, string>): Promise<GoogleTokens> {
  const response = await client.network.fetch(client.proxy, client.tokenUrl, {
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
    refreshExpiresIn: body.refresh_token_expires_in === undefined ? undefined : Number(body.refresh_token_expires_in),
    scope: typeof body.scope === 'string' ? body.scope : '',
    tokenType: typeof body.token_type === 'string' ? body.token_type : 'Bearer',
  };
}

export interface GoogleClient {
  network: PlatformNetwork;
  proxy: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

export function exchangeAuthorizationCode(
  client: GoogleClient,
  code: string,
  redirectUri: string,
  codeVerifier: string | null,
): Promise<GoogleTokens> {
  return requestTokens(client, {
    grant_type: 'authorization_code',
    code,
    client_id: client.clientId,
    client_secret: client.clientSecret,
    redirect_uri: redirectUri,
    ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
  });
}

/**
 * Google's refresh token of an app whose OAuth consent screen is in "Testing" ends 7 days after
 * the consent ("Using OAuth 2.0 to Access Google APIs", developers.google.com/identity/protocols/oauth2,
 * Refresh token expiration), and Google's token answer does not say so: YOUTUBE_APP_IN_TESTING=1
 * records that end.
 */
export const testingRefreshTokenSeconds = 7 * 24 * 3600;

/**
 * A fresh access token for uploads, from the stored refresh token. It lives an hour ("Using OAuth
 * 2.0 for Web Server Applications", developers.google.com/identity/protocols/oauth2/web-server:
 * expires_in 3600 in the token answer), so the connection keeps it and reuses it until then.
 */
export function redeemRefreshToken(client: GoogleClient, refreshToken: string): Promise<GoogleTokens> {
  return requestTokens(client, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
}

/** Google's answers that end a grant: revoked or expired (invalid_grant), or a client deleted or changed. */
const googleDeadCodes = ['invalid_grant', 'invalid_client', 'unauthorized_client'];

function googleGranted(tokens: GoogleTokens): GrantedTokens {
  return {
    accessToken: tokens.accessToken,
    accessExpiresIn: tokens.expiresIn,
    refreshToken: tokens.refreshToken ?? null,
    refreshExpiresIn: tokens.refreshExpiresIn ?? null,
    // The channel is asked for by name after the consent (the callback's recordChannel).
    remoteId: '',
  };
}

async function googleCall(call: () => Promise<GoogleTokens>): Promise<GrantedTokens> {
  try {
    return googleGranted(await call());
  } catch (error) {
    if (!(error instanceof GoogleTokenError)) throw error;
    throw new OAuthGrantError('youtube', error.code, googleDeadCodes.includes(error.code), error.description ?? '');
  }
}

/** Google's token endpoint for the profile's own client, through the profile's proxy. */
function tokenClient(endpoints: LinkEndpoints, proxy: string, app: OAuthApp) {
  return {
    network: endpoints.network,
    proxy,
    tokenUrl: googleOAuthEndpoints(endpoints.mode, endpoints.platformsOrigin).token,
    clientId: app.id,
    clientSecret: app.secret,
  };
}

/**
 * Google's OAuth 2.0 for web server applications (above), with the profile's own
 * client. Google does not rotate refresh tokens: a refresh answers an access token alone, and the
 * stored refresh token stays.
 */
export const youtubeLink: LinkConnector = {
  platform: 'youtube',
  consentUrl(endpoints, app, redirectUri, state, codeChallenge) {
    return youtubeConsentUrl(googleOAuthEndpoints(endpoints.mode, endpoints.publicUrl), {
      clientId: app.id,
      redirectUri,
      state,
      codeChallenge,
    });
  },
  exchange(endpoints, proxy, app, code, redirectUri, codeVerifier) {
    return googleCall(() => exchangeAuthorizationCode(tokenClient(endpoints, proxy, app), code, redirectUri, codeVerifier));
  },
  renewGrant(endpoints, proxy, app, tokens) {
    if (!tokens.refreshToken) throw new OAuthGrantError('youtube', 'invalid_grant', true, 'no refresh token');
    return googleCall(() => redeemRefreshToken(tokenClient(endpoints, proxy, app), tokens.refreshToken!));
  },
};
