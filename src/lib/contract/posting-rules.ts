import { Type } from '@sinclair/typebox';
import { errorResponses, Id, Nullable, Text } from './common';

const flag = Type.Optional(Type.Boolean());

/** The platforms' own choices of a post, in their field names (see PostOptions in src/lib/contract.ts). */
export const PostOptions = Type.Object(
  {
    tiktok: Type.Optional(
      Type.Object(
        {
          privacyLevel: Type.Optional(
            Type.Union(
              ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'].map((level) => Type.Literal(level)),
            ),
          ),
          disableComment: flag,
          disableDuet: flag,
          disableStitch: flag,
          brandContentToggle: flag,
          brandOrganicToggle: flag,
        },
        { additionalProperties: false },
      ),
    ),
    youtube: Type.Optional(
      Type.Object(
        {
          privacyStatus: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('unlisted'), Type.Literal('private')])),
          selfDeclaredMadeForKids: flag,
          categoryId: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
        },
        { additionalProperties: false },
      ),
    ),
    instagram: Type.Optional(
      Type.Object(
        { shareToFeed: flag, thumbOffset: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000 })) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const CreatorRules = Type.Object({
  nickname: Type.String(),
  username: Type.String(),
  privacyLevelOptions: Type.Array(Type.String()),
  commentDisabled: Type.Boolean(),
  duetDisabled: Type.Boolean(),
  stitchDisabled: Type.Boolean(),
  maxVideoPostDurationSec: Type.Number(),
});

const ProfilePostingRules = Type.Object({
  accountId: Id,
  title: Type.String(),
  platforms: Type.Array(Type.Union([Type.Literal('youtube'), Type.Literal('tiktok'), Type.Literal('instagram')])),
  tiktok: Nullable(CreatorRules),
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
