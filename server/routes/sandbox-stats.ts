import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../http-error';
import { planStatsSyncs, syncProfileStatsJobName } from '../jobs/sync-stats';
import { checkProfileHealthJobName, planHealthChecks } from '../jobs/health-check';

/**
 * `POST /sandbox/_sync-stats`, mounted in sandbox mode only: plans the statistics sync the cron
 * would plan at its next tick, now, so the browser suite reads figures without waiting for the
 * minute (STATS_INTERVAL cannot go below one). The same for the health checks, `POST
 * /sandbox/_check-health`. Both are the sandbox's controls, an admin's (registerSandbox guards them):
 * they spend platform reads.
 */
export const sandboxStatsRoutes: FastifyPluginAsync = async (app) => {
  app.post('/_sync-stats', { schema: { hide: true } }, async (_request, reply) => {
    const { db, queue, clock } = app;
    if (!queue) throw new HttpError(503, 'This process has no job queue');
    const queued = await planStatsSyncs({ db, queue }, clock.now());
    queue.nudge(syncProfileStatsJobName);
    return reply.status(202).send({ queued });
  });

  /** `POST /sandbox/_check-health`: the health checks the next planning would make (issue 32.1), now. */
  app.post('/_check-health', { schema: { hide: true } }, async (_request, reply) => {
    const { db, queue, clock } = app;
    if (!queue) throw new HttpError(503, 'This process has no job queue');
    const queued = await planHealthChecks({ db, queue }, clock.now());
    queue.nudge(checkProfileHealthJobName);
    return reply.status(202).send({ queued });
  });
};
