import type { YouTubePostOptions } from '../contract';
import { tenths, type PostedVideo, type Refusal } from './refusal';

/**
 * YouTube's rules for a post, from videos.insert (developers.google.com/youtube/v3/docs/videos):
 * snippet.title up to 100 characters, snippet.description up to 5000 bytes, snippet.tags up to 500
 * characters in all; status.privacyStatus "public", "unlisted" or "private";
 * status.selfDeclaredMadeForKids is the channel's own declaration, made by the operator, never by
 * the product. A Short is up to 3 minutes (YouTube's Shorts length since October 2024; the figure
 * as docs.getlate.dev/resources/media-guidelines/youtube gives it: "≤ 3 minutes: YouTube Shorts").
 */
export const youtubeLimits = { title: 100, description: 5000, tagsCharacters: 500, shortsSeconds: 3 * 60 };

export const youtubePrivacyStatuses = ['public', 'unlisted', 'private'] as const;

/** What a post gets for a choice nobody made: public, in People & Blogs (22), as every post did before the form asked. */
export const youtubeDefaults = { privacyStatus: 'public', categoryId: '22' } as const satisfies YouTubePostOptions;

export function youtubeChoiceRefusal(choice: YouTubePostOptions): Refusal | null {
  return choice.selfDeclaredMadeForKids === undefined ? { code: 'youtubeKidsRequired' } : null;
}

/** The texts and the length against videos.insert's limits and a Short's length. */
export function youtubePostRefusal(texts: { title: string; description: string }, video: PostedVideo): Refusal | null {
  const duration = video.durationSeconds;
  if (texts.title.length > youtubeLimits.title) return { code: 'titleTooLong', length: texts.title.length, limit: youtubeLimits.title };
  if (texts.description.length > youtubeLimits.description) {
    return { code: 'descriptionTooLong', length: texts.description.length, limit: youtubeLimits.description };
  }
  if (duration !== null && duration > youtubeLimits.shortsSeconds) {
    return {
      code: 'tooLong',
      format: 'YouTube Shorts',
      video: video.number,
      seconds: tenths(duration),
      limit: youtubeLimits.shortsSeconds,
    };
  }
  return null;
}
