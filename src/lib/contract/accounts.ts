import { Type } from '@sinclair/typebox';
import { secretFields } from '../contract';
import {
  errorResponses,
  Id,
  IdParams,
  NoContent,
  Nullable,
  FilteredPageQuery,
  PageQuery,
  Paged,
  SelectOption,
  Text,
  VideoSummary,
} from './common';
import { maxLength } from './limits';

const optionalText = (max: number) => Type.Optional(Text(max));
const flag = Type.Optional(Type.Boolean());

/** The profile form's fields; whether a platform's credentials are required is the form schema's rule (src/lib/schemas.ts). */
const accountFields = {
  proxy: optionalText(maxLength.proxy),
  ipVersion: optionalText(10),
  comments: optionalText(maxLength.comments),
  isActiveYouTube: flag,
  isActiveTikTok: flag,
  isActiveInstagram: flag,
  YouTubeAuthClientId: optionalText(maxLength.clientId),
  YouTubeAuthClientSecret: optionalText(maxLength.secret),
  YouTubeLogin: optionalText(maxLength.platformLogin),
  YouTubePassword: optionalText(maxLength.secret),
  InstagramLogin: optionalText(maxLength.platformLogin),
  InstagramPassword: optionalText(maxLength.secret),
  InstagramAccessToken: optionalText(maxLength.secret),
  InstagramUserId: optionalText(maxLength.instagramUserId),
  TikTiokAuthStr: optionalText(maxLength.secret),
};
export const accountBody = Type.Object(accountFields, { additionalProperties: false });

const status = Type.Union(['publication', 'loading', 'success', 'error', 'noactive'].map((value) => Type.Literal(value)));

export const AccountSummary = Type.Object({
  id: Id,
  proxy: Type.String(),
  ipVersion: Type.String(),
  comments: Type.String(),
  status,
  group: Nullable(Type.Object({ id: Id, name: Type.String() })),
  user: Type.Object({ id: Id, login: Type.String() }),
  isActiveYouTube: Type.Boolean(),
  isActiveTikTok: Type.Boolean(),
  isActiveInstagram: Type.Boolean(),
  inYouTube: Type.Boolean(),
  inTikTok: Type.Boolean(),
  inInstagram: Type.Boolean(),
  connectedAs: Type.Object(
    { youtube: Type.Optional(Type.String()), tiktok: Type.Optional(Type.String()), instagram: Type.Optional(Type.String()) },
    { additionalProperties: false },
  ),
  failedPlatforms: Type.Array(Type.Union(['youtube', 'tiktok', 'instagram'].map((value) => Type.Literal(value)))),
});

/** Secret fields are declared as always empty: a value there would be a leak, so the serializer could not send one. */
const emptySecret = Type.Literal('');
const PlatformConnection = Type.Object({
  platform: Type.Union([Type.Literal('youtube'), Type.Literal('tiktok'), Type.Literal('instagram')]),
  method: Type.Union([Type.Literal('oauth'), Type.Literal('pasted')]),
  state: Type.Union([Type.Literal('connected'), Type.Literal('revoked')]),
  name: Nullable(Type.String()),
  expiresAt: Nullable(Type.String()),
});
const AccountDetail = Type.Object({
  ...AccountSummary.properties,
  connections: Type.Array(PlatformConnection),
  YouTubeAuthClientId: Type.String(),
  YouTubeLogin: Type.String(),
  InstagramLogin: Type.String(),
  InstagramUserId: Type.String(),
  ...Object.fromEntries(secretFields.map((field) => [field, emptySecret])),
  savedSecrets: Type.Object(Object.fromEntries(['proxyPassword', ...secretFields].map((field) => [field, Type.Boolean()]))),
  description: Type.String(),
  titleChannel: Type.String(),
  urlChannel: Type.String(),
  urlInstagram: Type.String(),
  profileNameInstagram: Type.String(),
  profileDescriptionInstagram: Type.String(),
  error: Nullable(Type.String()),
  video: Paged(VideoSummary),
});

const detail = { 200: AccountDetail, ...errorResponses };

export const accountSchemas = {
  list: { querystring: FilteredPageQuery([]), response: { 200: Paged(AccountSummary), ...errorResponses } },
  search: {
    querystring: Type.Object({ groupId: Type.Optional(Type.Integer({ minimum: 0, maximum: Id.maximum })) }),
    response: { 200: Type.Array(SelectOption), ...errorResponses },
  },
  detail: { params: IdParams, response: detail },
  create: { body: accountBody, response: { 201: AccountDetail, ...errorResponses } },
  update: { params: IdParams, body: accountBody, response: detail },
  updateChannel: {
    params: IdParams,
    body: Type.Object({ description: optionalText(maxLength.channelDescription) }, { additionalProperties: false }),
    response: detail,
  },
  updateInstagramProfile: {
    params: IdParams,
    body: Type.Object(
      { profileName: optionalText(maxLength.profileName), profileDescription: optionalText(maxLength.profileDescription) },
      { additionalProperties: false },
    ),
    response: detail,
  },
  remove: { params: IdParams, response: { 204: NoContent, ...errorResponses } },
  videos: { params: IdParams, querystring: PageQuery, response: { 200: Paged(VideoSummary), ...errorResponses } },
  connectYouTube: { params: IdParams, response: { 200: Type.Object({ url: Type.String() }), ...errorResponses } },
  /** TikTok's and Instagram's consent links: the same shape as YouTube's. */
  connectLink: { params: IdParams, response: { 200: Type.Object({ url: Type.String() }), ...errorResponses } },
};
