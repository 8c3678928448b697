import { facebook } from '../../../src/lib/platforms/facebook';
import { facebookLimits } from '../../../src/lib/platforms/facebook';
import type { Cap, CapAccount } from '../types';

/**
 * Reels Publishing API, "Rate Limit" (developers.facebook.com/docs/video-api/guides/reels-publishing):
 * "30 API-published posts within a 24-hour moving period", enforced on POST /{page_id}/video_reels.
 * Meta publishes no call that reads the figure, so it is the rules' (src/lib/platforms/facebook.ts),
 * which the publish form shows.
 */
export const facebookReelsPerWindow = facebookLimits.dailyReels;

/** A Page's cap: a profile links one Page, so the profile's own Reels are the ones that count. */
export function facebookCap(account: CapAccount): Cap {
  return { limit: facebookReelsPerWindow, windowMs: facebook.cap.windowHours * 3_600_000, scope: { accountId: account.id } };
}
