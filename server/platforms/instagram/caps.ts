import { LRUCache } from 'lru-cache';
import type { Cap, CapAccount, PublishingLimit } from '../types';

/**
 * Instagram's posting cap ("IG User Content Publishing Limit"): `quota_total` posts per account
 * within a moving `quota_duration` (86,400 s), read from the platform through the connector.
 */
export function instagramCap(account: CapAccount, limit: PublishingLimit): Cap {
  return { limit: limit.limit, windowMs: limit.windowSeconds * 1000, scope: { accountId: account.id } };
}

/** Instagram's figure changes only when Meta changes it: reading it once per few minutes per account is enough. */
const instagramLimitTtlMs = 5 * 60 * 1000;
const instagramLimits = new LRUCache<string, PublishingLimit, () => Promise<PublishingLimit>>({
  // One entry per Instagram profile, a few numbers each: far more profiles than an installation has.
  max: 10_000,
  ttl: instagramLimitTtlMs,
  // A failed read answers the last figure known, however old.
  allowStaleOnFetchRejection: true,
  fetchMethod: (_key, _stale, { context: read }) => read(),
});

/** The Instagram account's cap, from the cache when fresh; null when the platform cannot tell. */
export async function instagramLimit(key: string, read: () => Promise<PublishingLimit>): Promise<PublishingLimit | null> {
  // Unknown for now: the post is tried, and the platform's own cap answer still holds it.
  return (await instagramLimits.fetch(key, { context: read }).catch(() => undefined)) ?? null;
}

/** Drops cached Instagram figures, for tests that change the sandbox's cap. */
export function forgetInstagramLimits() {
  instagramLimits.clear();
}
