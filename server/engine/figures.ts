import type { Database } from '../db/connect';

export interface QueueFigures {
  /** Jobs whose time has come and that no worker has started yet. */
  due: number;
  /** Jobs waiting for a later time. */
  scheduled: number;
  active: number;
  /** How long the oldest due job has waited past its time, in seconds; null when none is due. */
  oldestDueSeconds: number | null;
}

export interface EngineFigures {
  queues: Record<string, QueueFigures>;
  /** Worker processes that beat within WORKER_DEAD_AFTER_SECONDS. */
  liveWorkers: number;
}

/** What /readyz tells about the engine, across every process sharing the database. */
export async function engineFigures(db: Database, deadAfterSeconds: number): Promise<EngineFigures> {
  // On the database's now(): pg-boss stamps start_after and judges what is due by it, and the heartbeats beat by it (liveness.ts).
  const { rows } = await db.sql(
    `SELECT name,
       count(*) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())::int AS due,
       count(*) FILTER (WHERE state IN ('created', 'retry') AND start_after > now())::int AS scheduled,
       count(*) FILTER (WHERE state = 'active')::int AS active,
       extract(epoch FROM now() - min(start_after) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now()))::float8 AS oldest
     FROM pgboss.job WHERE state < 'completed' GROUP BY name ORDER BY name`,
    [],
  );
  const { rows: workers } = await db.sql(
    `SELECT count(*)::int AS n FROM engine_workers WHERE role = 'worker' AND last_seen >= now() - make_interval(secs => $1)`,
    [deadAfterSeconds],
  );
  const queues: Record<string, QueueFigures> = {};
  for (const row of rows) {
    queues[row.name] = {
      due: row.due,
      scheduled: row.scheduled,
      active: row.active,
      oldestDueSeconds: row.oldest === null ? null : Math.round(row.oldest * 10) / 10,
    };
  }
  return { queues, liveWorkers: workers[0].n };
}
