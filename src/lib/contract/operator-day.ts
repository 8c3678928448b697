import { Type } from '@sinclair/typebox';
import { statsPeriods, type StatsPeriod } from '../contract';
import { errorResponses, Id, IdParams, IdUploadParams, NoContent, Nullable, Uuid } from './common';
import { maxLength } from './limits';

const Platform = Type.Union([Type.Literal('youtube'), Type.Literal('tiktok'), Type.Literal('instagram')]);
const Count = Type.Integer({ minimum: 0 });
const AccountRef = Type.Object({ id: Id, title: Type.String() });

const Figures = { posts: Count, views: Count, likes: Count, comments: Count };

const StatsReport = Type.Object({
  days: Type.Integer(),
  at: Type.Array(Type.Integer()),
  views: Type.Array(Type.Object({ platform: Platform, values: Type.Array(Count) })),
  byPlatform: Type.Array(Type.Object({ platform: Platform, ...Figures })),
  byProfile: Type.Array(Type.Object({ account: Nullable(AccountRef), ...Figures })),
  syncedAt: Nullable(Type.String()),
});

// An integer type lets the query string's "7" be read as a number before the list is checked.
const StatsQuery = Type.Object(
  { days: Type.Optional(Type.Unsafe<StatsPeriod>({ type: 'integer', enum: [...statsPeriods] })) },
  { additionalProperties: false },
);

export const statsSchemas = {
  set: { params: IdUploadParams, querystring: StatsQuery, response: { 200: StatsReport, ...errorResponses } },
  account: { params: IdParams, querystring: StatsQuery, response: { 200: StatsReport, ...errorResponses } },
};

const CalendarPost = Type.Object({
  id: Id,
  videoId: Id,
  idUpload: Uuid,
  title: Type.String(),
  platform: Platform,
  status: Type.Union([Type.Literal('pending'), Type.Literal('done'), Type.Literal('error')]),
  scheduledAt: Type.String(),
  account: AccountRef,
  waitReason: Nullable(Type.String()),
});

export const calendarSchemas = {
  range: {
    querystring: Type.Object(
      {
        from: Type.String({ maxLength: maxLength.date }),
        to: Type.String({ maxLength: maxLength.date }),
        accountId: Type.Optional(Id),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ posts: Type.Array(CalendarPost), truncated: Type.Boolean(), accounts: Type.Array(AccountRef) }),
      ...errorResponses,
    },
  },
};

const NotificationItem = Type.Object({
  id: Id,
  kind: Type.Union([
    Type.Literal('render_done'),
    Type.Literal('render_failed'),
    Type.Literal('publish_failed'),
    Type.Literal('credentials_failed'),
    Type.Literal('credentials_ending'),
  ]),
  idUpload: Nullable(Uuid),
  account: Nullable(Type.Object({ id: Id, name: Type.String() })),
  title: Nullable(Type.String()),
  platform: Nullable(Platform),
  message: Nullable(Type.String()),
  createdAt: Type.String(),
  read: Type.Boolean(),
});

export const notificationSchemas = {
  list: { response: { 200: Type.Object({ items: Type.Array(NotificationItem), unread: Count }), ...errorResponses } },
  read: { params: IdParams, response: { 204: NoContent, ...errorResponses } },
  readAll: { response: { 204: NoContent, ...errorResponses } },
};

const PostingBudget = Type.Object({
  accountId: Id,
  platform: Platform,
  limit: Nullable(Count),
  used: Count,
  planned: Count,
  remaining: Nullable(Count),
});

/** GET /api/accounts/budget: ids as a comma list and a Kyiv day, both checked in the route for a Ukrainian 400. */
export const postingBudgetSchemas = {
  get: {
    querystring: Type.Object(
      { accountIds: Type.String({ maxLength: 2000 }), date: Type.String({ maxLength: maxLength.date }) },
      { additionalProperties: false },
    ),
    response: { 200: Type.Object({ date: Type.String(), budgets: Type.Array(PostingBudget) }), ...errorResponses },
  },
};
