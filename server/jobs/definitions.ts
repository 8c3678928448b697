import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/connect';
import { purgeExpiredRefreshTokens } from '../auth/tokens';
import type { MediaServices } from '../media/services';
import { markRenderFailed, renderFailedJobName, renderJobName, renderRequest, type RenderJobData } from './render';

export interface JobContext {
  db: Database;
  log: FastifyBaseLogger;
  media: MediaServices;
}

export interface JobDefinition<Data = unknown> {
  name: string;
  queueOptions?: Omit<PgBoss.Queue, 'name'>;
  /** A cron line in Europe/Kiev time, for jobs that repeat. */
  cron?: string;
  handle(data: Data, context: JobContext): Promise<void>;
}

export const purgeRefreshTokensJob: JobDefinition = {
  name: 'purge-refresh-tokens',
  cron: '15 3 * * *',
  async handle(_data, { db, log }) {
    const removed = await purgeExpiredRefreshTokens(db);
    log.info({ removed }, 'purged expired refresh tokens');
  },
};

export const renderFailedJob: JobDefinition<RenderJobData> = {
  name: renderFailedJobName,
  async handle(data, context) {
    await markRenderFailed(data, context);
    context.log.warn({ requestId: data.requestId }, 'render gave up after its retries');
  },
};

export const renderJob: JobDefinition<RenderJobData> = {
  name: renderJobName,
  queueOptions: {
    retryLimit: 2,
    retryDelay: 30,
    retryBackoff: true,
    deadLetter: renderFailedJobName,
  },
  async handle(data, context) {
    const started = Date.now();
    await renderRequest(data, context);
    context.log.info({ requestId: data.requestId, ms: Date.now() - started }, 'rendered');
  },
};

// The dead-letter queue must exist before the queue that points at it.
export const jobDefinitions: JobDefinition<any>[] = [purgeRefreshTokensJob, renderFailedJob, renderJob];
