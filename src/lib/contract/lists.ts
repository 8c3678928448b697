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

/** A profile's health on a platform (issue 32.1): 'працює', 'увага', 'не працює'. */
export const healthStates = ['ok', 'warning', 'down'] as const;
export type HealthState = (typeof healthStates)[number];

/**
 * Why a profile's platform is not 'ok' (profile_health.reason), worded by the catalog
 * (t.health.reasons). The proxy's and the credentials' are 'down'; the last two 'warning'.
 */
export const healthReasons = [
  'proxy_unreachable',
  'proxy_failed',
  'proxy_auth',
  'proxy_refused',
  'not_connected',
  'revoked',
  'refused',
  'token_expired',
  'platform_unavailable',
] as const;
export type HealthReason = (typeof healthReasons)[number];
