import { t } from '../../src/lib/i18n';
import type { accounts } from '../db/schema';
import { joinProxy, SecretUnreadableError, secretsOfRow } from '../auth/secrets';
import { platformEndpoints } from './endpoints';
import { PermanentPlatformError } from './errors';
import { instagram, sandboxInstagramLogin } from './instagram';
import { tiktok } from './tiktok';
import type { Connector, ConnectorContext, Platform, PlatformsMode, PublishProgressStore } from './types';
import { youtube } from './youtube';
import type { Database } from '../db/connect';
import type { PlatformApps } from '../config';
import { freshAccessToken, loadConnection } from './connections';
import { oauthHost } from './oauth-links';

export const connectors: Record<Platform, Connector<any>> = { youtube, tiktok, instagram };

/** What every platform call of the workers and the API needs to know about the environment. */
export interface PlatformAccess {
  mode: PlatformsMode;
  /** Where this server's sandbox answers (PLATFORMS=sandbox), as config.sandboxOrigin. */
  sandboxOrigin: string;
  /** Pause between processing-status checks; the connectors' own default when absent. */
  pollIntervalMs?: number;
  /** The installation's TikTok and Instagram apps (config.platformApps); the mode's defaults when absent. */
  apps?: PlatformApps;
  /** SANDBOX_TOKEN_TTL_SECONDS, for telling how long a pasted TikTok string works in the sandbox. */
  sandboxTokenTtlSeconds?: number;
}

export interface PlatformSettings extends PlatformAccess {
  statsIntervalMinutes: number;
}

/** The columns a platform call reads: a profile being saved is checked before its row exists. */
export type ProfileCredentials = Pick<
  typeof accounts.$inferSelect,
  | 'id'
  | 'proxy'
  | 'proxyPassword'
  | 'inYouTube'
  | 'youtubeClientId'
  | 'tiktokAuthStr'
  | 'instagramLogin'
  | 'instagramPassword'
  | 'instagramAccessToken'
  | 'instagramUserId'
>;

export interface ProfileContextOptions {
  /** Where the profile's connections are kept; a profile being checked before its first save has none. */
  db?: Database;
  secretsKey: Buffer;
  settings: PlatformAccess;
  progress: PublishProgressStore;
}

/**
 * The connector context of one profile on one platform: its proxy, fresh credentials and the
 * endpoints of the current mode. Throws a PlatformError when the profile cannot reach the
 * platform at all, so callers treat it like any failure of the platform itself.
 */
export async function profileContext(
  account: ProfileCredentials,
  platform: Platform,
  { db, secretsKey, settings, progress }: ProfileContextOptions,
): Promise<ConnectorContext<any>> {
  const endpoints = platformEndpoints(settings.mode, settings.sandboxOrigin);
  const secrets = secretsOfRow(secretsKey, 'accounts', account.id);
  const open = (column: string, stored: string | null) => {
    try {
      return secrets.open(column, stored);
    } catch (error) {
      if (error instanceof SecretUnreadableError) throw new PermanentPlatformError(platform, t.accountForm.secretsUnreadable, '');
      throw error;
    }
  };
  const notConnected = () => new PermanentPlatformError(platform, t.platform.notConnected, '');
  const proxy = joinProxy(account.proxy, open('proxy_password', account.proxyPassword));
  const base = { proxy, endpoints, progress, pollIntervalMs: settings.pollIntervalMs };

  const linked = db ? await loadConnection(db, account.id, platform) : undefined;
  if (platform === 'youtube' && (!account.inYouTube || linked?.method !== 'oauth')) throw notConnected();
  if (db && linked?.method === 'oauth') {
    const link = { mode: settings.mode, platformsOrigin: settings.sandboxOrigin, apps: settings.apps };
    const fresh = (stale?: string) => freshAccessToken(db, secretsKey, link, proxy, account.id, linked.platform, { stale });
    let accessToken = await fresh();
    // Called after the platform refused the token: renews it unless another run already has.
    const refreshAccessToken = async () => (accessToken = await fresh(accessToken));
    if (platform !== 'instagram') return { ...base, credentials: { accessToken, refreshAccessToken } };
    // A token of Instagram Login is for graph.instagram.com, which serves the same content publishing calls.
    const instagramEndpoints = {
      ...endpoints,
      'graph.facebook.com': oauthHost(settings.mode, settings.sandboxOrigin, 'graph.instagram.com'),
    };
    return { ...base, endpoints: instagramEndpoints, credentials: { accessToken, refreshAccessToken, igUserId: linked.remoteId! } };
  }

  // SPEC's typed credentials (the pasted TikTok string, Instagram's login and password or token)
  // are still read from the profile's own columns, which the form, the list's status and the
  // save-time check also read; moving them into account_connections is issue 22.5's remaining step.
  if (platform === 'tiktok') {
    const accessToken = open('tiktok_auth_str', account.tiktokAuthStr);
    if (!accessToken) throw notConnected();
    return { ...base, credentials: { accessToken } };
  }

  if (settings.mode === 'sandbox') {
    const password = open('instagram_password', account.instagramPassword);
    if (!account.instagramLogin || !password) throw notConnected();
    return { ...base, credentials: await sandboxInstagramLogin(proxy, endpoints, account.instagramLogin, password) };
  }
  const accessToken = open('instagram_access_token', account.instagramAccessToken);
  if (!accessToken || !account.instagramUserId) {
    throw new PermanentPlatformError('instagram', t.platform.instagramTokenMissing, '');
  }
  return { ...base, credentials: { accessToken, igUserId: account.instagramUserId } };
}
