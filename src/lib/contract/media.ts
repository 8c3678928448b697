import { Type, type TOptional, type TProperties } from '@sinclair/typebox';
import {
  AccountGroup,
  errorResponses,
  Id,
  IdParams,
  IdUploadParams,
  Literals,
  NoContent,
  Nullable,
  WaitKind,
  FilteredPageQuery,
  PageQuery,
  Paged,
  Platform,
  platformFlags,
  PostCounts,
  PostOwnWords,
  SelectOption,
  TagSet,
  Text,
  Uuid,
  VideoAccount,
  VideoStatus,
  VideoSummary,
} from './common';
import { PostOptions } from './posting-rules';
import { ChosenAccount, TagList } from './groups-tags';
import { platformIds, type Platform as PlatformId } from '../platforms';
import { maxItems, maxLength } from './limits';

/** `url`: a signed, expiring media URL. */
export const Photo = Type.Object({ id: Id, url: Type.String() });

/** The images the create form offers as backgrounds: the operator's own. */
export const BackgroundChoices = Type.Object({ data: Type.Array(Photo) });

/** `published` is not shown as a label (SPEC): the list offers the published set instead. */
export const RequestStatus = Literals(['loading', 'success', 'error', 'published']);

export const CreationRequestRow = Type.Object({
  id: Id,
  idUpload: Type.String(),
  status: RequestStatus,
  countVideo: Type.Integer(),
  createdAt: Type.String(),
  /** The uploaded file's name; null for requests made before it was kept. */
  sourceName: Type.Optional(Nullable(Type.String())),
  /** The first rendered variant's poster, signed; null until one is rendered. */
  posterUrl: Type.Optional(Nullable(Type.String())),
  // Issue 28.0: a published request's set status, as the YouTube list shows it.
  publicationStatus: Type.Optional(VideoStatus),
  /** Issue 39: a published request's posts by state, as the YouTube list counts them. */
  posts: Type.Optional(PostCounts),
});

/** A rendered variant of a creation request; `url` and `posterUrl` are null until it is rendered. */
export const RequestVideoItem = Type.Object({
  id: Id,
  url: Nullable(Type.String()),
  posterUrl: Nullable(Type.String()),
  /** The poster's small copy (216 × 384), signed; null until rendered, and for a video rendered before small copies were made. */
  thumbnailUrl: Type.Optional(Nullable(Type.String())),
  idUpload: Type.String(),
  createdAt: Type.String(),
  status: VideoStatus,
  error: Nullable(Type.String()),
  errorInstagram: Nullable(Type.String()),
  urlInstagram: Nullable(Type.String()),
  urlYouTube: Nullable(Type.String()),
  account: VideoAccount,
  date: Nullable(Type.String()),
});

export const CreationRequestDetail = Type.Object({
  ...CreationRequestRow.properties,
  error: Nullable(Type.String()),
  video: Type.Array(RequestVideoItem),
});

/** A profile the publish form offers: the form warns when it lacks a ticked platform. */
export const PublishProfileOption = Type.Object({
  ...SelectOption.properties,
  platforms: Type.Array(Platform),
});

/**
 * The publish form's data, GET /api/create-video/request/{idUpload}: the rendered request plus
 * what the form offers (the spec's "Publication request").
 */
export const PublicationRequestDetail = Type.Object({
  ...CreationRequestDetail.properties,
  /** Every profile of the request's owner, for the Профіля multi-select, with the platforms each has switched on. */
  accounts: Type.Array(PublishProfileOption),
  /** Tag-set chips that fill the tags. */
  tagProfile: Type.Array(TagSet),
  /** Group chips that fill the profiles. */
  group: Type.Array(AccountGroup),
});

/**
 * Not SPEC's (issue 32.2): a post of the video whose reach is marked, with its figures. `unseen`:
 * no views `hoursLive` hours after it went live; `limited`: one of its profile's last posts behind
 * 'Можливе обмеження показів', its views against the profile's median.
 */
export const PostReach = Type.Object({
  platform: Platform,
  mark: Literals(['unseen', 'limited']),
  views: Type.Integer({ minimum: 0 }),
  /** The profile's median views the post fell short of, for `limited`. */
  medianViews: Nullable(Type.Integer({ minimum: 0 })),
  /** How long the post had been live when it was read with no views, for `unseen`. */
  hoursLive: Nullable(Type.Integer({ minimum: 0 })),
});

export const PublishedVideo = Type.Object({
  ...VideoSummary.properties,
  idUpload: Type.String(),
  /** Signed media URLs of the rendered file and its poster. */
  url: Nullable(Type.String()),
  posterUrl: Nullable(Type.String()),
  /** Ticked platforms its profile lacks: why a post was never made there. */
  publishNote: Nullable(Type.String()),
  /** Why a post still on its way has not gone out yet (a retry, a busy profile, a platform's wait). */
  waitReason: Nullable(Type.String()),
  waitKind: Nullable(WaitKind),
  /** When that post is tried next (ISO). */
  nextAttemptAt: Nullable(Type.String()),
  /** When its posts are due while none has started (ISO); null once one has, or without posts. */
  plannedAt: Nullable(Type.String()),
  /** True while every post of the video waits unstarted: its date and profile can change, or it can be cancelled. */
  changeable: Type.Boolean(),
  reach: Type.Array(PostReach),
});

/** Where the last edit of a published set's texts reached on one platform with published videos. */
export const PlatformEdit = Type.Object({
  platform: Platform,
  /** False where the platform has no call that edits a published post (TikTok, Instagram). */
  editable: Type.Boolean(),
  /** Videos whose edit is on its way, and those that took it. */
  pending: Type.Integer(),
  done: Type.Integer(),
  /** Why the platform refused it, one line per video. */
  errors: Type.Array(Type.String()),
});

/** GET /api/upload-video/{idUpload}; PATCH answers the same after an edit. */
export const UploadDetail = Type.Object({
  id: Id,
  idUpload: Type.String(),
  /** When the set was published (ISO), for its page to be named by a date rather than its UUID. */
  publishedAt: Nullable(Type.String()),
  status: VideoStatus,
  title: Type.String(),
  description: Type.String(),
  /** Comma-separated, as the spec's detail has it. */
  tags: Type.String(),
  tagProfile: Type.Array(TagSet),
  edits: Type.Array(PlatformEdit),
  video: Type.Array(PublishedVideo),
  /** The owner's profiles, for moving a scheduled video to another one. */
  accounts: Type.Array(PublishProfileOption),
  /** Issue 39: the set's posts by state; each video's own are in its `posts`. */
  posts: PostCounts,
});

/** A row of the YouTube list, GET /api/upload-video?page= : one published set. */
export const UploadRow = Type.Object({
  id: Id,
  idUpload: Type.String(),
  status: VideoStatus,
  title: Type.String(),
  sourceName: Nullable(Type.String()),
  posterUrl: Nullable(Type.String()),
  publishedAt: Type.String(),
  countVideo: Type.Integer(),
  /** Issue 39: the set's posts by state, so a half-published set says so. */
  posts: PostCounts,
  /** Issue 40.2: the first and last of its posts' own dates (ISO: when each went out, else when it is planned); null without posts. */
  postsFrom: Nullable(Type.String()),
  postsTo: Nullable(Type.String()),
});

const publishDate = Type.Optional(Nullable(Text(maxLength.date)));

/**
 * A chosen profile as the publish form's detail offered it: a client may send the detail's option
 * back as it came, with the platforms it listed, which the server reads none of.
 */
const PublishAccount = Type.Object(
  { ...ChosenAccount.properties, platforms: Type.Optional(Type.Array(Platform, { maxItems: platformIds.length })) },
  { additionalProperties: false },
);

const ScheduledVideoParams = Type.Object({ idUpload: Uuid, videoId: Id }, { additionalProperties: false });
/** Issue 40.1: one post of a scheduled video, by its platform. */
const ScheduledPostParams = Type.Object({ idUpload: Uuid, videoId: Id, platform: Platform }, { additionalProperties: false });

/** Issue 43.2: one platform's own words; a field left out takes the set's. Variables and spintax are filled per post. */
const PlatformText = Type.Object(
  { title: Type.Optional(Text(maxLength.title)), description: Type.Optional(Text(maxLength.description)), tags: Type.Optional(TagList) },
  { additionalProperties: false },
);

/** `texts` of a publish, keyed by the registry's platforms. */
export const PlatformTexts = Type.Object(
  Object.fromEntries(platformIds.map((id) => [id, Type.Optional(PlatformText)])) as Record<PlatformId, TOptional<typeof PlatformText>>,
  { additionalProperties: false },
);

/** POST /api/upload-video/{idUpload} */
export const PublishBody = Type.Object(
  {
    id: Type.Optional(Type.Integer()),
    title: Type.Optional(Text(maxLength.title)),
    description: Type.Optional(Text(maxLength.description)),
    tags: Type.Optional(TagList),
    accounts: Type.Optional(Type.Array(PublishAccount, { maxItems: maxItems.accounts })),
    video: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Id,
            // The detail's link, null until the video is rendered; the server reads none of it (it
            // publishes a request only once every video is rendered, 409 before).
            url: Type.Optional(Nullable(Text(4096))),
            idUpload: Type.Optional(Text(64)),
            createdAt: Type.Optional(Text(maxLength.date)),
            account: Type.Optional(Nullable(PublishAccount)),
            date: publishDate,
            // SPEC's video item also carries what the detail answered, a client may send the
            // detail's items back as they came; the server reads none of it.
            posterUrl: Type.Optional(Nullable(Text(4096))),
            thumbnailUrl: Type.Optional(Nullable(Text(4096))),
            status: Type.Optional(VideoStatus),
            error: Type.Optional(Nullable(Text(4096))),
            errorInstagram: Type.Optional(Nullable(Text(4096))),
            urlInstagram: Type.Optional(Nullable(Text(4096))),
            urlYouTube: Type.Optional(Nullable(Text(4096))),
          },
          { additionalProperties: false },
        ),
        { maxItems: maxItems.videos },
      ),
    ),
    // Required for SPEC's platforms: the form schema's bare boolean() would answer a missing one in English.
    ...platformFlags('ticked'),
    date: publishDate,
    // Issue 22.3: the platforms' own choices; absent, the profile's remembered ones apply.
    options: Type.Optional(PostOptions),
    // Issue 43.2: a platform's own title, description and tags; absent, every platform says the set's.
    texts: Type.Optional(PlatformTexts),
    // Issue 43.5: true refuses (409, naming them) posts that look like duplicates, saving nothing;
    // absent, the publish saves as SPEC's always did. The form asks it until the operator consents.
    checkDuplicates: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** PATCH /api/upload-video/{idUpload}/video/{videoId}: a scheduled video's new date (Kyiv wall time, like the publish form's) and/or profile; absent keeps each. */
export const RescheduleBody = Type.Object(
  {
    date: publishDate,
    accountId: Type.Optional(Id),
    /** Only the video's post on this platform moves, to `date` (issue 40.1); its profile stays the video's. */
    platform: Type.Optional(Platform),
    /** Issue 43.5: true moves it even within its profile's gap of another post (409 otherwise). */
    allowDuplicates: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const SpreadMode = Literals(['even', 'soonest']);

/**
 * POST /api/upload-video/{idUpload}/spread (issue 31.3): the profile and date the product proposes
 * for each video, from `from` to `to` (Kyiv days, YYYY-MM-DD), within each profile's slots and
 * caps. Nothing is saved: the form shows the proposal and saves it through the publish payload.
 */
export const SpreadBody = Type.Object(
  {
    from: Text(maxLength.date),
    to: Text(maxLength.date),
    accounts: Type.Optional(Type.Array(PublishAccount, { maxItems: maxItems.accounts })),
    ...platformFlags('ticked'),
    video: Type.Array(Type.Object({ id: Id, account: Type.Optional(Nullable(PublishAccount)) }, { additionalProperties: false }), {
      maxItems: maxItems.videos,
    }),
    /** Issue 43.1: `even` (absent) spreads each profile's videos evenly over the days; `soonest` takes the earliest free slots. */
    mode: Type.Optional(SpreadMode),
    // Issue 43.2: the form's words, so each proposed post shows what it will say; absent, the proposal names no words.
    title: Type.Optional(Text(maxLength.title)),
    description: Type.Optional(Text(maxLength.description)),
    tags: Type.Optional(TagList),
    texts: Type.Optional(PlatformTexts),
  },
  { additionalProperties: false },
);

export const SpreadProposal = Type.Object({
  /** Each placed video: its profile, its date (ISO with the Kyiv offset) and why it is there. */
  data: Type.Array(
    Type.Object({
      videoId: Id,
      accountId: Id,
      date: Type.String(),
      reason: Type.String(),
      /** Issue 43.2, with the body's words: each post's final words where they are not the set's (its variables filled for this profile, number and date). */
      posts: Type.Optional(Type.Array(Type.Object({ platform: Platform, words: PostOwnWords }))),
    }),
  ),
  /** The videos no free slot took, each with why. */
  unplaced: Type.Array(Type.Object({ videoId: Id, reason: Type.String() })),
  /** Issue 43.1: how many of the placed videos each profile gets on each Kyiv day (YYYY-MM-DD), by day, then profile. */
  days: Type.Optional(Type.Array(Type.Object({ day: Type.String(), accountId: Id, posts: Type.Integer({ minimum: 1 }) }))),
});

/** POST /api/upload-video/upload: publish a failed video again. `youTubeId` is the set's idUpload. */
export const RetryBody = Type.Object({ videoId: Id, youTubeId: Uuid }, { additionalProperties: false });

const editBody = Type.Object(
  { title: Type.Optional(Text(maxLength.title)), description: Type.Optional(Text(maxLength.description)), tags: Type.Optional(TagList) },
  { additionalProperties: false },
);

/**
 * Uploads are multipart streams: their parts are checked as they arrive (server/media/uploads.ts),
 * not by a JSON schema. `parts` lists them for the OpenAPI document alone (server/openapi/documents.ts);
 * Fastify validates no body of these routes.
 */
const multipart = <T extends TProperties>(parts: T) => ({ consumes: ['multipart/form-data'], parts: Type.Object(parts) });
const fileBytes = (description: string) => Type.String({ format: 'binary', description });

/** POST /api/photo-bg: SPEC's repeated `files`. */
const photoUploadParts = { files: Type.Array(fileBytes('An image: JPEG, PNG or WebP'), { minItems: 1 }) };

/** POST /api/create-video/create: SPEC's `file` and `countVideo`; `photoIds` when the operator chose backgrounds. */
const createVideoParts = {
  file: fileBytes('The source video'),
  countVideo: Type.Integer({ minimum: 1, description: 'How many variants to render (at most MAX_VARIANTS, 50 by default)' }),
  photoIds: Type.Optional(
    Type.String({
      description: 'The chosen background images: a JSON array of photo ids, e.g. [3,5]; without it every image of the operator is used',
    }),
  ),
};

export const photoSchemas = {
  list: { querystring: PageQuery, response: { 200: Paged(Photo), ...errorResponses } },
  upload: { ...multipart(photoUploadParts), response: { 201: BackgroundChoices, ...errorResponses } },
  remove: { params: IdParams, response: { 204: NoContent, ...errorResponses } },
};

export const createVideoSchemas = {
  list: {
    querystring: FilteredPageQuery(['loading', 'success', 'error', 'published']),
    response: { 200: Paged(CreationRequestRow), ...errorResponses },
  },
  detail: { params: IdUploadParams, response: { 200: PublicationRequestDetail, ...errorResponses } },
  backgrounds: { response: { 200: BackgroundChoices, ...errorResponses } },
  create: { ...multipart(createVideoParts), response: { 201: Type.Object({ id: Id, idUpload: Type.String() }), ...errorResponses } },
  remove: { params: IdParams, response: { 204: NoContent, ...errorResponses } },
};

export const uploadVideoSchemas = {
  list: {
    querystring: FilteredPageQuery(['publication', 'success', 'error', 'cancelled']),
    response: { 200: Paged(UploadRow), ...errorResponses },
  },
  retry: { body: RetryBody, response: { 200: PublishedVideo, ...errorResponses } },
  detail: { params: IdUploadParams, response: { 200: UploadDetail, ...errorResponses } },
  edit: { params: IdUploadParams, body: editBody, response: { 200: UploadDetail, ...errorResponses } },
  publish: { params: IdUploadParams, body: PublishBody, response: { 200: UploadDetail, ...errorResponses } },
  spread: { params: IdUploadParams, body: SpreadBody, response: { 200: SpreadProposal, ...errorResponses } },
  /** PATCH /api/upload-video/{idUpload}/video/{videoId}: a scheduled video's new date and/or profile, or (`platform`) one post's new date. */
  reschedule: {
    params: ScheduledVideoParams,
    body: RescheduleBody,
    response: { 200: UploadDetail, ...errorResponses },
  },
  /** DELETE /api/upload-video/{idUpload}/video/{videoId}/schedule: the video's publication, cancelled before it starts. */
  cancelSchedule: { params: ScheduledVideoParams, response: { 200: UploadDetail, ...errorResponses } },
  /** POST /api/upload-video/{idUpload}/video/{videoId}/schedule: a cancelled publication put back as it was (the undo). */
  restoreSchedule: { params: ScheduledVideoParams, response: { 200: UploadDetail, ...errorResponses } },
  /** DELETE /api/upload-video/{idUpload}/video/{videoId}/schedule/{platform}: the video's post on that platform alone, cancelled before it starts. */
  cancelPostSchedule: { params: ScheduledPostParams, response: { 200: UploadDetail, ...errorResponses } },
  /** POST /api/upload-video/{idUpload}/video/{videoId}/schedule/{platform}: that cancelled post put back as it was (its undo). */
  restorePostSchedule: { params: ScheduledPostParams, response: { 200: UploadDetail, ...errorResponses } },
};

/** Signed media links: the answer is the file's bytes (or a part of them), not JSON. */
export const mediaSchemas = {
  file: {
    params: Type.Object({ '*': Text(1000) }),
    querystring: Type.Object({ exp: Type.Optional(Text(20)), sig: Type.Optional(Text(200)) }),
    produces: ['video/mp4', 'image/jpeg', 'image/png', 'image/webp'],
    response: errorResponses,
  },
};
