import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { StatsPeriod } from '../../src/lib/contract';
import { accounts, creationRequests } from '../db/schema';
import { currentUser, requireUser } from '../auth/guards';
import { found, visibleTo } from '../auth/ownership';
import { statsReport } from '../services/stats-points';
import { statsSchemas } from '../../src/lib/contract/operator-day';

const defaultPeriod: StatsPeriod = 7;

/**
 * Statistics over time of a published set and of a profile. Another operator's set or profile is
 * not found, exactly as its own routes answer; an admin reads every one.
 */
export const statsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  app.addHook('onRequest', requireUser);

  app.get('/video/:idUpload', { schema: statsSchemas.set }, async (request) => {
    const { idUpload } = request.params;
    const [set] = await db.orm
      .select({ id: creationRequests.id })
      .from(creationRequests)
      .where(
        and(
          eq(creationRequests.idUpload, idUpload),
          isNotNull(creationRequests.publishedAt),
          visibleTo(currentUser(request), creationRequests.userId),
        ),
      );
    return statsReport(db, { requestId: found(set).id }, request.query.days ?? defaultPeriod);
  });

  app.get('/accounts/:id', { schema: statsSchemas.account }, async (request) => {
    const [account] = await db.orm
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.id, request.params.id), visibleTo(currentUser(request), accounts.userId)));
    return statsReport(db, { accountId: found(account).id }, request.query.days ?? defaultPeriod);
  });
};
