import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { PostingSlots } from '../../src/lib/contract';
import { t } from '../messages';
import { currentUser, requireUser } from '../auth/guards';
import { visibleGroupId } from '../services/library/account-groups';
import { HttpError } from '../http-error';
import { calendarRange } from '../services/planning/calendar-posts';
import { calendarSchemas } from '../../src/lib/contract/operator-day';

/** A month view shows six weeks; a day more covers a change of summer time inside them. */
const longestRangeMs = 43 * 86_400_000;

/** GET /api/calendar?from=&to=&accountId=|groupId=: the posts of a date range, for the calendar screen. */
export const calendarRoutes: FastifyPluginAsyncTypebox<{
  /** The installation's slots (config.postingSlots), for a profile shown whose group has none and who has none. */
  postingSlots: PostingSlots;
}> = async (app, { postingSlots }) => {
  app.addHook('onRequest', requireUser);

  app.get('/', { schema: calendarSchemas.range }, async (request) => {
    const { query } = request;
    const from = new Date(query.from);
    const to = new Date(query.to);
    const span = to.getTime() - from.getTime();
    if (Number.isNaN(span) || span <= 0 || span > longestRangeMs) throw new HttpError(400, t.calendar.badRange);
    if (query.accountId !== undefined && query.groupId !== undefined) throw new HttpError(400, t.calendar.oneFilter);
    const user = currentUser(request);
    // Another operator's group is not found, as its own route answers it.
    if (query.groupId !== undefined) await visibleGroupId(app.db, user, query.groupId);
    return calendarRange(app.db, user, { from, to, accountId: query.accountId, groupId: query.groupId }, postingSlots);
  });
};
