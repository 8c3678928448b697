import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/connect';
import { jobDefinitions, type JobContext } from './definitions';

export type Queue = PgBoss;

export interface QueueOptions {
  db: Database;
  log: FastifyBaseLogger;
  /** Worker processes run handlers, cron schedules and pg-boss maintenance; API processes only send. */
  work: boolean;
  context: Omit<JobContext, 'log' | 'queue'>;
}

/** Starts pg-boss inside the app's own database (PGlite or Postgres), in its own `pgboss` schema. */
export async function startQueue({ db, log, work, context }: QueueOptions): Promise<Queue> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => db.sql(text, values) },
    supervise: work,
    schedule: work,
    migrate: true,
  });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  await boss.start();
  for (const definition of jobDefinitions) {
    await boss.createQueue(definition.name, { name: definition.name, ...definition.queueOptions });
  }
  if (work) {
    for (const definition of jobDefinitions) {
      if (definition.cron) {
        const cron = typeof definition.cron === 'string' ? definition.cron : definition.cron(context.platforms);
        await boss.schedule(definition.name, cron, {}, { tz: 'Europe/Kiev' });
      }
      await boss.work(definition.name, async (jobs) => {
        for (const job of jobs) {
          await definition.handle(job.data as never, { ...context, queue: boss, log: log.child({ job: definition.name, jobId: job.id }) });
        }
      });
    }
  }
  return boss;
}
