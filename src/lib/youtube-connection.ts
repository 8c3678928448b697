/** How the OAuth callback tells the SPA, in the query of the page it lands on, how a YouTube connection ended. */
export const youtubeConnectionParams = {
  /** The Ukrainian reason the connection failed. */
  error: 'youtubeError',
  /** Present, with the value `connected`, when it succeeded. */
  connected: 'youtube',
} as const;

/** The same for every platform connected through its consent page. */
export const connectionParams = {
  youtube: youtubeConnectionParams,
  tiktok: { error: 'tiktokError', connected: 'tiktok' },
  instagram: { error: 'instagramError', connected: 'instagram' },
} as const;
