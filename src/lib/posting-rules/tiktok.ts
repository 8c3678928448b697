import type { TikTokCreatorRules, TikTokPostOptions } from '../contract';
import { captionRoom, captionText, hashtags } from './caption';
import { tenths, type PostedVideo, type Refusal } from './refusal';

/**
 * TikTok's rules for a post, from "Content Posting API – Direct Post"
 * (developers.tiktok.com/doc/content-posting-api-reference-direct-post): post_info.title up to 2200
 * characters; privacy_level required and one of creator_info's privacy_level_options; a video no
 * longer than creator_info's max_video_post_duration_sec. And from "Content Sharing Guidelines"
 * (developers.tiktok.com/doc/content-sharing-guidelines): the privacy level is picked by the user
 * with no default; the interaction switches (comment, duet, stitch) are turned on by the user, none
 * checked by default, and greyed out where creator_info says the creator turned them off; branded
 * content cannot be private (SELF_ONLY).
 */
export const tiktokCaptionLimit = 2200;

/** The privacy levels TikTok names, in the order the form lists them. */
export const tiktokPrivacyLevels = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;
export type TikTokPrivacyLevel = (typeof tiktokPrivacyLevels)[number];

/**
 * What a post gets for a choice nobody made: what every post got before the form asked (each
 * interaction allowed, no commercial content). The privacy level has none.
 */
export const tiktokDefaults = {
  disableComment: false,
  disableDuet: false,
  disableStitch: false,
  brandContentToggle: false,
  brandOrganicToggle: false,
} as const satisfies TikTokPostOptions;

/** The form's interaction switches once a privacy level is picked: off until the operator turns them on. */
export const tiktokInteractionsOff = { disableComment: true, disableDuet: true, disableStitch: true } as const satisfies TikTokPostOptions;

/** Each interaction switch of a post beside the creator_info field that turns it off for the creator. */
export const tiktokInteractions = [
  { choice: 'disableComment', creator: 'commentDisabled' },
  { choice: 'disableDuet', creator: 'duetDisabled' },
  { choice: 'disableStitch', creator: 'stitchDisabled' },
] as const;

/** The levels every creator is offered: one choice goes to every chosen profile. */
export function offeredPrivacyLevels(creators: TikTokCreatorRules[]): TikTokPrivacyLevel[] {
  return tiktokPrivacyLevels.filter((level) => creators.every((creator) => creator.privacyLevelOptions.includes(level)));
}

/** The longest video every creator may post, in seconds; null when none of them says. */
export function longestTikTokVideo(creators: TikTokCreatorRules[]): number | null {
  const limits = creators.map((creator) => creator.maxVideoPostDurationSec).filter((seconds) => seconds > 0);
  return limits.length === 0 ? null : Math.min(...limits);
}

/** Whether any creator turned the interaction off: the form greys it out, the post sends it off. */
export function interactionOffByCreator(creators: TikTokCreatorRules[], interaction: (typeof tiktokInteractions)[number]): boolean {
  return creators.some((creator) => creator[interaction.creator]);
}

/** The caption (title, description, hashtags) against post_info.title's limit, the publish key's line taking its room. */
export function tiktokCaptionRefusal(texts: { title: string; description: string; tags: string[] }, publishKey: string): Refusal | null {
  const length = captionText([texts.title, texts.description, hashtags(texts.tags)]).length;
  const room = captionRoom(tiktokCaptionLimit, publishKey);
  return length > room ? { code: 'captionTooLong', platform: 'tiktok', length, room } : null;
}

/** A post's choices as made, before any creator is asked: a privacy level picked, branded content not private. */
export function tiktokChoiceRefusal(choice: TikTokPostOptions): Refusal | null {
  if (!choice.privacyLevel) return { code: 'tiktokPrivacyRequired' };
  if (choice.brandContentToggle && choice.privacyLevel === 'SELF_ONLY') return { code: 'brandedPrivate' };
  return null;
}

/** The choices against what creator_info allows the creator now: the level offered, the video short enough. */
export function tiktokCreatorRefusal(level: TikTokPrivacyLevel, video: PostedVideo | null, creator: TikTokCreatorRules): Refusal | null {
  if (!creator.privacyLevelOptions.includes(level)) return { code: 'privacyNotOffered', level };
  const limit = creator.maxVideoPostDurationSec;
  if (video?.durationSeconds != null && limit > 0 && video.durationSeconds > limit) {
    return { code: 'tooLong', format: 'TikTok', video: video.number, seconds: tenths(video.durationSeconds), limit };
  }
  return null;
}

/** video/init's post_info choices: a switch the creator turned off stays off whatever the post chose. */
export function tiktokPostInfo(options: TikTokPostOptions & { privacyLevel: TikTokPrivacyLevel }, creator: TikTokCreatorRules) {
  return {
    privacy_level: options.privacyLevel,
    disable_comment: creator.commentDisabled || Boolean(options.disableComment),
    disable_duet: creator.duetDisabled || Boolean(options.disableDuet),
    disable_stitch: creator.stitchDisabled || Boolean(options.disableStitch),
    brand_content_toggle: Boolean(options.brandContentToggle),
    brand_organic_toggle: Boolean(options.brandOrganicToggle),
  };
}
