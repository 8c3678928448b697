import type { PlatformNetwork } from './http';
import type { Platform, PlatformsMode } from './types';
import {
  exchangeAuthorizationCode,
  googleOAuthEndpoints,
  GoogleTokenError,
  refreshAccessToken,
  youtubeConsentUrl,
  type GoogleTokens,
} from './youtube-oauth';

/**
 * Connecting a profile through the platforms' own consent pages: the link to the consent page, the
 * code's exchange for tokens, and the refresh. One connector per platform, the same shape for
 * each; the rest of the tree (routes, refresher, publisher) reads only this shape.
 */

/**
 * The app a platform's consent is given to: TikTok's client key and secret, Instagram's app id and
 * secret (once per installation), Google's OAuth client id and secret (SPEC: each profile's own).
 */
export interface OAuthApp {
  id: string;
  secret: string;
}

/** TIKTOK_CLIENT_KEY/SECRET and INSTAGRAM_APP_ID/SECRET; null in live mode when unset (connecting then says what to set). */
export interface PlatformApps {
  tiktok: OAuthApp | null;
  instagram: OAuthApp | null;
}

/**
 * The apps of an installation that sets none. The sandbox's token endpoints accept any pair, so
 * sandbox mode has built-in ones; live mode has none until the variables are set.
 */
export function builtInApps(mode: PlatformsMode): PlatformApps {
  return mode === 'sandbox'
    ? {
        tiktok: { id: 'sandbox-tiktok', secret: 'sandbox-tiktok-secret' },
        instagram: { id: 'sandbox-instagram', secret: 'sandbox-instagram-secret' },
      }
    : { tiktok: null, instagram: null };
}

export interface GrantedTokens {
  accessToken: string;
  /** Seconds the access token lives. */
  accessExpiresIn: number;
  /** Null where the platform renews the access token itself (Instagram's long-lived token). */
  refreshToken: string | null;
  refreshExpiresIn: number | null;
  /** The platform's id of the account the grant reaches (TikTok's open_id, the Instagram user id). */
  remoteId: string;
}

/**
 * The token endpoint refused. `dead` tells a grant the platform no longer honours (revoked,
 * expired, rotated away: only a new consent helps) from a refusal worth another try.
 */
export class OAuthGrantError extends Error {
  constructor(
    readonly platform: Platform,
    readonly code: string,
    readonly dead: boolean,
    detail: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
  }
}

/** Where a host's OAuth pages are: the platform, or this server's sandbox mirror of it under `{base}/sandbox/<host>`. */
export function oauthHost(mode: PlatformsMode, base: string, host: string): string {
  return mode === 'live' ? `https://${host}` : `${base.replace(/\/$/, '')}/sandbox/${host}`;
}

/** Where the platform sends the browser back after its consent page; registered with the platform's app in live mode. */
export function linkRedirectUri(publicUrl: string, platform: LinkPlatform): string {
  return `${publicUrl.replace(/\/$/, '')}/api/oauth/${platform}/callback`;
}

export interface LinkEndpoints {
  mode: PlatformsMode;
  /** Where browsers reach this server (PUBLIC_URL): the sandbox's consent pages in sandbox mode. */
  publicUrl: string;
  /** Where this server reaches the platforms' token endpoints (the sandbox's SANDBOX_ORIGIN, or the platform). */
  platformsOrigin: string;
  /** How it reaches them: through the profile's proxy, within the configured limits. */
  network: PlatformNetwork;
}

export interface LinkConnector {
  platform: Platform;
  consentUrl(endpoints: LinkEndpoints, app: OAuthApp, redirectUri: string, state: string): string;
  exchange(endpoints: LinkEndpoints, proxy: string, app: OAuthApp, code: string, redirectUri: string): Promise<GrantedTokens>;
  refresh(
    endpoints: LinkEndpoints,
    proxy: string,
    app: OAuthApp,
    tokens: { accessToken: string; refreshToken: string | null; remoteId: string },
  ): Promise<GrantedTokens>;
}

async function readJson(response: { json(): Promise<unknown> }): Promise<Record<string, any>> {
  return (await response.json().catch(() => ({}))) as Record<string, any>;
}

const form = (values: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
  body: new URLSearchParams(values).toString(),
});

/**
 * TikTok's OAuth error codes that end a grant ("OAuth Error Handling"): the code or refresh token
 * is invalid, expired or already used, or the app's credentials no longer match.
 */
const tiktokDeadCodes = ['invalid_grant', 'invalid_client', 'unauthorized_client', 'access_denied'];

/**
 * TikTok Login Kit for Web v2 ("Login Kit for Web", "Manage User Access Tokens"): the consent page
 * at www.tiktok.com/v2/auth/authorize/ with comma-separated scopes; POST open.tiktokapis.com/v2/oauth/token/
 * for the code and for refreshes. Access tokens live 2 hours (expires_in 86400 in older docs, 7200
 * now), refresh tokens 180 days (refresh_expires_in), and a refresh returns a new refresh token,
 * after which the old one fails.
 */
export const tiktokLink: LinkConnector = {
  platform: 'tiktok',
  consentUrl(endpoints, app, redirectUri, state) {
    const params = new URLSearchParams({
      client_key: app.id,
      // The Content Posting API's direct post (video.publish, video.upload), the Display API's
      // video list that finds a post again (video.list), and the creator's name (user.info.basic).
      scope: 'user.info.basic,video.publish,video.upload,video.list',
      response_type: 'code',
      redirect_uri: redirectUri,
      state,
    });
    return `${oauthHost(endpoints.mode, endpoints.publicUrl, 'www.tiktok.com')}/v2/auth/authorize/?${params}`;
  },
  exchange(endpoints, proxy, app, code, redirectUri) {
    return tiktokToken(endpoints, proxy, {
      client_key: app.id,
      client_secret: app.secret,
      code,
      grant_type: 'authorization_code',
      redirect_uri: redirectUri,
    });
  },
  refresh(endpoints, proxy, app, tokens) {
    if (!tokens.refreshToken) throw new OAuthGrantError('tiktok', 'invalid_grant', true, 'no refresh token');
    return tiktokToken(endpoints, proxy, {
      client_key: app.id,
      client_secret: app.secret,
      grant_type: 'refresh_token',
      refresh_token: tokens.refreshToken,
    });
  },
};

async function tiktokToken(endpoints: LinkEndpoints, proxy: string, values: Record<string, string>): Promise<GrantedTokens> {
  const url = `${oauthHost(endpoints.mode, endpoints.platformsOrigin, 'open.tiktokapis.com')}/v2/oauth/token/`;
  const response = await endpoints.network.fetch(proxy, url, form(values));
  const body = await readJson(response);
  if (!response.ok || typeof body.access_token !== 'string') {
    const code = typeof body.error === 'string' ? body.error : `HTTP ${response.status}`;
    throw new OAuthGrantError('tiktok', code, tiktokDeadCodes.includes(code), String(body.error_description ?? ''));
  }
  return {
    accessToken: body.access_token,
    accessExpiresIn: Number(body.expires_in),
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
    refreshExpiresIn: body.refresh_expires_in === undefined ? null : Number(body.refresh_expires_in),
    remoteId: String(body.open_id ?? ''),
  };
}

/**
 * Instagram API with Instagram Login ("Business Login for Instagram"): the consent page at
 * www.instagram.com/oauth/authorize; POST api.instagram.com/oauth/access_token gives a short-lived
 * token (1 hour), GET graph.instagram.com/access_token?grant_type=ig_exchange_token a long-lived
 * one (60 days), and graph.instagram.com/refresh_access_token renews a long-lived token that is at
 * least 24 hours old and not expired, for another 60 days. There is no refresh token: the
 * long-lived token itself is renewed, and once it expires only a new consent helps.
 */
export const instagramLink: LinkConnector = {
  platform: 'instagram',
  consentUrl(endpoints, app, redirectUri, state) {
    const params = new URLSearchParams({
      client_id: app.id,
      redirect_uri: redirectUri,
      response_type: 'code',
      // Media insights (the statistics sync) need instagram_business_manage_insights besides the
      // basic permission (developers.facebook.com/docs/instagram-platform/insights, "Permissions").
      scope: 'instagram_business_basic,instagram_business_content_publish,instagram_business_manage_insights',
      state,
    });
    return `${oauthHost(endpoints.mode, endpoints.publicUrl, 'www.instagram.com')}/oauth/authorize?${params}`;
  },
  async exchange(endpoints, proxy, app, code, redirectUri) {
    const url = `${oauthHost(endpoints.mode, endpoints.platformsOrigin, 'api.instagram.com')}/oauth/access_token`;
    const response = await endpoints.network.fetch(
      proxy,
      url,
      form({ client_id: app.id, client_secret: app.secret, grant_type: 'authorization_code', redirect_uri: redirectUri, code }),
    );
    const body = await readJson(response);
    // Answered as `{ data: [{ access_token, user_id, permissions }] }`, older docs show the fields at the top level.
    const short = Array.isArray(body.data) ? body.data[0] : body;
    if (!response.ok || typeof short?.access_token !== 'string') {
      const message = String(body.error_message ?? body.error?.message ?? `HTTP ${response.status}`);
      throw new OAuthGrantError('instagram', 'OAuthException', response.status === 400, message);
    }
    const params = new URLSearchParams({ grant_type: 'ig_exchange_token', client_secret: app.secret, access_token: short.access_token });
    return instagramGraphToken(endpoints, proxy, `access_token?${params}`, String(short.user_id));
  },
  refresh(endpoints, proxy, _app, tokens) {
    const params = new URLSearchParams({ grant_type: 'ig_refresh_token', access_token: tokens.accessToken });
    return instagramGraphToken(endpoints, proxy, `refresh_access_token?${params}`, tokens.remoteId);
  },
};

async function instagramGraphToken(endpoints: LinkEndpoints, proxy: string, path: string, remoteId: string): Promise<GrantedTokens> {
  const url = `${oauthHost(endpoints.mode, endpoints.platformsOrigin, 'graph.instagram.com')}/${path}`;
  const response = await endpoints.network.fetch(proxy, url, { headers: { accept: 'application/json' } });
  const body = await readJson(response);
  if (!response.ok || typeof body.access_token !== 'string') {
    // Graph API error 190 (OAuthException): the token is invalid, expired or revoked.
    const code = Number(body.error?.code);
    throw new OAuthGrantError('instagram', `OAuthException ${code || response.status}`, code === 190, String(body.error?.message ?? ''));
  }
  return { accessToken: body.access_token, accessExpiresIn: Number(body.expires_in), refreshToken: null, refreshExpiresIn: null, remoteId };
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

/**
 * Google's OAuth 2.0 for web server applications (see youtube-oauth.ts), with the profile's own
 * client. Google does not rotate refresh tokens: a refresh answers an access token alone, and the
 * stored refresh token stays.
 */
export const youtubeLink: LinkConnector = {
  platform: 'youtube',
  consentUrl(endpoints, app, redirectUri, state) {
    return youtubeConsentUrl(googleOAuthEndpoints(endpoints.mode, endpoints.publicUrl), { clientId: app.id, redirectUri, state });
  },
  exchange(endpoints, proxy, app, code, redirectUri) {
    const client = {
      network: endpoints.network,
      proxy,
      tokenUrl: googleOAuthEndpoints(endpoints.mode, endpoints.platformsOrigin).token,
      clientId: app.id,
      clientSecret: app.secret,
    };
    return googleCall(() => exchangeAuthorizationCode(client, code, redirectUri));
  },
  refresh(endpoints, proxy, app, tokens) {
    if (!tokens.refreshToken) throw new OAuthGrantError('youtube', 'invalid_grant', true, 'no refresh token');
    const client = {
      network: endpoints.network,
      proxy,
      tokenUrl: googleOAuthEndpoints(endpoints.mode, endpoints.platformsOrigin).token,
      clientId: app.id,
      clientSecret: app.secret,
    };
    return googleCall(() => refreshAccessToken(client, tokens.refreshToken!));
  },
};

export const linkConnectors = { youtube: youtubeLink, tiktok: tiktokLink, instagram: instagramLink } as const;
export type LinkPlatform = keyof typeof linkConnectors;
