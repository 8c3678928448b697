/**
 * The platforms' daily caps and rate limits, with their documented defaults; each can be set
 * lower (or higher) for tests through SandboxOptions / the SANDBOX_*_DAILY_* settings.
 */
export interface SandboxLimits {
  /**
   * TikTok, "Content Posting API – Direct Post" (video/init errors): `spam_risk_too_many_posts`,
   * "the daily post cap from the API is reached for the current user"; the docs put the cap at
   * about 15 posts a day per creator account. Counted over a moving 24 hours.
   */
  tiktokDailyPosts: number;
  /** TikTok, "Direct Post" → video/init: "Each user access_token is limited to 6 requests per minute." */
  tiktokInitsPerMinute: number;
  /**
   * Instagram, "Content Publishing" and "IG User Content Publishing Limit": 100 API-published posts
   * within a moving 24 hours (`config.quota_duration` 86400).
   */
  instagramDailyPosts: number;
  /**
   * Facebook, "Reels Publishing API" (Rate Limit): 30 API-published Reels within a 24-hour moving
   * period, per Page, "enforced on the POST /{page_id}/video_reels endpoint".
   */
  facebookDailyReels: number;
  /**
   * YouTube Data API, "Quota Calculator": `videos.insert` has its own bucket of 100 calls a day per
   * project; every other method draws on 10,000 units a day (list calls 1 unit, update calls 50).
   * Daily quotas reset at midnight Pacific Time. Each profile brings its own OAuth client (its own
   * project), so the sandbox counts per channel.
   */
  youtubeDailyUploads: number;
  youtubeDailyUnits: number;
}

export const defaultLimits: SandboxLimits = {
  tiktokDailyPosts: 15,
  tiktokInitsPerMinute: 6,
  instagramDailyPosts: 100,
  facebookDailyReels: 30,
  youtubeDailyUploads: 100,
  youtubeDailyUnits: 10_000,
};

const minute = 60_000;
const day = 24 * 60 * minute;

// Made once: a formatter costs far more to build than to use, and every call to the platform asks for the day.
const pacificDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' });

/** The calendar day in Pacific Time, where YouTube's daily quotas turn over. */
export function pacificDay(at: number): string {
  return pacificDate.format(at);
}

/** Counters behind the caps: moving windows of timestamps, and per-Pacific-day sums. */
export class SandboxCaps {
  readonly limits: SandboxLimits;
  private readonly moments = new Map<string, number[]>();
  private readonly daily = new Map<string, number>();

  constructor(
    limits: Partial<SandboxLimits>,
    private readonly now: () => number,
  ) {
    this.limits = { ...defaultLimits, ...limits };
  }

  /** How many were counted under `key` within the last `windowMs`. */
  usage(key: string, windowMs: number): number {
    const since = this.now() - windowMs;
    const kept = (this.moments.get(key) ?? []).filter((at) => at > since);
    this.moments.set(key, kept);
    return kept.length;
  }

  /** Counts one more under `key` unless `limit` were already counted within the window. */
  takeWithin(key: string, limit: number, windowMs: number): boolean {
    if (this.usage(key, windowMs) >= limit) return false;
    this.moments.get(key)!.push(this.now());
    return true;
  }

  /** Adds `cost` to today's (Pacific) sum under `key` unless that would pass `limit`. */
  takeToday(key: string, cost: number, limit: number): boolean {
    const dayKey = `${key}@${pacificDay(this.now())}`;
    const used = this.daily.get(dayKey) ?? 0;
    if (used + cost > limit) return false;
    this.daily.set(dayKey, used + cost);
    return true;
  }

  tiktokInit(token: string) {
    return this.takeWithin(`tiktok-init:${token}`, this.limits.tiktokInitsPerMinute, minute);
  }

  tiktokPost(account: string) {
    return this.takeWithin(`tiktok-post:${account}`, this.limits.tiktokDailyPosts, day);
  }

  instagramUsage(account: string) {
    return this.usage(`instagram-post:${account}`, day);
  }

  instagramPost(account: string) {
    return this.takeWithin(`instagram-post:${account}`, this.limits.instagramDailyPosts, day);
  }

  facebookReelsUsage(pageId: string) {
    return this.usage(`facebook-reel:${pageId}`, day);
  }

  facebookReel(pageId: string) {
    return this.takeWithin(`facebook-reel:${pageId}`, this.limits.facebookDailyReels, day);
  }

  youtubeUpload(account: string) {
    return this.takeToday(`youtube-insert:${account}`, 1, this.limits.youtubeDailyUploads);
  }

  youtubeUnits(account: string, cost: number) {
    return this.takeToday(`youtube-units:${account}`, cost, this.limits.youtubeDailyUnits);
  }

  /** Units the account's project spent today (Pacific), for tests that compare it with the app's own count. */
  youtubeUnitsSpent(account: string) {
    return this.daily.get(`youtube-units:${account}@${pacificDay(this.now())}`) ?? 0;
  }
}

export const instagramQuotaDurationSeconds = day / 1000;
