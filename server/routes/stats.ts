import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyTypeProviderDefault } from 'fastify';
import type { SessionUser, StatsPeriod, StatsRangeQuery } from '../../src/lib/contract';
import { statsRangeSchema } from '../../src/lib/schemas';
import { t } from '../messages';
import { HttpError, parseBody } from '../http-error';
import { currentUser, requireUser } from '../auth/guards';
import { visibleOwner } from '../auth/ownership';
import { visibleGroupId } from '../services/library/account-groups';
import { visibleProfileId } from '../services/profiles/profile-rows';
import { visiblePublishedSetId } from '../services/publishing/published-set';
import { statsReport } from '../services/statistics/stats-points';
import { statsChoices, statsOverview, topVideos, type StatsDays, type StatsSelection } from '../services/statistics/stats-range';
import { statsCsv } from '../services/statistics/stats-export';
import { statsSchemas } from '../../src/lib/contract/operator-day';
import { statsRangeSchemas } from '../../src/lib/contract/stats-range';

const defaultPeriod: StatsPeriod = 7;

/**
 * Statistics over time of a published set and of a profile, and over a period of every post the
 * user sees (the overview, the top videos, the CSV export). Another operator's set, profile or group is not
 * found, exactly as its own routes answer; an admin reads every one.
 */
export const statsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  app.addHook('onRequest', requireUser);

  app.get('/video/:idUpload', { schema: statsSchemas.set }, async (request) => {
    const { idUpload } = request.params;
    const requestId = await visiblePublishedSetId(db, currentUser(request), idUpload);
    return statsReport(db, { requestId }, request.query.days ?? defaultPeriod, new Date(app.clock.now()));
  });

  app.get('/accounts/:id', { schema: statsSchemas.account }, async (request) => {
    const accountId = await visibleProfileId(db, currentUser(request), request.params.id);
    return statsReport(db, { accountId }, request.query.days ?? defaultPeriod, new Date(app.clock.now()));
  });

  /** The period checked by the form's schema, and the profile or group, which must be the user's. */
  async function rangeOf(user: SessionUser, query: StatsRangeQuery): Promise<{ days: StatsDays; selection: StatsSelection }> {
    const { from, to, accountId, groupId, platform } = query;
    const days = parseBody(statsRangeSchema, { from, to });
    if (accountId !== undefined && groupId !== undefined) throw new HttpError(400, t.statsScreen.profileOrGroup);
    if (accountId !== undefined) await visibleProfileId(db, user, accountId);
    if (groupId !== undefined) await visibleGroupId(db, user, groupId);
    return { days: { from: days.from, to: days.to }, selection: { ownerId: visibleOwner(user), accountId, groupId, platform } };
  }

  app.get('/choices', { schema: statsRangeSchemas.choices }, async (request) => statsChoices(db, visibleOwner(currentUser(request))));

  app.get('/top', { schema: statsRangeSchemas.top }, async (request) => {
    const { days, selection } = await rangeOf(currentUser(request), request.query);
    return topVideos(db, days, selection);
  });

  app.get('/overview', { schema: statsRangeSchemas.overview }, async (request) => {
    const { days, selection } = await rangeOf(currentUser(request), request.query);
    return statsOverview(db, days, selection);
  });

  /**
   * Streamed: the rows leave in batches as the client reads them (services/statistics/stats-export.ts). The
   * answer is CSV bytes, not JSON, so only the request is typed from the schema.
   */
  const untyped = app.withTypeProvider<FastifyTypeProviderDefault>();
  untyped.get<{ Querystring: StatsRangeQuery }>('/export.csv', { schema: statsRangeSchemas.export }, async (request, reply) => {
    const { days, selection } = await rangeOf(currentUser(request), request.query);
    // The headers leave before the rows: a failure while reading can only cut the download short (Fastify logs it).
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="statystyka_${days.from}_${days.to}.csv"`)
      .header('Cache-Control', 'no-store')
      .send(statsCsv(db, days, selection));
  });
};
