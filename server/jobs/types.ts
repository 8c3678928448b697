import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Keys } from '../auth/keys';
import type { EngineSettings } from './engine-settings';
import type { Database } from '../db/connect';
import type { MediaServices } from '../media/services';
import type { PlatformSettings } from '../platforms/profile-context';

// What a job's handler is given and how a queue is declared, apart from the list of definitions
// (definitions.ts), which imports the handlers: the handlers import these, not that list.

export interface JobContext {
  db: Database;
  log: FastifyBaseLogger;
  media: MediaServices;
  keys: Keys;
  platforms: PlatformSettings;
  /** The queue the job came from, for jobs that schedule others. */
  queue: PgBoss;
  /**
   * Aborted when the job expires, when this worker was taken for dead and the job handed on, and
   * for jobs that stop at shutdown (JobDefinition.stopsAtShutdown) when the worker shuts down.
   */
  signal: AbortSignal;
  /** The pg-boss job being run. */
  jobId: string;
  engine: EngineSettings;
}

export interface JobDefinition<Data = unknown> {
  name: string;
  queueOptions?: Omit<PgBoss.Queue, 'name'>;
  /** A cron line in Europe/Kiev time, for jobs that repeat; a function when it depends on the settings. */
  cron?: string | ((platforms: PlatformSettings) => string);
  /** Jobs of this queue one process runs at once; 1 when absent. */
  concurrency?: (engine: EngineSettings) => number;
  /** Polled every JOB_POLL_SECONDS, as its jobs must start on time; others are polled every 5 s. */
  punctual?: boolean;
  /**
   * Its handler stops at its signal, keeping what it did, and leaves the rest for the next run: a
   * shutting-down worker aborts it at once instead of waiting out the grace and handing it back.
   */
  stopsAtShutdown?: boolean;
  handle(data: Data, context: JobContext): Promise<void>;
  /** A failed run was put back for another try at `at` (pg-boss's retry backoff). */
  retried?(data: Data, at: Date, context: Pick<JobContext, 'db'>): Promise<void>;
}
