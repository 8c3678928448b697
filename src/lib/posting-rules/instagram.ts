import type { InstagramPostOptions } from '../contract';
import { captionRoom, captionText, hashtagCount, hashtags } from './caption';
import { tenths, type PostedVideo, type Refusal } from './refusal';

/**
 * Instagram's rules for a Reel, from IG User media
 * (developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media):
 * the caption "Maximum 2200 characters, 30 hashtags, and 20 @ tags", the hashtags counted over the
 * whole caption, the title's and description's own as well as the tags'; share_to_feed shows the
 * Reel in the feed as well as in the Reels tab; thumb_offset is the cover frame's place in
 * milliseconds. Reels run from 3 seconds to 15 minutes (Meta's Reels specifications, as
 * ayrshare.com/docs/media-guidelines/instagram repeats them: "minimum 3 seconds, maximum 15 minutes").
 */
export const instagramLimits = { caption: 2200, hashtags: 30, minSeconds: 3, maxSeconds: 15 * 60 };

/** What a post gets for a choice nobody made: shared to the feed, as every Reel was before the form asked. */
export const instagramDefaults = { shareToFeed: true } as const satisfies InstagramPostOptions;

/** The caption's text before the publish key, as the connector builds it: title, description, the tags as hashtags. */
export function instagramCaption(texts: { title: string; description: string; tags: string[] }): string {
  return captionText([texts.title, texts.description, hashtags(texts.tags)]);
}

/** The hashtags of the whole caption against Instagram's 30: what the form's texts alone decide. */
export function instagramTextRefusal(texts: { title: string; description: string; tags: string[] }): Refusal | null {
  const count = hashtagCount(instagramCaption(texts));
  return count > instagramLimits.hashtags ? { code: 'tooManyHashtags', count, limit: instagramLimits.hashtags } : null;
}

/** The caption, the hashtags, the length and the cover frame against Instagram's rules. */
export function instagramPostRefusal(
  options: InstagramPostOptions,
  texts: { title: string; description: string; tags: string[] },
  video: PostedVideo & { publishKey: string },
): Refusal | null {
  const duration = video.durationSeconds;
  const refusal = instagramTextRefusal(texts);
  if (refusal) return refusal;
  const length = instagramCaption(texts).length;
  const room = captionRoom(instagramLimits.caption, video.publishKey);
  if (length > room) return { code: 'captionTooLong', platform: 'instagram', length, room };
  if (duration !== null && duration > instagramLimits.maxSeconds) {
    return {
      code: 'tooLong',
      format: 'Instagram Reels',
      video: video.number,
      seconds: tenths(duration),
      limit: instagramLimits.maxSeconds,
    };
  }
  if (duration !== null && duration < instagramLimits.minSeconds) {
    return {
      code: 'tooShort',
      format: 'Instagram Reels',
      video: video.number,
      seconds: tenths(duration),
      limit: instagramLimits.minSeconds,
    };
  }
  if (options.thumbOffset !== undefined && duration !== null && options.thumbOffset > duration * 1000) {
    return { code: 'thumbOffsetBeyond', video: video.number };
  }
  return null;
}
