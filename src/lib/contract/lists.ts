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

/**
 * What a post (one video on one platform) is doing, the one vocabulary of every answer and screen
 * (src/lib/post-states.ts reads it from the post's row): planned and not started, being uploaded
 * (retries included), out, held back (a cap, a quota, a reconnection), failed, or cancelled by the
 * operator before it started.
 */
export const postStates = ['scheduled', 'uploading', 'published', 'held', 'failed', 'cancelled'] as const;
export type PostState = (typeof postStates)[number];

/**
 * The one state of a profile's connection to a platform (issue 39.5, connection_states): 'connected',
 * 'attention' (it may work: a token that did not renew, a platform that did not answer) or 'down'
 * (nothing goes out until something changes). Worded by the catalog (t.health.states).
 */
export const connectionStates = ['connected', 'attention', 'down'] as const;
export type ConnectionState = (typeof connectionStates)[number];

/**
 * Why a connection is not 'connected', worded by the catalog (t.health.kinds). The proxy's and the
 * credentials' are 'down'; the last two 'attention'.
 */
export const connectionKinds = [
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
export type ConnectionKind = (typeof connectionKinds)[number];

/**
 * Which path learnt a connection's state: a publish, an edit of a published post or of a channel,
 * a statistics sync, a health check, a consent, a save that checked the credentials again, the
 * token refresher.
 */
export const connectionSources = ['publish', 'edit', 'stats', 'health', 'consent', 'reconnect', 'refresh'] as const;
export type ConnectionSource = (typeof connectionSources)[number];
/** What a personal API token may do (issue 32.4): read (GET and HEAD only), publish (what an operator does), admin (everything, admins only). */
export const apiTokenScopes = ['read', 'publish', 'admin'] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];

/** What a user can be told of (issue 32.3): a post failed, was held by a cap or went out; a profile turned unhealthy; a grant was revoked. */
export const alertEvents = ['post.failed', 'post.held', 'post.published', 'profile.unhealthy', 'grant.revoked'] as const;
export type AlertEvent = (typeof alertEvents)[number];

/** The events Telegram offers (a published post is for scripts: webhooks only). */
export const telegramEvents = ['post.failed', 'post.held', 'grant.revoked', 'profile.unhealthy'] as const;
export type TelegramEvent = (typeof telegramEvents)[number];

/** What a new webhook is told unless the operator says otherwise: everything that went wrong (issue 40.9), as Telegram. */
export const defaultWebhookEvents: AlertEvent[] = alertEvents.filter((event) => event !== 'post.published');

/** A webhook delivery: waiting for its next attempt, delivered (a 2xx), or failed after its last attempt. */
export const deliveryStates = ['pending', 'delivered', 'failed'] as const;

/** Why an attempt got no 2xx: another answer, none in time, no connection, or an address the outbound policy refuses. */
export const deliveryErrors = ['status', 'timeout', 'network', 'address'] as const;
