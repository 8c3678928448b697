import type { Platform } from '../../src/lib/platforms';
import { facebookPlatform } from './facebook';
import { instagramPlatform } from './instagram';
import type { LinkConnector } from './oauth-links';
import { tiktokPlatform } from './tiktok';
import type { Connector, ServerPlatform } from './types';
import { youtubePlatform } from './youtube';

/**
 * Each platform's server side, kept in its own folder (server/platforms/<platform>/index.ts): the
 * connector that publishes and reads statistics, the OAuth connector that links a profile, its
 * credentials, cheap read, caps and read quota. Its shared facts are its descriptor
 * (src/lib/platforms/<platform>.ts); the rest of the server finds a platform's pieces here, by its id.
 */
export const serverPlatforms: { [Id in Platform]: ServerPlatform } = {
  youtube: youtubePlatform,
  tiktok: tiktokPlatform,
  instagram: instagramPlatform,
  facebook: facebookPlatform,
};

export const connectors = Object.fromEntries(
  Object.entries(serverPlatforms).map(([platform, { connector }]) => [platform, connector]),
) as Record<Platform, Connector<any>>;

export const linkConnectors = Object.fromEntries(Object.entries(serverPlatforms).map(([platform, { link }]) => [platform, link])) as Record<
  Platform,
  LinkConnector
>;
