import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/connect';
import { processId } from '../process-id';

/**
 * Liveness of the processes sharing the database. Each beats every `heartbeatSeconds`; a row not
 * renewed for `deadAfterSeconds` is a dead process. pg-boss 10 cannot extend a running job's
 * expiry, so this, not a long expiry, is what hands a dead worker's jobs to another in seconds.
 * Liveness is on the database's now(), not the app's clock: the beats run on real timers, and
 * recoverOrphans weighs them against pg-boss's started_on, which pg-boss stamps with that now().
 */
export interface Liveness {
  heartbeatSeconds: number;
  deadAfterSeconds: number;
}

export async function registerProcess(db: Database, role: string): Promise<void> {
  await db.sql(
    `INSERT INTO engine_workers (id, host, pid, role) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET last_seen = now()`,
    [processId, os.hostname(), process.pid, role],
  );
}

/** Renews this process's row; false when another process already took it for dead and removed it. */
export async function beat(db: Database): Promise<boolean> {
  const { rows } = await db.sql(`UPDATE engine_workers SET last_seen = now() WHERE id = $1 RETURNING id`, [processId]);
  return rows.length > 0;
}

export async function unregisterProcess(db: Database): Promise<void> {
  await db.sql(`DELETE FROM engine_workers WHERE id = $1`, [processId]);
}

/** Removes the rows of dead processes (their job and lease rows go with them) and returns their ids. */
export async function removeDeadProcesses(db: Database, { deadAfterSeconds }: Liveness): Promise<string[]> {
  const { rows } = await db.sql(
    `DELETE FROM engine_workers WHERE last_seen < now() - make_interval(secs => $1) AND id <> $2 RETURNING id`,
    [deadAfterSeconds, processId],
  );
  return rows.map((row) => row.id as string);
}

/** The ids of processes alive now, for telling whose scratch folders may be removed. */
export async function liveProcesses(db: Database, { deadAfterSeconds }: Liveness): Promise<Set<string>> {
  const { rows } = await db.sql(`SELECT id FROM engine_workers WHERE last_seen >= now() - make_interval(secs => $1)`, [deadAfterSeconds]);
  return new Set([processId, ...rows.map((row) => row.id as string)]);
}

/**
 * Takes `key` for this process's job, or takes it over from a dead holder; false while a live
 * process holds it. Survives crashes: a dead holder's row stops being live within seconds.
 */
export async function tryLease(db: Database, key: string, jobId: string, { deadAfterSeconds }: Liveness): Promise<boolean> {
  const { rows } = await db.sql(
    `INSERT INTO engine_leases (key, worker_id, job_id) VALUES ($1, $2, $3)
     ON CONFLICT (key) DO UPDATE SET worker_id = EXCLUDED.worker_id, job_id = EXCLUDED.job_id, acquired_at = now()
     WHERE engine_leases.job_id = EXCLUDED.job_id
        OR NOT EXISTS (
          SELECT 1 FROM engine_workers w
          WHERE w.id = engine_leases.worker_id AND w.last_seen >= now() - make_interval(secs => $4))
     RETURNING key`,
    [key, processId, jobId, deadAfterSeconds],
  );
  return rows.length > 0;
}

/** The label in pg-boss's singleton_key of a job put back to wait for `lease` (see runner.ts putBack). */
export function waitingFor(lease: string): string {
  return `waiting-for:${lease}`;
}

/** Frees `key` and makes the jobs of `queue` that wait for it (see DeferJob) due at once. */
export async function releaseLease(db: Database, key: string, jobId: string, queue: string): Promise<void> {
  await db.sql(`DELETE FROM engine_leases WHERE key = $1 AND job_id = $2`, [key, jobId]);
  // pg-boss compares start_after with its database's now(): "due at once" is on that time, whatever the app's clock says.
  await db.sql(`UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND singleton_key = $2 AND state = 'created'`, [
    queue,
    waitingFor(key),
  ]);
}

/** Beats on a timer until stopped; `onTakenForDead` runs when the row was gone, after it is back. */
export function startHeartbeat(
  db: Database,
  log: FastifyBaseLogger,
  role: string,
  liveness: Liveness,
  onTakenForDead: () => void,
): { stop(): void } {
  const timer = setInterval(() => {
    beat(db)
      .then(async (alive) => {
        if (alive) return;
        log.error('this process was taken for dead (its heartbeat stalled); its running jobs were handed to others');
        await registerProcess(db, role);
        onTakenForDead();
      })
      .catch((error) => log.warn({ err: error }, 'heartbeat failed'));
  }, liveness.heartbeatSeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
