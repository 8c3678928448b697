import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import PgBoss from 'pg-boss';
import pino from 'pino';
import type { Database } from '../../server/db/connect';
import { watchDueJobs } from '../../server/engine/due-jobs';
import { databaseKinds, freshDatabase } from './helpers';

for (const kind of databaseKinds()) {
  let db: Database;
  let drop: () => Promise<void>;
  let boss: PgBoss;

  beforeAll(async () => {
    ({ db, drop } = await freshDatabase(kind));
    boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => db.sql(text, values) },
      supervise: false,
      schedule: false,
    });
    await boss.start();
    for (const name of ['due-now', 'due-later', 'running']) await boss.createQueue(name);
  });

  afterAll(async () => {
    await boss.stop({ graceful: false, wait: true });
    await drop();
  });

  it(`[${kind}] wakes only the runners of queues with a job due, each at its own pace`, async () => {
    await boss.send('due-now', {});
    await boss.send('due-later', {}, { startAfter: 3600 });
    await boss.send('running', {});
    // A job already taken is not due again.
    expect(await boss.fetch('running')).toHaveLength(1);

    const woken = { 'due-now': 0, 'due-later': 0, running: 0 };
    const asked = { 'due-now': 0, 'due-later': 0, running: 0 };
    const counting: Database = {
      ...db,
      sql: (text, values) => {
        for (const name of (values?.[0] ?? []) as Array<keyof typeof asked>) asked[name] += 1;
        return db.sql(text, values);
      },
    };
    const started = performance.now();
    const watcher = watchDueJobs({
      db: counting,
      log: pino({ level: 'silent' }),
      queues: (['due-now', 'due-later', 'running'] as const).map((name) => ({
        name,
        everySeconds: name === 'due-now' ? 0.1 : 1,
        wake: () => (woken[name] += 1),
      })),
    });
    try {
      await vi.waitFor(() => expect(woken['due-now']).toBeGreaterThanOrEqual(5), { timeout: 10_000 });
    } finally {
      await watcher.stop();
    }
    const seconds = (performance.now() - started) / 1000;
    expect({ later: woken['due-later'], running: woken.running }).toEqual({ later: 0, running: 0 });
    // The slower queues are asked about once a second, not at every tick.
    expect(asked['due-later']).toBeGreaterThanOrEqual(1);
    expect(asked['due-later']).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    expect(asked['due-now']).toBeGreaterThan(asked['due-later']);

    // Once the job is taken, its queue is quiet too.
    expect(await boss.fetch('due-now')).toHaveLength(1);
    const before = { woken: woken['due-now'], asked: asked['due-now'] };
    const again = watchDueJobs({
      db: counting,
      log: pino({ level: 'silent' }),
      queues: [{ name: 'due-now', everySeconds: 0.1, wake: () => (woken['due-now'] += 1) }],
    });
    try {
      await vi.waitFor(() => expect(asked['due-now']).toBeGreaterThanOrEqual(before.asked + 3), { timeout: 10_000 });
    } finally {
      await again.stop();
    }
    expect(woken['due-now']).toBe(before.woken);
  });
}
