import { Type } from '@sinclair/typebox';
import {
  AccountGroup,
  errorResponses,
  Id,
  IdParams,
  IdUploadParams,
  NoContent,
  Nullable,
  FilteredPageQuery,
  PageQuery,
  Paged,
  SelectOption,
  TagSet,
  Text,
  Uuid,
  VideoStatus,
  VideoSummary,
} from './common';
import { PostOptions } from './posting-rules';
import { ChosenAccount, TagList } from './groups-tags';
import { maxItems, maxLength } from './limits';

const Photo = Type.Object({ id: Id, url: Type.String() });

const requestStatus = Type.Union([Type.Literal('loading'), Type.Literal('success'), Type.Literal('error'), Type.Literal('published')]);

const CreationRequestRow = Type.Object({
  id: Id,
  idUpload: Type.String(),
  status: requestStatus,
  countVideo: Type.Integer(),
  createdAt: Type.String(),
  sourceName: Type.Optional(Nullable(Type.String())),
  posterUrl: Type.Optional(Nullable(Type.String())),
});

const RequestVideoItem = Type.Object({
  id: Id,
  url: Nullable(Type.String()),
  posterUrl: Nullable(Type.String()),
  idUpload: Type.String(),
  createdAt: Type.String(),
  status: VideoStatus,
  error: Nullable(Type.String()),
  errorInstagram: Nullable(Type.String()),
  urlInstagram: Nullable(Type.String()),
  urlYouTube: Nullable(Type.String()),
  account: Nullable(Type.Object({ id: Id, title: Type.Optional(Type.String()) })),
  date: Nullable(Type.String()),
});

const PublishProfileOption = Type.Object({
  ...SelectOption.properties,
  platforms: Type.Array(Type.Union(['youtube', 'tiktok', 'instagram'].map((value) => Type.Literal(value)))),
});

const PublicationRequestDetail = Type.Object({
  ...CreationRequestRow.properties,
  error: Nullable(Type.String()),
  video: Type.Array(RequestVideoItem),
  accounts: Type.Array(PublishProfileOption),
  tagProfile: Type.Array(TagSet),
  group: Type.Array(AccountGroup),
});

const PublishedVideo = Type.Object({
  ...VideoSummary.properties,
  idUpload: Type.String(),
  url: Nullable(Type.String()),
  posterUrl: Nullable(Type.String()),
  errorTiktok: Nullable(Type.String()),
  urlTiktok: Nullable(Type.String()),
  publishNote: Nullable(Type.String()),
  waitReason: Nullable(Type.String()),
  nextAttemptAt: Nullable(Type.String()),
  plannedAt: Nullable(Type.String()),
  changeable: Type.Boolean(),
});

const UploadDetail = Type.Object({
  id: Id,
  idUpload: Type.String(),
  status: VideoStatus,
  title: Type.String(),
  description: Type.String(),
  tags: Type.String(),
  tagProfile: Type.Array(TagSet),
  edits: Type.Array(
    Type.Object({
      platform: Type.Union(['youtube', 'tiktok', 'instagram'].map((value) => Type.Literal(value))),
      editable: Type.Boolean(),
      pending: Type.Integer(),
      done: Type.Integer(),
      errors: Type.Array(Type.String()),
    }),
  ),
  video: Type.Array(PublishedVideo),
  accounts: Type.Array(PublishProfileOption),
});

const publishDate = Type.Optional(Nullable(Text(maxLength.date)));

const ScheduledVideoParams = Type.Object({ idUpload: Uuid, videoId: Id }, { additionalProperties: false });

const publishBody = Type.Object(
  {
    id: Type.Optional(Type.Integer()),
    title: Type.Optional(Text(maxLength.title)),
    description: Type.Optional(Text(maxLength.description)),
    tags: Type.Optional(TagList),
    accounts: Type.Optional(Type.Array(ChosenAccount, { maxItems: maxItems.accounts })),
    video: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Id,
            url: Type.Optional(Text(4096)),
            idUpload: Type.Optional(Text(64)),
            createdAt: Type.Optional(Text(maxLength.date)),
            account: Type.Optional(Nullable(ChosenAccount)),
            date: publishDate,
            // SPEC's video item also carries what the detail answered; the server reads none of it.
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
    // Required here: the form schema's bare boolean() would answer a missing one in English.
    inYouTube: Type.Boolean(),
    inTikTok: Type.Boolean(),
    inInstagram: Type.Boolean(),
    date: publishDate,
    // Issue 22.3: the platforms' own choices; absent, the profile's remembered ones apply.
    options: Type.Optional(PostOptions),
  },
  { additionalProperties: false },
);

const editBody = Type.Object(
  { title: Type.Optional(Text(maxLength.title)), description: Type.Optional(Text(maxLength.description)), tags: Type.Optional(TagList) },
  { additionalProperties: false },
);

/** Uploads are multipart streams: their parts are checked as they arrive (server/media/uploads.ts), not by a JSON schema. */
const multipart = { consumes: ['multipart/form-data'] };

export const photoSchemas = {
  list: { querystring: PageQuery, response: { 200: Paged(Photo), ...errorResponses } },
  upload: { ...multipart, response: { 201: Type.Object({ data: Type.Array(Photo) }), ...errorResponses } },
  remove: { params: IdParams, response: { 204: NoContent, ...errorResponses } },
};

export const createVideoSchemas = {
  list: {
    querystring: FilteredPageQuery(['loading', 'success', 'error', 'published']),
    response: { 200: Paged(CreationRequestRow), ...errorResponses },
  },
  detail: { params: IdUploadParams, response: { 200: PublicationRequestDetail, ...errorResponses } },
  backgrounds: { response: { 200: Type.Object({ data: Type.Array(Photo) }), ...errorResponses } },
  create: { ...multipart, response: { 201: Type.Object({ id: Id, idUpload: Type.String() }), ...errorResponses } },
  remove: { params: IdParams, response: { 204: NoContent, ...errorResponses } },
};

export const uploadVideoSchemas = {
  list: {
    querystring: FilteredPageQuery(['publication', 'success', 'error']),
    response: {
      200: Paged(
        Type.Object({
          id: Id,
          idUpload: Type.String(),
          status: VideoStatus,
          title: Type.String(),
          sourceName: Nullable(Type.String()),
          posterUrl: Nullable(Type.String()),
          publishedAt: Type.String(),
          countVideo: Type.Integer(),
        }),
      ),
      ...errorResponses,
    },
  },
  retry: {
    body: Type.Object({ videoId: Id, youTubeId: Uuid }, { additionalProperties: false }),
    response: { 200: PublishedVideo, ...errorResponses },
  },
  detail: { params: IdUploadParams, response: { 200: UploadDetail, ...errorResponses } },
  edit: { params: IdUploadParams, body: editBody, response: { 200: UploadDetail, ...errorResponses } },
  publish: { params: IdUploadParams, body: publishBody, response: { 200: UploadDetail, ...errorResponses } },
  /** PATCH /api/upload-video/{idUpload}/video/{videoId}: a scheduled video's new date and/or profile. */
  reschedule: {
    params: ScheduledVideoParams,
    body: Type.Object({ date: publishDate, accountId: Type.Optional(Id) }, { additionalProperties: false }),
    response: { 200: UploadDetail, ...errorResponses },
  },
  /** DELETE /api/upload-video/{idUpload}/video/{videoId}/schedule: the video's publication, cancelled before it starts. */
  cancelSchedule: { params: ScheduledVideoParams, response: { 200: UploadDetail, ...errorResponses } },
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
