import type { InstagramPostOptions } from '../contract';
import { captionRoom, captionText, hashtags } from './caption';
import { tenths, type PostedVideo, type Refusal } from './refusal';

/**
 * Instagram's rules for a Reel, from IG User media
 * (developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media): a
 * caption up to 2200 characters and 30 hashtags; share_to_feed shows the Reel in the feed as well as
 * in the Reels tab; thumb_offset is the cover frame's place in milliseconds. Reels run from 3
 * seconds to 15 minutes (Meta's Reels specifications, as ayrshare.com/docs/media-guidelines/instagram
 * repeats them: "minimum 3 seconds, maximum 15 minutes").
 */
export const instagramLimits = { caption: 2200, hashtags: 30, minSeconds: 3, maxSeconds: 15 * 60 };

/** What a post gets for a choice nobody made: shared to the feed, as every Reel was before the form asked. */
export const instagramDefaults = { shareToFeed: true } as const satisfies InstagramPostOptions;

/** The caption, the hashtags, the length and the cover frame against Instagram's rules. */
export function instagramPostRefusal(
  options: InstagramPostOptions,
  texts: { title: string; description: string; tags: string[] },
  video: PostedVideo & { publishKey: string },
): Refusal | null {
  const duration = video.durationSeconds;
  const tags = hashtags(texts.tags);
  const count = tags.split(' ').filter(Boolean).length;
  if (count > instagramLimits.hashtags) return { code: 'tooManyHashtags', count, limit: instagramLimits.hashtags };
  const length = captionText([texts.title, texts.description, tags]).length;
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
