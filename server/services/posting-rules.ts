import { inArray, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { InstagramPostOptions, PostOptions, TikTokCreatorRules, TikTokPostOptions, YouTubePostOptions } from '../../src/lib/contract';
import { t } from '../../src/lib/i18n';
import type { Database } from '../db/connect';
import { accounts, postingDefaults } from '../db/schema';
import { HttpError } from '../http-error';
import { hashtags } from '../platforms/client';
import { profileContext, type PlatformAccess } from '../platforms/profile-context';
import { tiktok } from '../platforms/tiktok/connector';
import { memoryProgressStore } from '../platforms/progress';
import { publishKey, type Platform } from '../platforms/types';

/**
 * The platforms' own rules for a post, checked before anything is queued so the operator reads
 * what to change on the form instead of finding a failed post later. Figures, with their pages:
 * - TikTok, "Content Posting API – Direct Post" (developers.tiktok.com/doc/content-posting-api-reference-direct-post):
 *   post_info.title up to 2200 characters; privacy_level required and one of creator_info's
 *   privacy_level_options; a video no longer than creator_info's max_video_post_duration_sec.
 *   "Content Sharing Guidelines" (developers.tiktok.com/doc/content-sharing-guidelines): the
 *   privacy level has no default, branded content cannot be SELF_ONLY, and an unaudited client
 *   posts SELF_ONLY only (creator_info then offers that alone).
 * - YouTube, videos.insert (developers.google.com/youtube/v3/docs/videos): snippet.title up to 100
 *   characters, snippet.description up to 5000; status.selfDeclaredMadeForKids is the channel's
 *   declaration. A Short is up to 3 minutes (YouTube's Shorts length since October 2024; the figure as
 *   docs.getlate.dev/resources/media-guidelines/youtube gives it: "≤ 3 minutes: YouTube Shorts").
 * - Instagram, IG User media (developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media):
 *   a caption up to 2200 characters and 30 hashtags; Reels from 3 seconds to 15 minutes (Meta's Reels
 *   specifications, as ayrshare.com/docs/media-guidelines/instagram repeats them: "minimum 3 seconds, maximum 15 minutes").
 */
export const limits = {
  tiktokCaption: 2200,
  instagramCaption: 2200,
  instagramHashtags: 30,
  instagramMinSeconds: 3,
  instagramMaxSeconds: 15 * 60,
  youtubeTitle: 100,
  youtubeDescription: 5000,
  youtubeShortsMaxSeconds: 3 * 60,
};

export type ResolvedOptions = TikTokPostOptions | YouTubePostOptions | InstagramPostOptions;

const withoutUndefined = <T extends object>(value: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(value ?? {}).filter(([, field]) => field !== undefined)) as Partial<T>;

/** Each profile's remembered choices, by account id. */
export async function savedDefaults(db: Database, accountIds: number[]): Promise<Map<number, PostOptions>> {
  const saved = new Map<number, PostOptions>(accountIds.map((id) => [id, {}]));
  if (accountIds.length === 0) return saved;
  const rows = await db.orm.select().from(postingDefaults).where(inArray(postingDefaults.accountId, accountIds));
  for (const row of rows) saved.get(row.accountId)![row.platform] = row.options as never;
  return saved;
}

/** Remembers a profile's choices, one row per platform given; a platform left out keeps what it had. */
export async function saveDefaults(db: Database, accountId: number, options: PostOptions) {
  for (const platform of ['tiktok', 'youtube', 'instagram'] as const) {
    const chosen = withoutUndefined(options[platform]);
    if (!options[platform]) continue;
    await db.orm
      .insert(postingDefaults)
      .values({ accountId, platform, options: chosen })
      .onConflictDoUpdate({
        target: [postingDefaults.accountId, postingDefaults.platform],
        set: { options: chosen, updatedAt: sql`now()` },
      });
  }
}

/**
 * A post's choices on one platform: what the publish sent, field by field over what the profile
 * remembers. A choice the platform requires and nobody made is refused; the rest take what posts
 * got before the form asked (public, People & Blogs, shared to the feed, every switch on).
 */
export function resolveOptions(platform: Platform, given: PostOptions | undefined, saved: PostOptions, profile: string): ResolvedOptions {
  if (platform === 'tiktok') {
    const choice = { ...withoutUndefined(saved.tiktok), ...withoutUndefined(given?.tiktok) };
    if (!choice.privacyLevel) throw new HttpError(400, t.postingRules.tiktokPrivacyRequired(profile));
    if (choice.brandContentToggle && choice.privacyLevel === 'SELF_ONLY') throw new HttpError(400, t.postingRules.brandedPrivate);
    return {
      disableComment: false,
      disableDuet: false,
      disableStitch: false,
      brandContentToggle: false,
      brandOrganicToggle: false,
      ...choice,
    };
  }
  if (platform === 'youtube') {
    const choice = { ...withoutUndefined(saved.youtube), ...withoutUndefined(given?.youtube) };
    if (choice.selfDeclaredMadeForKids === undefined) throw new HttpError(400, t.postingRules.youtubeKidsRequired(profile));
    return { privacyStatus: 'public', categoryId: '22', ...choice };
  }
  return { shareToFeed: true, ...withoutUndefined(saved.instagram), ...withoutUndefined(given?.instagram) };
}

const seconds = (value: number) => Math.round(value * 10) / 10;

/** The checks of one post that need no platform call: texts and the video's length. */
export function checkPost(
  platform: Platform,
  options: ResolvedOptions,
  video: { id: number; durationSeconds: number | null },
  texts: { title: string; description: string; tags: string[] },
  creator: TikTokCreatorRules | null,
  profile: string,
) {
  const duration = video.durationSeconds;
  const refuse = (message: string) => {
    throw new HttpError(400, message);
  };
  // The platform gets the publish key as the caption's last line (see captionWithMarker), so it takes its room.
  const caption = (limit: number, tags: string[]) => {
    const text = [texts.title, texts.description, hashtags(tags)].filter((part) => part.trim() !== '').join('\n\n');
    return { length: text.length, room: limit - publishKey(video.id, platform).length - 2 };
  };
  if (platform === 'tiktok') {
    const { length, room } = caption(limits.tiktokCaption, texts.tags);
    if (length > room) refuse(t.postingRules.captionTooLong(t.platform.names.tiktok, length, room));
    const level = (options as TikTokPostOptions).privacyLevel!;
    if (creator) {
      if (!creator.privacyLevelOptions.includes(level)) {
        refuse(t.postingRules.privacyNotOffered(profile, t.postingRules.privacyLevels[level] ?? level));
      }
      if (duration !== null && creator.maxVideoPostDurationSec > 0 && duration > creator.maxVideoPostDurationSec) {
        refuse(t.postingRules.tooLong(t.platform.names.tiktok, video.id, seconds(duration), creator.maxVideoPostDurationSec));
      }
    }
  } else if (platform === 'youtube') {
    if (texts.title.length > limits.youtubeTitle) refuse(t.postingRules.titleTooLong(texts.title.length, limits.youtubeTitle));
    if (texts.description.length > limits.youtubeDescription) {
      refuse(t.postingRules.descriptionTooLong(texts.description.length, limits.youtubeDescription));
    }
    if (duration !== null && duration > limits.youtubeShortsMaxSeconds) {
      refuse(t.postingRules.tooLong('YouTube Shorts', video.id, seconds(duration), limits.youtubeShortsMaxSeconds));
    }
  } else {
    const count = hashtags(texts.tags).split(' ').filter(Boolean).length;
    if (count > limits.instagramHashtags) refuse(t.postingRules.tooManyHashtags(count, limits.instagramHashtags));
    const { length, room } = caption(limits.instagramCaption, texts.tags);
    if (length > room) refuse(t.postingRules.captionTooLong(t.platform.names.instagram, length, room));
    if (duration !== null && duration > limits.instagramMaxSeconds) {
      refuse(t.postingRules.tooLong('Instagram Reels', video.id, seconds(duration), limits.instagramMaxSeconds));
    }
    if (duration !== null && duration < limits.instagramMinSeconds) {
      refuse(t.postingRules.tooShort('Instagram Reels', video.id, seconds(duration), limits.instagramMinSeconds));
    }
    const offset = (options as InstagramPostOptions).thumbOffset;
    if (offset !== undefined && duration !== null && offset > duration * 1000) refuse(t.postingRules.thumbOffsetBeyond(video.id));
  }
}

/** How long the creator_info call may take before the publish goes on without it. */
const creatorTimeoutMs = 15_000;

export type CreatorRulesReader = (
  account: typeof accounts.$inferSelect,
  settings: PlatformAccess,
  secretsKey: Buffer,
  /** Save takes an answer read in the last minutes; the form always reads afresh. */
  reuse: boolean,
) => Promise<{ rules: TikTokCreatorRules | null; error: string | null }>;

/**
 * How long a creator_info answer is reused: the publish form reads it when a profile is chosen and
 * Save checks the plan against it moments later, so Save does not wait on every profile's proxy
 * again. The publish job reads it afresh before video/init, so a stale answer refuses nothing.
 */
const creatorAnswerMs = 2 * 60_000;

/**
 * Reads what TikTok's creator_info allows a profile now, or why it could not be read, keeping
 * each answer per app (one reader per server) until the profile changes or the answer ages.
 * The publish job checks the same answer again before video/init, so a publish is not refused
 * for a slow answer.
 */
export function creatorRulesReader(db: Database): CreatorRulesReader {
  type Answer = { rules: TikTokCreatorRules | null; error: string | null };
  // One entry per TikTok profile, forgotten once it ages: far more profiles than an installation has.
  const answers = new LRUCache<number, { profileVersion: number; answer: Answer }>({ max: 10_000, ttl: creatorAnswerMs });
  return async (account, settings, secretsKey, reuse) => {
    const profileVersion = account.updatedAt.getTime();
    const kept = answers.get(account.id);
    if (reuse && kept && kept.profileVersion === profileVersion) return kept.answer;
    let answer: Answer;
    try {
      const ctx = await profileContext(account, 'tiktok', { db, secretsKey, settings, progress: memoryProgressStore() });
      answer = { rules: await tiktok.creatorRules({ ...ctx, signal: AbortSignal.timeout(creatorTimeoutMs) }), error: null };
    } catch (error) {
      answer = { rules: null, error: (error as Error).message };
    }
    // A failed read is kept too: Save then goes on without it at once rather than wait on a dead proxy again.
    answers.set(account.id, { profileVersion, answer });
    return answer;
  };
}
