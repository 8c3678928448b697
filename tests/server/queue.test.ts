import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import pino from 'pino';
import { startQueue, type Queue } from '../../server/jobs/queue';
import { alertDigestJob, planHealthChecksJob, purgeRefreshTokensJob, syncStatsJob } from '../../server/jobs/definitions';
import { databaseKinds, freshDatabase, testMedia, testPlatformSettings, testTokenSettings } from './helpers';
import type { Database } from '../../server/db/connect';
import { engineSettings } from '../../server/config';

for (const kind of databaseKinds()) {
  let db: Database;
  let drop: () => Promise<void>;
  let queue: Queue;

  beforeAll(async () => {
    ({ db, drop } = await freshDatabase(kind));
    queue = await startQueue({
      db,
      log: pino({ level: 'silent' }),
      work: true,
      engine: engineSettings(),
      context: {
        db,
        media: testMedia(path.join(os.tmpdir(), 'shorts-queue-unused-media')),
        keys: testTokenSettings().keys,
        platforms: testPlatformSettings(),
      },
    });
  });

  afterAll(async () => {
    await queue.stop({ graceful: false, wait: true });
    await drop();
  });

  it(`[${kind}] schedules the nightly refresh-token purge, the statistics sync, the health checks and the digest in Europe/Kiev time`, async () => {
    // pg-boss returns the stored row, whose `timezone` column its types do not declare.
    const schedules = (await queue.getSchedules()) as Array<{ name: string; cron: string; timezone: string }>;
    expect(schedules.map(({ name, cron, timezone }) => ({ name, cron, timezone })).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      // The morning digest at 09:00 Kyiv; the health checks planned every five minutes.
      { name: alertDigestJob.name, cron: '0 9 * * *', timezone: 'Europe/Kiev' },
      { name: planHealthChecksJob.name, cron: '*/5 * * * *', timezone: 'Europe/Kiev' },
      { name: purgeRefreshTokensJob.name, cron: purgeRefreshTokensJob.cron, timezone: 'Europe/Kiev' },
      { name: syncStatsJob.name, cron: '*/15 * * * *', timezone: 'Europe/Kiev' },
    ]);
  });

  it(`[${kind}] runs the purge as a real job through the queue`, async () => {
    const { rows } = await db.sql(`INSERT INTO users (login, password_hash) VALUES ('u', 'x') RETURNING id`, []);
    await db.sql(
      `INSERT INTO refresh_tokens (user_id, family_id, token_hash, expires_at) VALUES
         ($1, gen_random_uuid(), 'expired', now() - interval '1 hour'),
         ($1, gen_random_uuid(), 'live', now() + interval '1 day')`,
      [rows[0].id],
    );
    const jobId = await queue.send(purgeRefreshTokensJob.name, {});
    expect(jobId).toBeTruthy();
    await vi.waitFor(
      async () => {
        const job = await queue.getJobById(purgeRefreshTokensJob.name, jobId!);
        expect(job?.state).toBe('completed');
      },
      { timeout: 15_000, interval: 200 },
    );
    const left = await db.sql('SELECT token_hash FROM refresh_tokens', []);
    expect(left.rows.map((row) => row.token_hash)).toEqual(['live']);
  });
}
