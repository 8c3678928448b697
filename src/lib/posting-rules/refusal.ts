import type { Platform } from '../platforms';

/**
 * Why a platform would refuse a post, as a code with its figures; the words are made from it at the
 * edge (refusalText in ./index.ts), so the form's check, the route and the connector say the same.
 */
export type Refusal =
  /** TikTok's privacy level has no default: the operator picks one (Content Sharing Guidelines). */
  | { code: 'tiktokPrivacyRequired' }
  /** The privacy level is not among creator_info's privacy_level_options for this creator now. */
  | { code: 'privacyNotOffered'; level: string }
  /** Branded content cannot be private (SELF_ONLY). */
  | { code: 'brandedPrivate' }
  /** YouTube's selfDeclaredMadeForKids is the channel's own declaration: never assumed. */
  | { code: 'youtubeKidsRequired' }
  | { code: 'captionTooLong'; platform: Platform; length: number; room: number }
  | { code: 'titleTooLong'; length: number; limit: number }
  /** YouTube counts a description in UTF-8 bytes: a Cyrillic letter takes two. */
  | { code: 'descriptionTooLong'; bytes: number; limit: number }
  /** Hashtags in the whole caption (title, description and tags, as the connector builds it). */
  | { code: 'tooManyHashtags'; count: number; limit: number }
  /** YouTube refuses '<' and '>' in a title (invalidTitle) or a description (invalidDescription). */
  | { code: 'angleBrackets'; field: 'title' | 'description' }
  /** snippet.categoryId is none of the categories videos can be assigned to. */
  | { code: 'categoryNotAssignable'; categoryId: string }
  /** The video is longer than the format takes; `seconds` to one decimal. */
  | { code: 'tooLong'; format: VideoFormat; video: number; seconds: number; limit: number }
  | { code: 'tooShort'; format: VideoFormat; video: number; seconds: number; limit: number }
  /** Instagram's cover frame lies past the video's end. */
  | { code: 'thumbOffsetBeyond'; video: number }
  /** Frames a second outside the format's range. */
  | { code: 'frameRate'; format: VideoFormat; video: number; fps: number; min: number; max: number }
  /** A frame of another shape than the format's, or smaller than it takes. */
  | {
      code: 'frameShape';
      format: VideoFormat;
      video: number;
      width: number;
      height: number;
      shape: string;
      minWidth: number;
      minHeight: number;
    };

/** The video a post sends: its place in its request (1, 2, …: how the publish form names it), and its length where known. */
export interface PostedVideo {
  number: number;
  durationSeconds: number | null;
  /** Its frames a second where known (the rendered file's, which are its source's). */
  fps?: number | null;
  /** The rendered frame where known. */
  frame?: { width: number; height: number } | null;
}

/** The format a length or frame rate is refused for, as the words name it: 'TikTok', 'YouTube Shorts', 'Instagram Reels'… */
export type VideoFormat = string;

/** A video's length to one decimal, as the words give it. */
export const tenths = (seconds: number) => Math.round(seconds * 10) / 10;
