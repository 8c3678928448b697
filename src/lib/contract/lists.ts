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

/** What a personal API token may do (issue 32.4): read (GET and HEAD only), publish (what an operator does), admin (everything, admins only). */
export const apiTokenScopes = ['read', 'publish', 'admin'] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];
