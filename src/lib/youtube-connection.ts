import { platformIds, type Platform } from './platforms';

/** How the OAuth callback tells the SPA, in the query of the page it lands on, how a platform's connection ended. */
interface ConnectionParams {
  /** The Ukrainian reason the connection failed: `youtubeError`, `tiktokError`… */
  error: string;
  /** Present, with the value `connected`, when it succeeded: `youtube`, `tiktok`… */
  connected: string;
}

/** The same for every platform, YouTube's own OAuth client's and the consent pages'. */
export const connectionParams = Object.fromEntries(
  platformIds.map((platform) => [platform, { error: `${platform}Error`, connected: platform }]),
) as Record<Platform, ConnectionParams>;

export const youtubeConnectionParams = connectionParams.youtube;
