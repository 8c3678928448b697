import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/connect';
import { processId } from '../process-id';
import { systemClock } from '../clock';
import { waitingFor, type Liveness } from './liveness';

/**
 * Runs one pg-boss queue's jobs in this process: `concurrency` at once, each on its own, fetched
 * with pg-boss's own fetch/complete/fail.
 *
 * Why not pg-boss's work(): a work() worker hands its handler one batch and fetches again only
 * once the whole batch is settled, so one slow upload would hold back the jobs fetched with it;
 * and N work() workers per queue poll N times as often. Here one loop per queue asks for exactly
 * as many jobs as it has free slots, and asks again at once when a slot frees or a full batch came
 * back, so a burst of due jobs starts together. Idle, it waits to be woken: by a nudge when this
 * process commits one of its jobs, or by the process's one poll for due jobs (due-jobs.ts).
 */
export interface RunnerOptions {
  boss: PgBoss;
  db: Database;
  log: FastifyBaseLogger;
  name: string;
  concurrency: number;
  handle(job: FetchedJob, signal: AbortSignal): Promise<void>;
  /** Abort running jobs as soon as stop() is called: their handlers end early and keep what they did. */
  stopsAtShutdown?: boolean;
  /** Told when a failed job was put back for a retry, with the time pg-boss's backoff chose. */
  retried?(job: FetchedJob, at: Date): Promise<void>;
}

export interface FetchedJob {
  id: string;
  name: string;
  data: unknown;
  expireInSeconds: number;
  retryCount: number;
  retryLimit: number;
  startAfter: Date;
}

/**
 * Thrown by a handler that cannot run yet: the job waits, no retry spent. With `lease`, the job
 * waits for that lease and is woken as soon as its holder releases it (`seconds` is then only the
 * fallback should the holder die).
 */
export class DeferJob extends Error {
  constructor(
    readonly seconds: number,
    readonly lease?: string,
  ) {
    super(`deferred for ${seconds} s`);
  }
}

/** How many start delays each queue keeps for its figures. */
const latenessKept = 1000;

export class QueueRunner {
  private readonly running = new Map<string, AbortController>();
  /** Jobs no longer this process's to finish: taken for dead, or handed back at shutdown. */
  private readonly lost = new Set<string>();
  private stopping = false;
  private wake: (() => void) | null = null;
  /**
   * Set by every wake-up, even one that comes while the loop is fetching and has no `wake` to call:
   * lost, a stop() during a fetch would leave the loop asleep for good and stop() waiting on it.
   */
  private woken = false;
  private readonly loop: Promise<void>;
  /** Milliseconds between each recent job's due time and its start, oldest first. */
  readonly lateness: number[] = [];

  constructor(private readonly options: RunnerOptions) {
    this.loop = this.run();
  }

  private async run() {
    const { boss, log, name, concurrency } = this.options;
    while (!this.stopping) {
      this.woken = false;
      const free = concurrency - this.running.size;
      let fetched = 0;
      if (free > 0) {
        try {
          const jobs = (await boss.fetch(name, { batchSize: free, includeMetadata: true })) as unknown as FetchedJob[];
          fetched = jobs.length;
          for (const job of jobs) {
            // Only bookkeeping can fail here (the database gone mid-verdict); the sweeper puts such a job back.
            this.runJob(job).catch((error) => log.error({ err: error, queue: name, jobId: job.id }, 'recording a job’s outcome failed'));
          }
        } catch (error) {
          log.error({ err: error, queue: name }, 'fetching jobs failed');
        }
      }
      if ((free > 0 && fetched === free) || this.woken) continue;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  private async runJob(job: FetchedJob) {
    const { boss, db, log, name } = this.options;
    const controller = new AbortController();
    this.running.set(job.id, controller);
    // pg-boss stamps start_after with the database's own time, so lateness is measured on the system clock too.
    const lateness = systemClock.now() - new Date(job.startAfter).getTime();
    this.lateness.push(lateness);
    if (this.lateness.length > latenessKept) this.lateness.splice(0, this.lateness.length - latenessKept);
    const jobLog = log.child({ queue: name, jobId: job.id });
    if (job.retryCount > 0) jobLog.info({ retry: job.retryCount, of: job.retryLimit, latenessMs: lateness }, 'job retried');
    const expiry = setTimeout(() => controller.abort(new Error(`expired after ${job.expireInSeconds} s`)), job.expireInSeconds * 1000);
    try {
      // Stamped on the database's now(), as pg-boss's started_on it stands beside.
      await db.sql(
        `INSERT INTO engine_jobs (job_id, queue, worker_id) VALUES ($1, $2, $3)
         ON CONFLICT (job_id) DO UPDATE SET worker_id = EXCLUDED.worker_id, started_at = now()`,
        [job.id, name, processId],
      );
      await this.options.handle(job, controller.signal);
      if (!this.lost.has(job.id)) await boss.complete(name, job.id);
    } catch (error) {
      if (this.lost.has(job.id)) return;
      if (error instanceof DeferJob) {
        await putBack(db, [job.id], error.seconds, error.lease);
        return;
      }
      const expired = controller.signal.aborted && !this.stopping;
      if (expired) jobLog.warn({ err: error }, 'job expired: stopped after its time ran out');
      await boss.fail(name, job.id, { message: (error as Error).message });
      if (job.retryCount < job.retryLimit) {
        jobLog.warn({ err: error, retry: job.retryCount + 1, of: job.retryLimit }, 'job failed; pg-boss retries it after a backoff');
        if (this.options.retried) {
          const { rows } = await db.sql(`SELECT start_after FROM pgboss.job WHERE id = $1 AND state = 'retry'`, [job.id]);
          if (rows[0]) await this.options.retried(job, new Date(rows[0].start_after));
        }
      } else {
        jobLog.error({ err: error }, 'job failed after its last retry');
      }
    } finally {
      clearTimeout(expiry);
      this.running.delete(job.id);
      this.lost.delete(job.id);
      // The slot is free once the job has its verdict: the next due job need not wait for this row.
      this.rouse();
      await db.sql(`DELETE FROM engine_jobs WHERE job_id = $1 AND worker_id = $2`, [job.id, processId]).catch((error) => {
        jobLog.warn({ err: error }, 'could not clear the running-job row');
      });
    }
  }

  /** A job of this queue is due: fetch now if a slot is free. */
  nudge() {
    this.rouse();
  }

  private rouse() {
    this.woken = true;
    this.wake?.();
  }

  /** The ids of the jobs this runner is running now. */
  runningJobs(): string[] {
    return [...this.running.keys()];
  }

  /** Aborts one running job with `reason`, which its handler reads to tell why (a stop request, see publish-stops.ts). */
  abort(id: string, reason: Error) {
    this.running.get(id)?.abort(reason);
  }

  /** Another process took this one for dead and already handed its jobs on: stop them without a verdict. */
  abandonAll(reason: string) {
    for (const [id, controller] of this.running) {
      this.lost.add(id);
      controller.abort(new Error(reason));
    }
  }

  /** Stops fetching, lets running jobs finish for up to `timeoutMs`, then hands the rest back to the queue. */
  async stop(timeoutMs: number) {
    this.stopping = true;
    this.rouse();
    await this.loop;
    if (this.options.stopsAtShutdown) {
      for (const controller of this.running.values()) controller.abort(new Error('the worker is shutting down'));
    }
    const deadline = performance.now() + timeoutMs;
    while (this.running.size > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const left = [...this.running.keys()];
    if (left.length === 0) return;
    this.abandonAll('the worker is shutting down');
    await putBack(this.options.db, left, 0);
    this.options.log.info({ queue: this.options.name, jobs: left }, 'jobs handed back to the queue at shutdown');
  }
}

/**
 * Returns active jobs to the queue to start after `seconds`, as if never started, so no retry is
 * spent: for a job that had to wait (a busy profile) or a worker shutting down. A job waiting for
 * a lease is labelled with it in pg-boss's singleton_key, a column standard-policy queues (those of
 * every job that defers) never read, so releasing the lease can wake exactly its waiters.
 */
export async function putBack(db: Database, ids: string[], seconds: number, lease?: string): Promise<void> {
  // On the database's now(), which pg-boss compares start_after with: an app clock ahead would never come due.
  await db.sql(
    `UPDATE pgboss.job SET state = 'created', started_on = NULL, start_after = now() + make_interval(secs => $2),
       singleton_key = coalesce($3, singleton_key)
     WHERE id = ANY($1::uuid[]) AND state = 'active'`,
    [ids, seconds, lease === undefined ? null : waitingFor(lease)],
  );
}

/**
 * Puts back active jobs whose process is dead or unknown, once they are older than the time a
 * process needs to be taken for dead (a just-fetched job is not registered yet). A job that has
 * used its retries is failed instead, which sends it to its dead-letter queue.
 */
export async function recoverOrphans(db: Database, boss: PgBoss, log: FastifyBaseLogger, names: string[], { deadAfterSeconds }: Liveness) {
  // pg-boss's started_on and start_after, and the heartbeats (liveness.ts), all go by the database's now().
  const orphan = `j.name = ANY($1::text[]) AND j.state = 'active' AND j.started_on < now() - make_interval(secs => $2)
    AND NOT EXISTS (
      SELECT 1 FROM engine_jobs e JOIN engine_workers w ON w.id = e.worker_id
      WHERE e.job_id = j.id AND w.last_seen >= now() - make_interval(secs => $2))`;
  const { rows: recovered } = await db.sql(
    `UPDATE pgboss.job j SET state = 'retry', start_after = now()
     WHERE ${orphan} AND j.retry_count < j.retry_limit RETURNING j.id, j.name, j.retry_count`,
    [names, deadAfterSeconds],
  );
  for (const job of recovered) log.warn({ queue: job.name, jobId: job.id, retry: job.retry_count + 1 }, 'job recovered from a dead worker');
  const { rows: spent } = await db.sql(`SELECT j.id, j.name FROM pgboss.job j WHERE ${orphan}`, [names, deadAfterSeconds]);
  for (const job of spent) {
    await boss.fail(job.name, job.id, { message: 'its worker died on the last retry' });
    log.error({ queue: job.name, jobId: job.id }, 'job of a dead worker had no retries left: failed');
  }
  return recovered.length + spent.length;
}
