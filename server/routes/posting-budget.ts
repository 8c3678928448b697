import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { t } from '../messages';
import { currentUser, requireUser } from '../auth/guards';
import { HttpError } from '../http-error';
import type { PlatformAccess } from '../platforms/profile-context';
import type { PostingCapSettings } from '../platforms/types';
import { postingBudgets } from '../services/planning/posting-budget';
import { postingBudgetSchemas } from '../../src/lib/contract/operator-day';

/** A publish form picks at most this many profiles at once; more in one question is no plan. */
const maxAccounts = 200;

export interface PostingBudgetRouteOptions {
  /** Read per request: in sandbox mode the API's own address is known only once it listens. */
  platforms: () => PlatformAccess;
  postingCaps: PostingCapSettings;
}

/** GET /api/accounts/budget?accountIds=1,2&date=YYYY-MM-DD: each profile's posting budget per platform for the day. */
export const postingBudgetRoutes: FastifyPluginAsyncTypebox<PostingBudgetRouteOptions> = async (app, { platforms, postingCaps }) => {
  app.addHook('onRequest', requireUser);

  app.get('/', { schema: postingBudgetSchemas.get }, async (request) => {
    const { query } = request;
    const date = query.date.trim();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
      throw new HttpError(400, t.postingCaps.badDate);
    }
    const parts = query.accountIds.split(',').map((part) => part.trim());
    const ids = parts.map(Number);
    if (parts.length > maxAccounts || !ids.every((id, index) => /^\d+$/.test(parts[index]!) && id >= 1 && id <= 2_147_483_647)) {
      throw new HttpError(400, t.postingCaps.badAccounts);
    }
    return postingBudgets(
      app.db,
      currentUser(request),
      { accountIds: [...new Set(ids)], date },
      {
        secretsKey: app.keys.secretsAtRest,
        platforms: platforms(),
        postingCaps,
      },
    );
  });
};
