import type { YouTubePostOptions } from '../contract';
import { tenths, type PostedVideo, type Refusal } from './refusal';

/**
 * YouTube's rules for a post, from the videos resource (developers.google.com/youtube/v3/docs/videos):
 * snippet.title "has a maximum length of 100 characters and may contain all valid UTF-8 characters
 * except < and >", snippet.description likewise with "5000 bytes", snippet.tags up to 500
 * characters in all; status.privacyStatus "public", "unlisted" or "private";
 * status.selfDeclaredMadeForKids is the channel's own declaration, made by the operator, never by
 * the product. videos.insert answers the rest with invalidTitle, invalidDescription and
 * invalidCategoryId. A Short is up to 3 minutes (YouTube's Shorts length since October 2024; the
 * figure as docs.getlate.dev/resources/media-guidelines/youtube gives it: "≤ 3 minutes: YouTube Shorts").
 */
export const youtubeLimits = { title: 100, description: 5000, tagsCharacters: 500, shortsSeconds: 3 * 60 };

export const youtubePrivacyStatuses = ['public', 'unlisted', 'private'] as const;

/**
 * The categories a video can be given: those videoCategories.list
 * (developers.google.com/youtube/v3/docs/videoCategories/list, `regionCode`) answers with
 * snippet.assignable true. The list is the same in every region it was read for (CA, DE, FR, GB,
 * IN, JP, KR, MX, RU, US); the US alone adds 29 (Nonprofits & Activism), which a channel elsewhere
 * cannot take, so it is not offered.
 */
export const youtubeCategories = ['1', '2', '10', '15', '17', '19', '20', '22', '23', '24', '25', '26', '27', '28'] as const;

/** What a post gets for a choice nobody made: public, in People & Blogs (22), as every post did before the form asked. */
export const youtubeDefaults = { privacyStatus: 'public', categoryId: '22' } as const satisfies YouTubePostOptions;

/** The choices as made, the profile's remembered ones included: the kids' declaration made, the category one YouTube takes. */
export function youtubeChoiceRefusal(choice: YouTubePostOptions): Refusal | null {
  if (choice.selfDeclaredMadeForKids === undefined) return { code: 'youtubeKidsRequired' };
  const categoryId = choice.categoryId;
  if (categoryId !== undefined && !(youtubeCategories as readonly string[]).includes(categoryId)) {
    return { code: 'categoryNotAssignable', categoryId };
  }
  return null;
}

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/** The title and the description against videos.insert's limits and characters: what the form's texts alone decide. */
export function youtubeTextRefusal(texts: { title: string; description: string }): Refusal | null {
  if (texts.title.length > youtubeLimits.title) return { code: 'titleTooLong', length: texts.title.length, limit: youtubeLimits.title };
  if (/[<>]/.test(texts.title)) return { code: 'angleBrackets', field: 'title' };
  const bytes = utf8Bytes(texts.description);
  if (bytes > youtubeLimits.description) return { code: 'descriptionTooLong', bytes, limit: youtubeLimits.description };
  if (/[<>]/.test(texts.description)) return { code: 'angleBrackets', field: 'description' };
  return null;
}

/** The texts and the length against videos.insert's rules and a Short's length. */
export function youtubePostRefusal(texts: { title: string; description: string }, video: PostedVideo): Refusal | null {
  const duration = video.durationSeconds;
  const refusal = youtubeTextRefusal(texts);
  if (refusal) return refusal;
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
