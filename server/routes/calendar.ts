import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { t } from '../messages';
import { currentUser, requireUser } from '../auth/guards';
import { HttpError } from '../http-error';
import { calendarRange } from '../services/calendar-posts';
import { calendarSchemas } from '../../src/lib/contract/operator-day';

/** A month view shows six weeks; a day more covers a change of summer time inside them. */
const longestRangeMs = 43 * 86_400_000;

/** GET /api/calendar?from=&to=&accountId=: the posts of a date range, for the calendar screen. */
export const calendarRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', requireUser);

  app.get('/', { schema: calendarSchemas.range }, async (request) => {
    const { query } = request;
    const from = new Date(query.from);
    const to = new Date(query.to);
    const span = to.getTime() - from.getTime();
    if (Number.isNaN(span) || span <= 0 || span > longestRangeMs) throw new HttpError(400, t.calendar.badRange);
    return calendarRange(app.db, currentUser(request), { from, to, accountId: query.accountId });
  });
};
