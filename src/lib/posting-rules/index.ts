import type { PostOptions, TikTokCreatorRules } from '../contract';
import * as t from '../i18n';
import { platformOf, type Platform, type PostingRules } from '../platforms';
import type { PostedVideo, Refusal } from './refusal';

/**
 * The platforms' own rules for a post, in one place with no I/O: the publish form's panel, the
 * publish route's check before anything is queued, and the connectors all read them, so the
 * operator reads what to change on the form instead of finding a failed post later.
 */
export type { Refusal } from './refusal';

/** One platform's choices of a post, whichever platform: a part of PostOptions. */
export type ResolvedOptions = NonNullable<PostOptions[keyof PostOptions]>;

const withoutUndefined = <T extends object>(value: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(value ?? {}).filter(([, field]) => field !== undefined)) as Partial<T>;

/**
 * A post's choices on one platform: what the publish sent, field by field over what the profile
 * remembers, over the platform's defaults. A choice the platform requires and nobody made is refused.
 */
export function resolveChoices(platform: Platform, given: PostOptions | undefined, saved: PostOptions): Resolved {
  const rules: PostingRules = platformOf(platform).rules;
  const choice = { ...withoutUndefined<object>(saved[platform]), ...withoutUndefined<object>(given?.[platform]) };
  return settled(rules.choiceRefusal(choice), { ...rules.defaults, ...choice } as ResolvedOptions);
}

type Resolved = { options: ResolvedOptions; refusal: null } | { options: null; refusal: Refusal };

const settled = (refusal: Refusal | null, options: ResolvedOptions): Resolved =>
  refusal ? { options: null, refusal } : { options, refusal: null };

/**
 * What a platform refuses in the texts alone, whatever the video and the profile: YouTube's title
 * and description, Instagram's hashtags. The publish form checks them as the operator types, the
 * edit of a published set before its texts go anywhere.
 */
export function textRefusal(platform: Platform, texts: { title: string; description: string; tags: string[] }): Refusal | null {
  const rules: PostingRules = platformOf(platform).rules;
  return rules.textRefusal(texts);
}

/** The checks of one post that need no platform call: texts, the video's length, and creator_info where read. */
export function postRefusal(
  platform: Platform,
  options: ResolvedOptions,
  video: PostedVideo & { publishKey: string },
  texts: { title: string; description: string; tags: string[] },
  creator: TikTokCreatorRules | null,
): Refusal | null {
  const rules: PostingRules = platformOf(platform).rules;
  return rules.postRefusal(options, texts, video, creator);
}

/** The operator's words for a refusal, naming the profile (or the creator) it is about. */
export function refusalText(refusal: Refusal, profile: string): string {
  const rules = t.postingRules;
  switch (refusal.code) {
    case 'tiktokPrivacyRequired':
      return rules.tiktokPrivacyRequired(profile);
    case 'privacyNotOffered':
      return rules.privacyNotOffered(profile, rules.privacyLevels[refusal.level] ?? refusal.level);
    case 'brandedPrivate':
      return rules.brandedPrivate;
    case 'youtubeKidsRequired':
      return rules.youtubeKidsRequired(profile);
    case 'captionTooLong':
      return rules.captionTooLong(t.platform.names[refusal.platform], refusal.length, refusal.room);
    case 'titleTooLong':
      return rules.titleTooLong(refusal.length, refusal.limit);
    case 'descriptionTooLong':
      return rules.descriptionTooLong(refusal.bytes, refusal.limit);
    case 'tooManyHashtags':
      return rules.tooManyHashtags(refusal.count, refusal.limit);
    case 'angleBrackets':
      return rules.angleBrackets[refusal.field];
    case 'categoryNotAssignable':
      return rules.categoryNotAssignable(refusal.categoryId);
    case 'tooLong':
      return rules.tooLong(refusal.format, refusal.video, refusal.seconds, refusal.limit);
    case 'tooShort':
      return rules.tooShort(refusal.format, refusal.video, refusal.seconds, refusal.limit);
    case 'thumbOffsetBeyond':
      return rules.thumbOffsetBeyond(refusal.video);
    case 'frameRate':
      return rules.frameRate(refusal.format, refusal.video, refusal.fps, refusal.min, refusal.max);
    case 'frameShape':
      return rules.frameShape(
        refusal.format,
        refusal.video,
        `${refusal.width}×${refusal.height}`,
        refusal.shape,
        `${refusal.minWidth}×${refusal.minHeight}`,
      );
  }
}

/** The publish form's field a refusal of a choice is about, as `options.<platform>.<choice>`; null for any other refusal. */
export function refusalField(refusal: Refusal): string | null {
  switch (refusal.code) {
    case 'tiktokPrivacyRequired':
    case 'privacyNotOffered':
    case 'brandedPrivate':
      return 'options.tiktok.privacyLevel';
    case 'youtubeKidsRequired':
      return 'options.youtube.selfDeclaredMadeForKids';
    case 'categoryNotAssignable':
      return 'options.youtube.categoryId';
    default:
      return null;
  }
}

/** A chosen profile as the choice check needs it: its name, the platforms it posts to, its remembered choices. */
export interface ChoosingProfile {
  title: string;
  platforms: readonly Platform[];
  saved: PostOptions;
}

/**
 * What the route would refuse in the form's choices (resolveOptions on the server), by the field to
 * mark: the first refusal of each, in the operator's words, for every ticked platform of every
 * chosen profile that posts there. The form checks it before sending, so a refusal marks its field.
 */
export function choiceProblems(profiles: readonly ChoosingProfile[], ticked: readonly Platform[], given: PostOptions): Map<string, string> {
  const problems = new Map<string, string>();
  for (const profile of profiles) {
    for (const platform of ticked.filter((each) => profile.platforms.includes(each))) {
      const { refusal } = resolveChoices(platform, given, profile.saved);
      const field = refusal && refusalField(refusal);
      if (refusal && field && !problems.has(field)) problems.set(field, refusalText(refusal, profile.title));
    }
  }
  return problems;
}
