import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/connect';
import { purgeExpiredRefreshTokens } from '../auth/tokens';

export interface JobContext {
  db: Database;
  log: FastifyBaseLogger;
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

export const jobDefinitions: JobDefinition<any>[] = [purgeRefreshTokensJob];
