import { consentPlatformIds, platformOf, type ConsentPlatform } from '../../src/lib/platforms';
import type { PlatformNetwork } from '../net/http';
import type { Platform, PlatformsMode } from './types';

/**
 * Connecting a profile through the platforms' own consent pages: the link to the consent page, the
 * code's exchange for tokens, and the refresh. One connector per platform (its folder's oauth.ts),
 * the same shape for each, found through the registry; the rest of the tree (routes, refresher,
 * publisher) reads only this shape.
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
export type PlatformApps = Record<ConsentPlatform, OAuthApp | null>;

/** The variables that name the installation's app on each platform a profile connects through its consent page. */
export const installationAppVariables = Object.fromEntries(
  consentPlatformIds.map((platform) => [platform, platformOf(platform).appVariables]),
) as Record<ConsentPlatform, readonly [string, string]>;

/**
 * The apps of an installation that sets none. The sandbox's token endpoints accept any pair, so
 * sandbox mode has built-in ones; live mode has none until the variables are set.
 */
export function builtInApps(mode: PlatformsMode): PlatformApps {
  return Object.fromEntries(
    consentPlatformIds.map((platform) => [
      platform,
      mode === 'sandbox' ? { id: `sandbox-${platform}`, secret: `sandbox-${platform}-secret` } : null,
    ]),
  ) as PlatformApps;
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
    /** The operator's words for a refusal this product decides (the catalog's), said instead of the platform's code. */
    readonly words?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
  }
}

/** Where a host's OAuth pages are: the platform, or this server's sandbox mirror of it under `{base}/sandbox/<host>`. */
export function oauthHost(mode: PlatformsMode, base: string, host: string): string {
  return mode === 'live' ? `https://${host}` : `${base.replace(/\/$/, '')}/sandbox/${host}`;
}

/** Where the platform sends the browser back after its consent page; registered with the platform's app in live mode. */
export function linkRedirectUri(publicUrl: string, platform: Platform): string {
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
  /** `codeChallenge`: the flow's PKCE S256 challenge (oauth-state.ts), sent where the platform takes one. */
  consentUrl(endpoints: LinkEndpoints, app: OAuthApp, redirectUri: string, state: string, codeChallenge: string): string;
  /** `codeVerifier`: the flow's PKCE verifier, null for a flow started before PKCE (its link carried no challenge). */
  exchange(
    endpoints: LinkEndpoints,
    proxy: string,
    app: OAuthApp,
    code: string,
    redirectUri: string,
    codeVerifier: string | null,
  ): Promise<GrantedTokens>;
  /** The token endpoint's renewal of a stored grant (the refresher's, and a token found ending before a call). */
  renewGrant(
    endpoints: LinkEndpoints,
    proxy: string,
    app: OAuthApp,
    tokens: { accessToken: string; refreshToken: string | null; remoteId: string },
  ): Promise<GrantedTokens>;
}

export async function readJson(response: { json(): Promise<unknown> }): Promise<Record<string, any>> {
  return (await response.json().catch(() => ({}))) as Record<string, any>;
}

export const form = (values: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
  body: new URLSearchParams(values).toString(),
});
