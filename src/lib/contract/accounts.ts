import { Type, type TBoolean, type TLiteral } from '@sinclair/typebox';
import { connectionKinds, connectionSources, connectionStates, secretFields, type SecretField } from './lists';
import {
  errorResponses,
  PerPlatform,
  platformFields,
  Id,
  IdParams,
  Literals,
  NoContent,
  Nullable,
  PageQuery,
  Paged,
  Platform,
  SearchPageQuery,
  SelectOption,
  Text,
  VideoSummary,
} from './common';
import { consentPlatformIds } from '../platforms';
import { maxLength } from './limits';
import { EffectiveSlots } from './posting-slots';

const optionalText = (max: number) => Type.Optional(Text(max));
const flag = Type.Optional(Type.Boolean());

/** The profile form's fields; whether a platform's credentials are required is the form schema's rule (src/lib/schemas.ts). */
const accountFields = {
  proxy: optionalText(maxLength.proxy),
  ipVersion: optionalText(10),
  comments: optionalText(maxLength.comments),
  ...platformFields('switchedOn', flag),
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
export const accountFieldsSchema = Type.Object(accountFields);

/** The platforms a profile can connect through their consent pages instead of typed credentials. */
export const ConsentPlatform = Literals(consentPlatformIds);

export const accountBody = Type.Object(
  {
    ...accountFields,
    /**
     * Not SPEC's: the platforms the operator connects through their consent pages, whose typed
     * credentials are then not asked for. Absent, SPEC's rules hold.
     */
    connectByConsent: Type.Optional(Type.Array(ConsentPlatform, { maxItems: consentPlatformIds.length, uniqueItems: true })),
    /**
     * Not SPEC's: the platform whose 'Підключити' saved this body, its consent page opening next.
     * Only that platform's credentials are then asked for; the others switched on are set up later.
     */
    connecting: Type.Optional(Platform),
  },
  { additionalProperties: false },
);

export const AccountStatus = Literals(['publication', 'loading', 'success', 'error', 'noactive']);

export const IpVersion = Literals(['ipv4', 'ipv6']);

export const AccountOwner = Type.Object({ id: Id, login: Type.String() });

/** The account each platform named when the profile's credentials were last checked. */
export const ConnectedAs = PerPlatform(Type.String());

/**
 * A connection's one state (issue 39.5, connection_states): what the last path that learnt
 * something about it found, why when not 'connected', which path, the platform's own words if it
 * gave any, and when.
 */
export const PlatformState = Type.Object({
  state: Literals(connectionStates),
  kind: Nullable(Literals(connectionKinds)),
  source: Literals(connectionSources),
  detail: Nullable(Type.String()),
  at: Type.String(),
});

/** Not SPEC's (issues 32.1, 39.5): per platform switched on that anything has learnt about. */
export const ProfileHealth = PerPlatform(PlatformState);

const Count = Type.Integer({ minimum: 0 });

/**
 * Not SPEC's (issue 32.2): 'Можливе обмеження показів' on a platform, with the figures behind it:
 * the views of the profile's last posts, newest first, each under a share of the median views of
 * the `historyPosts` posts before them.
 */
export const ReachMark = Type.Object({
  platform: Platform,
  views: Type.Array(Count),
  medianViews: Count,
  historyPosts: Count,
  markedAt: Type.String(),
});

/** A profile as lists show it: never any secret. */
export const AccountSummary = Type.Object({
  id: Id,
  proxy: Type.String(),
  ipVersion: IpVersion,
  comments: Type.String(),
  status: AccountStatus,
  group: Nullable(Type.Object({ id: Id, name: Type.String() })),
  user: AccountOwner,
  ...platformFields('switchedOn', Type.Boolean()),
  ...platformFields('ticked', Type.Boolean()),
  connectedAs: ConnectedAs,
  /** Platforms whose connection is 'down' (the profile's error): not shown as connected. */
  failedPlatforms: Type.Array(Platform),
  health: ProfileHealth,
  reach: Type.Array(ReachMark),
});

/** Secret fields are declared as always empty: a value there would be a leak, so the serializer could not send one. */
const emptySecrets = Object.fromEntries(secretFields.map((field) => [field, Type.Literal('')])) as Record<SecretField, TLiteral<''>>;

/** Which secrets are stored; the proxy's password counts as one (the proxy itself is shown without it). */
export const SavedSecrets = Type.Object(
  Object.fromEntries(['proxyPassword', ...secretFields].map((field) => [field, Type.Boolean()])) as Record<
    SecretField | 'proxyPassword',
    TBoolean
  >,
);

/**
 * How a profile reaches a platform, through the connection in use: `oauth` the platform's consent
 * page (kept fresh by the server), `pasted` a TikTok access string, `login` Instagram's login and
 * password typed in the form. Tokens never leave the server.
 */
export const PlatformConnection = Type.Object({
  platform: Platform,
  method: Literals(['oauth', 'pasted', 'login']),
  /** The connection's one state, as `health` has it; 'down' with kind 'revoked': only connecting again helps. */
  state: Literals(connectionStates),
  kind: Nullable(Literals(connectionKinds)),
  /** The account the grant reaches, as the platform names it. */
  name: Nullable(Type.String()),
  /** When the access stops working unless renewed: shown for a pasted string, which nothing renews. */
  expiresAt: Nullable(Type.String()),
});

/**
 * The detail, for the owner or an admin. Secrets are write-only: their fields come back empty
 * and `savedSecrets` says which are stored, so the form shows "збережено" and a blank field
 * keeps the stored value.
 */
export const AccountDetail = Type.Object({
  ...AccountSummary.properties,
  /** The profile's links to TikTok and Instagram made through their consent pages, and its pasted TikTok string's age. */
  connections: Type.Array(PlatformConnection),
  YouTubeAuthClientId: Type.String(),
  YouTubeLogin: Type.String(),
  InstagramLogin: Type.String(),
  InstagramUserId: Type.String(),
  ...emptySecrets,
  savedSecrets: SavedSecrets,
  description: Type.String(),
  titleChannel: Type.String(),
  urlChannel: Type.String(),
  urlInstagram: Type.String(),
  profileNameInstagram: Type.String(),
  profileDescriptionInstagram: Type.String(),
  /** The failure a platform connector last reported, shown while the status is 'error'. */
  error: Nullable(Type.String()),
  video: Paged(VideoSummary),
  /** Not SPEC's (issue 31.2): when the profile posts, its own or the ones it takes from its group or the installation. */
  slots: EffectiveSlots,
});

const detail = { 200: AccountDetail, ...errorResponses };

/** Not SPEC's (issue 39.5): what a check of the profile's health asked from its page found, answered once it is done. */
export const HealthCheckAnswer = Type.Object({
  /** The profile as its page shows it, with the states the check stored. */
  account: AccountDetail,
  /** The platforms the quota ledger had no read to spare for: not checked, their last state stands. */
  unread: Type.Array(Platform),
});

/** What the profile form offers: the platforms' mode, and in sandbox mode the proxy that reaches the sandbox. */
export const ProfileSetup = Type.Object({
  mode: Literals(['sandbox', 'live']),
  /** The loopback proxy the server started for profiles (`Sandbox proxy for profiles: …`); null in live mode. */
  sandboxProxy: Nullable(Type.String()),
});

/** Where the profile is connected: TikTok's or Instagram's consent page, or YouTube's link on this server, which binds the browser opening it and goes on to Google's. */
export const ConsentLink = Type.Object({ url: Type.String() });

/** The profile list's query: SPEC's page, the search, and (issue 32.1) `health=problem`, the profiles a platform of which is not 'ok'. */
export const AccountPageQuery = Type.Object({ ...SearchPageQuery.properties, health: Type.Optional(Literals(['problem'])) });

export const accountSchemas = {
  list: { querystring: AccountPageQuery, response: { 200: Paged(AccountSummary), ...errorResponses } },
  search: {
    querystring: Type.Object({ groupId: Type.Optional(Type.Integer({ minimum: 0, maximum: Id.maximum })) }),
    response: { 200: Type.Array(SelectOption), ...errorResponses },
  },
  detail: { params: IdParams, response: detail },
  setup: { response: { 200: ProfileSetup, ...errorResponses } },
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
  connectYouTube: { params: IdParams, response: { 200: ConsentLink, ...errorResponses } },
  /** TikTok's and Instagram's consent links: the same shape as YouTube's. */
  connectLink: { params: IdParams, response: { 200: ConsentLink, ...errorResponses } },
  healthCheck: { params: IdParams, response: { 200: HealthCheckAnswer, ...errorResponses } },
};
