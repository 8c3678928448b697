import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser, requireUser } from '../auth/guards';
import type { Clock } from '../clock';
import { homeSummary } from '../services/lists/home';
import { homeSchemas } from '../../src/lib/contract/home';

/** GET /api/home: today's posts by state, the profiles that need attention, a new account's first steps. */
export const homeRoutes: FastifyPluginAsyncTypebox<{ clock: Clock }> = async (app, { clock }) => {
  app.addHook('onRequest', requireUser);

  app.get('/', { schema: homeSchemas.get }, async (request) => homeSummary(app.db, currentUser(request), clock.now()));
};
