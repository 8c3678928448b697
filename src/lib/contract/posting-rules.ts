import { Type, type Static, type TOptional } from '@sinclair/typebox';
import { platformIds, type Platform as PlatformId } from '../platforms';
import { tiktokPrivacyLevels } from '../posting-rules/tiktok';
import { youtubeCategories, youtubePrivacyStatuses } from '../posting-rules/youtube';
import { errorResponses, Id, Literals, Nullable, Platform, Text } from './common';

const flag = Type.Optional(Type.Boolean());

/** TikTok's `post_info` choices of one post, in TikTok's own names, camelCased. */
export const TikTokPostOptions = Type.Object(
  {
    privacyLevel: Type.Optional(Literals(tiktokPrivacyLevels)),
    disableComment: flag,
    disableDuet: flag,
    disableStitch: flag,
    /** Branded content: promoting another brand or a third party (a paid partnership). */
    brandContentToggle: flag,
    /** "Your brand": promoting the creator's own business. */
    brandOrganicToggle: flag,
  },
  { additionalProperties: false },
);

/** YouTube videos.insert `status` and `snippet.categoryId` choices of one post. */
export const YouTubePostOptions = Type.Object(
  {
    privacyStatus: Type.Optional(Literals(youtubePrivacyStatuses)),
    selfDeclaredMadeForKids: flag,
    // Typed as text: a profile's remembered category may predate the list, and the posting rules refuse it by name.
    categoryId: Type.Optional(Type.String({ enum: [...youtubeCategories] })),
  },
  { additionalProperties: false },
);

/** Instagram Reels container choices of one post; `thumbOffset`: milliseconds into the video for the cover frame. */
export const InstagramPostOptions = Type.Object(
  { shareToFeed: flag, thumbOffset: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000 })) },
  { additionalProperties: false },
);

/** The part of a platform that offers the operator no choice of its own: a Facebook Page's Reel is public. */
const NoChoices = Type.Object({}, { additionalProperties: false });
export type NoPlatformChoices = Static<typeof NoChoices>;

const choicesOf = { tiktok: TikTokPostOptions, youtube: YouTubePostOptions, instagram: InstagramPostOptions };
type WithoutChoices = Exclude<PlatformId, keyof typeof choicesOf>;

/** `options` of POST /api/upload-video/{idUpload} and a profile's saved defaults: the platforms' own choices, every part optional. */
export const PostOptions = Type.Object(
  {
    tiktok: Type.Optional(TikTokPostOptions),
    youtube: Type.Optional(YouTubePostOptions),
    instagram: Type.Optional(InstagramPostOptions),
    ...(Object.fromEntries(platformIds.filter((id) => !(id in choicesOf)).map((id) => [id, Type.Optional(NoChoices)])) as Record<
      WithoutChoices,
      TOptional<typeof NoChoices>
    >),
  },
  { additionalProperties: false },
);

/** What TikTok's creator_info/query allows one profile right now. */
export const TikTokCreatorRules = Type.Object({
  nickname: Type.String(),
  username: Type.String(),
  privacyLevelOptions: Type.Array(Type.String()),
  commentDisabled: Type.Boolean(),
  duetDisabled: Type.Boolean(),
  stitchDisabled: Type.Boolean(),
  maxVideoPostDurationSec: Type.Number(),
});

/** GET /api/posting-rules?accountIds=: per chosen profile, what each platform allows and its saved choices. */
export const ProfilePostingRules = Type.Object({
  accountId: Id,
  title: Type.String(),
  platforms: Type.Array(Platform),
  /** Null with `tiktokError` when creator_info could not be read. */
  tiktok: Nullable(TikTokCreatorRules),
  tiktokError: Nullable(Type.String()),
  saved: PostOptions,
});

export const postingRulesSchemas = {
  /** GET /api/posting-rules?accountIds=1,2: what each platform allows each chosen profile, and its remembered choices. */
  list: {
    querystring: Type.Object({ accountIds: Text(2000, { minLength: 1 }) }, { additionalProperties: false }),
    response: { 200: Type.Object({ data: Type.Array(ProfilePostingRules) }), ...errorResponses },
  },
  /** PUT /api/posting-rules/{id}: remembers the given platforms' choices as the profile's defaults. */
  save: {
    params: Type.Object({ id: Id }, { additionalProperties: false }),
    body: PostOptions,
    response: { 200: Type.Object({ data: ProfilePostingRules }), ...errorResponses },
  },
};
