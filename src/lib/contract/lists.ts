/** The contract's lists the SPA reads as values: kept apart from the schemas, so no schema code reaches the browser. */

/** The form fields whose values are secrets: written by the form, never sent back. */
export const secretFields = [
  'YouTubeAuthClientSecret',
  'YouTubePassword',
  'InstagramPassword',
  'InstagramAccessToken',
  'TikTiokAuthStr',
] as const;
export type SecretField = (typeof secretFields)[number];

/** The periods a statistics chart covers, in days. */
export const statsPeriods = [1, 7, 30, 90] as const;
export type StatsPeriod = (typeof statsPeriods)[number];

/** Why a pending post has not gone out yet (video_posts.wait_kind): src/lib/post-waits.ts words each one. */
export const waitKinds = ['retry', 'busy', 'quota', 'cap', 'reconnect'] as const;
export type WaitKind = (typeof waitKinds)[number];
