import type { Cap, CapAccount, PostingCapSettings } from '../types';

const day = 24 * 60 * 60 * 1000;

/**
 * TikTok's posting cap ("Content Posting API – Direct Post"): a daily post cap per creator
 * (`spam_risk_too_many_posts`), counted over a moving 24 hours, TIKTOK_DAILY_POSTS.
 */
export function tiktokCap(account: CapAccount, settings: PostingCapSettings): Cap {
  return { limit: settings.tiktokDailyPosts, windowMs: day, scope: { accountId: account.id } };
}
