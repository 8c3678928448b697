import crypto from 'node:crypto';
import { t } from '../messages';
import type { Clock } from '../clock';
import type { Database, RunSql } from '../db/connect';
import { HttpError } from '../http-error';
import { StopRequested } from '../platforms/errors';
import type { Platform } from '../platforms/types';
import type { QueueRunner } from '../engine/runner';
import { freshStop, publishJobName } from '../services/publishing/post-lifecycle';

/**
 * A delete is final: deleting a request, a profile or a user first stops the uploads of their
 * posts, so nothing goes live after the answer. The delete writes a stop request per pending post
 * (publish_stops, migration 0021); the worker running one of those posts' publish jobs, in any
 * process, aborts it with StopRequested, the connector makes sure the platform will not post it
 * (see each connector's settleStopped) and the job writes how it ended. The delete waits for every
 * running upload to answer, then deletes, or refuses with a 409 that names what is still in flight.
 * An upload that completes while the delete waits is not recorded as published behind its back:
 * the job finds the stop request when it records the upload (completePost, services/publishing/post-lifecycle.ts)
 * and deletes the platform's copy again, or, where the platform has no delete, records the post and
 * answers 'live' so the delete is refused.
 */

/** How often a worker looks for stop requests for its running uploads, and a delete for their answers. */
export const stopPollMs = 500;
/** How long a delete waits for the uploads it stopped to answer, cleanup calls (at most 10 s) included. */
export const stopWaitMs = 15_000;

/** Which posts a delete covers, as a condition on `p` (video_posts) and `v` (videos) with `$2` the id. */
export const postsOf = {
  request: 'v.request_id = $2',
  profile: 'p.account_id = $2',
  user: '(v.user_id = $2 OR p.account_id IN (SELECT id FROM accounts WHERE user_id = $2))',
} as const;

/**
 * Stops the uploads of the posts `which` selects for `id`, then runs `remove` in one transaction
 * with the withdrawal of the stop requests. Refuses with a Ukrainian 409, deleting nothing, when an
 * upload did not stop in time or had already passed the point where the platform posts it anyway.
 */
export async function deleteStoppingUploads<T>(
  db: Database,
  clock: Clock,
  which: keyof typeof postsOf,
  id: number,
  remove: (run: RunSql) => Promise<T>,
): Promise<T> {
  const stopId = crypto.randomUUID();
  // The posts are locked as their stop requests are written (in id order, as a move locks them),
  // and the job locks its post before it looks for one when it records a completed upload: a post
  // published first is no longer pending here, and one published later sees its stop request.
  const { rows: pending } = await db.sql(
    `INSERT INTO publish_stops (stop_id, post_id, requested_at)
     SELECT $1, p.id, $3 FROM video_posts p JOIN videos v ON v.id = p.video_id WHERE p.status = 'pending' AND ${postsOf[which]}
     ORDER BY p.id FOR UPDATE OF p
     RETURNING post_id`,
    [stopId, id, new Date(clock.now())],
  );
  try {
    const inFlight = pending.length === 0 ? [] : await waitForStops(db, clock, stopId);
    if (inFlight.length > 0) throw new HttpError(409, t.finalDelete.inFlight(await describe(db, inFlight)));
    return await db.transaction(async (run) => {
      const result = await remove(run);
      await run(`DELETE FROM publish_stops WHERE stop_id = $1`, [stopId]);
      return result;
    });
  } finally {
    // After a refusal or a failure the uploads resume: their jobs wait while a stop request stands.
    await db.sql(`DELETE FROM publish_stops WHERE stop_id = $1`, [stopId]);
  }
}

/** The posts still in flight once every stopped upload answered, or the wait ran out. */
async function waitForStops(db: Database, clock: Clock, stopId: string): Promise<number[]> {
  const deadline = clock.now() + stopWaitMs;
  for (;;) {
    // A job that is not active (scheduled, waiting, done) publishes nothing while the request stands.
    const { rows } = await db.sql(
      `SELECT s.post_id, s.outcome,
         EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = $2 AND j.state = 'active'
                 AND j.data->>'postId' = s.post_id::text) AS running
       FROM publish_stops s WHERE s.stop_id = $1`,
      [stopId, publishJobName],
    );
    const unanswered = rows.filter((row) => row.outcome === null && row.running);
    const live = rows.filter((row) => row.outcome === 'live');
    if (unanswered.length === 0 || clock.now() >= deadline) return [...live, ...unanswered].map((row) => row.post_id as number);
    await clock.sleep(stopPollMs);
  }
}

async function describe(db: Database, postIds: number[]): Promise<string[]> {
  const { rows } = await db.sql(
    `SELECT p.platform, v.position, coalesce(r.title, r.source_name, '#' || r.id) AS video,
       a.id AS account_id, coalesce(nullif(a.comments, ''), a.youtube_login, a.instagram_login, '') AS label
     FROM video_posts p JOIN videos v ON v.id = p.video_id JOIN creation_requests r ON r.id = v.request_id
     LEFT JOIN accounts a ON a.id = p.account_id
     WHERE p.id = ANY($1::int[]) ORDER BY p.id`,
    [postIds],
  );
  return rows.map((row) =>
    t.finalDelete.item(
      row.video,
      row.position + 1,
      t.platform.names[row.platform as Platform],
      row.account_id === null ? '—' : t.accounts.optionTitle(row.account_id, row.label),
    ),
  );
}

/** True while a delete asks this post's uploads to stop at `at`: its job waits instead of starting. */
export async function stopRequested(db: Database, postId: number, at: Date): Promise<boolean> {
  const { rows } = await db.sql(`SELECT 1 FROM publish_stops WHERE post_id = $1 AND ${freshStop('$2')} LIMIT 1`, [postId, at]);
  return rows.length > 0;
}

/** What a stopped upload answers the delete waiting for it. */
export async function recordStopOutcome(db: Database, postId: number, outcome: 'stopped' | 'live', at: Date): Promise<void> {
  await db.sql(`UPDATE publish_stops SET outcome = $2 WHERE post_id = $1 AND outcome IS NULL AND ${freshStop('$3')}`, [
    postId,
    outcome,
    at,
  ]);
}

/** Aborts the running publish jobs of `runner` whose posts a delete asks to stop; called every stopPollMs in workers. */
export async function abortStoppedUploads(db: Database, runner: QueueRunner, at: Date): Promise<void> {
  const running = runner.runningJobs();
  if (running.length === 0) return;
  const { rows } = await db.sql(
    `SELECT j.id FROM pgboss.job j
     WHERE j.id = ANY($1::uuid[]) AND EXISTS (
       SELECT 1 FROM publish_stops s WHERE s.post_id::text = j.data->>'postId' AND s.outcome IS NULL AND ${freshStop('$2')})`,
    [running, at],
  );
  for (const row of rows) runner.abort(row.id as string, new StopRequested());
}
