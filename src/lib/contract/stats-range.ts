import { Type } from '@sinclair/typebox';
import { errorResponses, Id, Nullable, Platform, Uuid } from './common';
import { maxLength } from './limits';

const Count = Type.Integer({ minimum: 0 });
const AccountRef = Type.Object({ id: Id, title: Type.String() });

/**
 * A period of Kyiv days and whose posts: every profile the user sees, one profile or one group,
 * on every platform or one. The days are checked in the route by the form's schema
 * (statsRangeSchema), for the form's Ukrainian messages.
 */
export const StatsRangeQuery = Type.Object(
  {
    from: Type.String({ maxLength: maxLength.date }),
    to: Type.String({ maxLength: maxLength.date }),
    accountId: Type.Optional(Id),
    groupId: Type.Optional(Id),
    platform: Type.Optional(Platform),
  },
  { additionalProperties: false },
);

/** One video of the top: its posts' views gained over the period, summed over the platforms asked. */
export const TopVideo = Type.Object({
  videoId: Id,
  idUpload: Uuid,
  /** The set's title, '' when it has none. */
  title: Type.String(),
  /** The video's number in its set, from 1. */
  number: Type.Integer({ minimum: 1 }),
  /** Null stands for a deleted profile. */
  account: Nullable(AccountRef),
  platforms: Type.Array(Platform),
  /** Views at the end of the period less views at its start. */
  gained: Type.Integer(),
  /** Views at the end of the period. */
  views: Count,
});

/** GET /api/stats/top?from=&to=[&accountId=|&groupId=][&platform=]: the videos that gained the most views, best first. */
export const TopVideos = Type.Object({ videos: Type.Array(TopVideo) });

/** A platform's figures over the period: what its posts gained, and how many were published in it. */
export const PlatformTotals = Type.Object({
  platform: Platform,
  /** Views gained: at the end of the period less at its start, summed over the posts, as the top counts them. */
  gained: Type.Integer(),
  /** Likes gained, counted the same way. */
  likes: Type.Integer(),
  /** Comments gained, counted the same way. */
  comments: Type.Integer(),
  /** Posts published within the period, synced or not. */
  posts: Count,
});

/** One profile of the ranking: what its posts gained over the period. */
export const RankedProfile = Type.Object({
  /** Null stands for the posts of deleted profiles. */
  account: Nullable(AccountRef),
  gained: Type.Integer(),
  likes: Type.Integer(),
  comments: Type.Integer(),
  /** Its posts with figures. */
  posts: Count,
});

/**
 * GET /api/stats/overview?from=&to=[&accountId=|&groupId=][&platform=]: the period's totals per
 * platform with posts or figures, each Kyiv day's views gained per platform with figures, and the
 * profiles that gained the most views, best first.
 */
export const StatsOverview = Type.Object({
  totals: Type.Array(PlatformTotals),
  /** The period's Kyiv days, `YYYY-MM-DD`, oldest first. */
  days: Type.Array(Type.String()),
  /** Each day's start (midnight in Kyiv) as Unix seconds, for the chart. */
  at: Type.Array(Type.Integer()),
  /** Per platform, the views gained on each day of `days`. */
  daily: Type.Array(Type.Object({ platform: Platform, values: Type.Array(Type.Integer()) })),
  profiles: Type.Array(RankedProfile),
});

/** GET /api/stats/choices: the profiles and groups the statistics screen offers to narrow it to. */
export const StatsChoices = Type.Object({
  accounts: Type.Array(AccountRef),
  groups: Type.Array(Type.Object({ id: Id, name: Type.String() })),
});

export const statsRangeSchemas = {
  top: { querystring: StatsRangeQuery, response: { 200: TopVideos, ...errorResponses } },
  overview: { querystring: StatsRangeQuery, response: { 200: StatsOverview, ...errorResponses } },
  choices: { response: { 200: StatsChoices, ...errorResponses } },
  /** The answer is CSV, streamed, not JSON: only the request is typed from the schema. */
  export: { querystring: StatsRangeQuery, produces: ['text/csv'], response: errorResponses },
};
