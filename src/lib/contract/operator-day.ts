import { Type } from '@sinclair/typebox';
import { connectionKinds, statsPeriods, type StatsPeriod } from './lists';
import {
  errorResponses,
  Id,
  IdParams,
  IdUploadParams,
  Literals,
  NoContent,
  Nullable,
  Platform,
  PostCounts,
  PostState,
  Uuid,
  VideoStatus,
  WaitKind,
} from './common';
import { maxLength } from './limits';
import { EffectiveSlots } from './posting-slots';

const Count = Type.Integer({ minimum: 0 });
const AccountRef = Type.Object({ id: Id, title: Type.String() });

export const StatsFigures = Type.Object({
  /** Posts with figures synced at least once. */
  posts: Count,
  views: Count,
  likes: Count,
  comments: Count,
});

// An integer type lets the query string's "7" be read as a number before the list is checked.
const StatsPeriodSchema = Type.Unsafe<StatsPeriod>({ type: 'integer', enum: [...statsPeriods] });

/**
 * GET /api/stats/video/{idUpload} and /api/stats/accounts/{id}?days=: views over time and the
 * latest totals of a published set's or a profile's posts.
 */
export const StatsReport = Type.Object({
  days: StatsPeriodSchema,
  /** The series' moments, Unix seconds, oldest first; the last is now. */
  at: Type.Array(Type.Integer()),
  /** Per platform with synced posts: views at each moment, summed over its posts. */
  views: Type.Array(Type.Object({ platform: Platform, values: Type.Array(Count) })),
  byPlatform: Type.Array(Type.Object({ platform: Platform, ...StatsFigures.properties })),
  /** Null stands for posts whose profile was deleted. */
  byProfile: Type.Array(Type.Object({ account: Nullable(AccountRef), ...StatsFigures.properties })),
  /** The latest sync of any of these posts. */
  syncedAt: Nullable(Type.String()),
});

const StatsQuery = Type.Object({ days: Type.Optional(StatsPeriodSchema) }, { additionalProperties: false });

export const statsSchemas = {
  set: { params: IdUploadParams, querystring: StatsQuery, response: { 200: StatsReport, ...errorResponses } },
  account: { params: IdParams, querystring: StatsQuery, response: { 200: StatsReport, ...errorResponses } },
};

/** One upload of a video to a platform, as the calendar shows it. */
export const CalendarPost = Type.Object({
  id: Id,
  videoId: Id,
  idUpload: Uuid,
  title: Type.String(),
  platform: Platform,
  /** Issue 39: what the post is doing (src/lib/post-states.ts), and why (a wait's or a failure's kind). */
  state: PostState,
  kind: Nullable(Type.String()),
  /** Where it went out, once published; why it failed, once failed. */
  url: Nullable(Type.String()),
  error: Nullable(Type.String()),
  scheduledAt: Type.String(),
  account: AccountRef,
  /** Why a pending post waits (a posting cap, a busy profile, a retry); null when it does not. */
  waitReason: Nullable(Type.String()),
  waitKind: Nullable(WaitKind),
  /**
   * Pending and not started, with every other post of its video likewise: the calendar may cancel
   * all of them (DELETE …/schedule).
   */
  changeable: Type.Boolean(),
  /**
   * Issue 40.1: pending and not started itself: the calendar may move this post alone (PATCH
   * …/video/{videoId} with its `platform`) or cancel it alone (DELETE …/schedule/{platform}).
   */
  cancellable: Type.Boolean(),
});

/** GET /api/calendar?from=&to=&accountId=|groupId= */
export const CalendarRange = Type.Object({
  posts: Type.Array(CalendarPost),
  /** More posts fall in the range than one answer carries. */
  truncated: Type.Boolean(),
  /** Issue 39: each set with a post in the answer, with its status and all its posts by state (those outside the range too). */
  sets: Type.Array(Type.Object({ idUpload: Uuid, status: VideoStatus, posts: PostCounts })),
  /** The profiles with posts in the range, for the filter (whatever profile it is set to). */
  accounts: Type.Array(AccountRef),
  /** The groups the user may show (an admin: every group), for the same filter. */
  groups: Type.Array(AccountRef),
  /** The posting slots of the one profile shown (accountId), for the days and hours it posts; null otherwise. */
  slots: Nullable(EffectiveSlots),
});

export const calendarSchemas = {
  range: {
    querystring: Type.Object(
      {
        from: Type.String({ maxLength: maxLength.date }),
        to: Type.String({ maxLength: maxLength.date }),
        accountId: Type.Optional(Id),
        groupId: Type.Optional(Id),
      },
      { additionalProperties: false },
    ),
    response: { 200: CalendarRange, ...errorResponses },
  },
};

export const NotificationKind = Literals([
  'render_done',
  'render_failed',
  'set_posts',
  'credentials_failed',
  'credentials_ending',
  'sign_in_spray',
  'profile_unhealthy',
]);

export const NotificationItem = Type.Object({
  id: Id,
  kind: NotificationKind,
  /** The set or request it is about, for renders and sets. */
  idUpload: Nullable(Uuid),
  /** The profile it is about, named as the profile lists name it (its comment, else the account it reaches). */
  account: Nullable(Type.Object({ id: Id, name: Type.String() })),
  /** The set's title ('' when it has none), for renders and sets; a render's source file name while its request has no title. */
  title: Nullable(Type.String()),
  platform: Nullable(Platform),
  message: Nullable(Type.String()),
  /** A set's posts by state (src/lib/post-states.ts; `out`: published) when its entry was written: for 'set_posts'. */
  posts: Nullable(Type.Object({ published: Count, failed: Count, held: Count })),
  /** Why a profile's access fails, for 'credentials_failed': 'refused' (the credentials in use), 'revoked' (the consent link's grant). */
  failure: Nullable(Literals(['refused', 'revoked'])),
  /** Why a profile stopped working before a post due within a day, for 'profile_unhealthy' (issue 32.1). */
  health: Type.Optional(Literals(connectionKinds)),
  createdAt: Type.String(),
  read: Type.Boolean(),
});

/** GET /api/notifications: the newest first, bounded. */
export const NotificationList = Type.Object({ items: Type.Array(NotificationItem), unread: Count });

export const notificationSchemas = {
  list: { response: { 200: NotificationList, ...errorResponses } },
  read: { params: IdParams, response: { 204: NoContent, ...errorResponses } },
  readAll: { response: { 204: NoContent, ...errorResponses } },
};

/** One profile's posting cap on one platform for a Kyiv day (GET /api/accounts/budget). */
export const PostingBudget = Type.Object({
  accountId: Id,
  platform: Platform,
  /** Posts allowed in the platform's window; null when the platform could not say (Instagram unreachable). */
  limit: Nullable(Count),
  /** Posts that went out that day (on YouTube: from every profile on the same Google project). */
  used: Count,
  /** Posts still waiting that are planned for that day. */
  planned: Count,
  /** What is left for new posts that day; null with an unknown limit. */
  remaining: Nullable(Count),
});

/** GET /api/accounts/budget?accountIds=1,2&date=YYYY-MM-DD */
export const PostingBudgets = Type.Object({ date: Type.String(), budgets: Type.Array(PostingBudget) });

/** GET /api/accounts/budget: ids as a comma list and a Kyiv day, both checked in the route for a Ukrainian 400. */
export const postingBudgetSchemas = {
  get: {
    querystring: Type.Object(
      { accountIds: Type.String({ maxLength: 2000 }), date: Type.String({ maxLength: maxLength.date }) },
      { additionalProperties: false },
    ),
    response: { 200: PostingBudgets, ...errorResponses },
  },
};
