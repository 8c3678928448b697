import { Type } from '@sinclair/typebox';
import { AccountOwner } from './accounts';
import { errorResponses, Id, Platform, PostCounts } from './common';

const Count = Type.Integer({ minimum: 0 });

/** A profile whose platform access failed and stands: its owner has to open it and connect it again. */
export const AttentionProfile = Type.Object({
  id: Id,
  /** Named as the profile pickers name it. */
  title: Type.String(),
  user: AccountOwner,
  failedPlatforms: Type.Array(Platform),
});

/** GET /api/home: the operator's day at a glance (an admin's covers everyone's). */
export const HomeSummary = Type.Object({
  /** Today in Kyiv, `YYYY-MM-DD`: the day the posts are counted for. */
  day: Type.String(),
  /**
   * Today's posts by state (src/lib/post-states.ts), as the calendar shows them: a cancelled
   * publication leaves the calendar, so the day does not count it.
   */
  posts: Type.Omit(PostCounts, ['cancelled']),
  attention: Type.Object({
    /** The first of them, by id. */
    profiles: Type.Array(AttentionProfile),
    total: Count,
  }),
  /** The first steps of a new account, each true once done. */
  steps: Type.Object({ profile: Type.Boolean(), connect: Type.Boolean(), backgrounds: Type.Boolean(), video: Type.Boolean() }),
});

export const homeSchemas = {
  get: { response: { 200: HomeSummary, ...errorResponses } },
};
