import { instagram } from './instagram/connector';
import { instagramLink } from './instagram/oauth';
import { tiktok } from './tiktok/connector';
import { tiktokLink } from './tiktok/oauth';
import type { LinkConnector } from './oauth-links';
import type { Connector, Platform } from './types';
import { youtube } from './youtube/connector';
import { youtubeLink } from './youtube/oauth';

/**
 * Each platform's pieces, kept in its own folder (server/platforms/<platform>/): the connector that
 * publishes and reads statistics, and the OAuth connector that links a profile. The rest of the
 * server finds a platform's pieces here, by its name.
 */
export const connectors: Record<Platform, Connector<any>> = { youtube, tiktok, instagram };

export const linkConnectors: Record<Platform, LinkConnector> = { youtube: youtubeLink, tiktok: tiktokLink, instagram: instagramLink };
