import type { accounts } from '../db/schema';
import { joinProxy, SecretUnreadableError, secretsOfRow } from '../auth/secrets';
import { platformEndpoints } from './endpoints';
import { PermanentPlatformError } from './errors';
import type { ConnectorContext, Platform, PlatformsMode, PostingCapSettings, PublishProgressStore } from './types';
import type { Database } from '../db/connect';
import type { Clock } from '../clock';
import { connectionSecrets, freshAccessToken, loadConnection, type ConnectionMethod, type StoredConnection } from './connections';
import type { PlatformApps } from './oauth-links';
import { serverPlatforms } from './registry';
import type { PlatformNetwork } from '../net/http';

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
  /** The way out to the platforms, made once from PLATFORM_*_TIMEOUT_SECONDS and the proxy policy. */
  network: PlatformNetwork;
  /** What token ends and the pauses between a platform's status checks go by. */
  clock: Clock;
}

export interface PlatformSettings extends PlatformAccess {
  statsIntervalMinutes: number;
  /** The posting caps the engine plans with (TIKTOK_DAILY_POSTS, YOUTUBE_DAILY_UPLOADS). */
  postingCaps: PostingCapSettings;
  /** TELEGRAM_BOT_TOKEN: the bot alerts go through; in sandbox mode the sandbox's own when absent (alerts/telegram-bot.ts). */
  telegramBotToken?: string;
}

/** The columns a platform call and its quota read: a profile being saved is checked before its row exists. */
export type ProfileCredentials = Pick<
  typeof accounts.$inferSelect,
  'id' | 'proxy' | 'proxyPassword' | 'inYouTube' | 'youtubeClientId' | 'instagramLogin' | 'instagramUserId'
>;

/**
 * The typed credential a platform call uses where the profile has no consent link (TikTok's pasted
 * string; Instagram's login against the sandbox, a pasted token live), or null where the consent
 * link alone reaches the platform (YouTube).
 */
export function typedMethod(platform: Platform, mode: PlatformsMode): Exclude<ConnectionMethod, 'oauth'> | null {
  return serverPlatforms[platform].credentials.typed?.method(mode) ?? null;
}

export interface ProfileContextOptions {
  /** Where the profile's connections are kept; a profile being checked before its first save has none. */
  db?: Database;
  /** The typed credentials a save is about to store, checked before they are; else the stored ones. */
  typed?: StoredConnection[];
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
  { db, typed, secretsKey, settings, progress }: ProfileContextOptions,
): Promise<ConnectorContext<any>> {
  const endpoints = platformEndpoints(settings.mode, settings.sandboxOrigin);
  const unreadable = <T>(open: () => T): T => {
    try {
      return open();
    } catch (error) {
      if (error instanceof SecretUnreadableError) throw new PermanentPlatformError(platform, 'secrets_unreadable', '');
      throw error;
    }
  };
  const notConnected = () => new PermanentPlatformError(platform, 'not_connected', '');
  const proxyPassword = unreadable(() => secretsOfRow(secretsKey, 'accounts', account.id).open('proxy_password', account.proxyPassword));
  const proxy = joinProxy(account.proxy, proxyPassword);
  const base = { proxy, network: settings.network, endpoints, progress, pollIntervalMs: settings.pollIntervalMs, clock: settings.clock };

  const { credentials } = serverPlatforms[platform];
  const linked = db ? await loadConnection(db, account.id, platform, 'oauth') : undefined;
  if (credentials.linkUsable && !credentials.linkUsable(account)) throw notConnected();
  if (db && linked) {
    const link = {
      mode: settings.mode,
      platformsOrigin: settings.sandboxOrigin,
      apps: settings.apps,
      network: settings.network,
      clock: settings.clock,
    };
    const fresh = (stale?: string) => freshAccessToken(db, secretsKey, link, proxy, account.id, linked.platform, { stale });
    let accessToken = await fresh();
    // Called after the platform refused the token: renews it unless another run already has.
    const renewRejectedToken = async () => (accessToken = await fresh(accessToken));
    return credentials.linked(base, { accessToken, renewRejectedToken }, linked, settings);
  }

  if (!credentials.typed) throw notConnected();
  const method = credentials.typed.method(settings.mode);
  const connection = typed
    ? typed.find((candidate) => candidate.platform === platform && candidate.method === method)
    : db && (await loadConnection(db, account.id, platform, method));
  const secret = connection
    ? unreadable(() => connectionSecrets(secretsKey, account.id, platform, method).open('access_token', connection.accessToken))
    : null;
  return credentials.typed.context(base, method, connection || undefined, secret);
}
