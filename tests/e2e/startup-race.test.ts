import { afterEach, describe, expect, it } from 'vitest';
import { freshDatabase, postgresUrl, startProcess, type ServerProcess } from './processes';

const secretKey = 'startup-race-secret-key-0123456789abcdef';

describe.skipIf(!postgresUrl)('processes started together against a fresh Postgres', () => {
  let running: ServerProcess[] = [];
  afterEach(async () => {
    await Promise.all(running.map((process) => process.stop()));
    running = [];
  });

  // Three rounds in a row, each its own test on its own fresh database, so a failure names its round.
  // Without the start-up lock the first round already failed (3412336); ten rounds cost CI about 60 s
  // of CPU (thirty server starts) for no failure the first three would not show.
  it.for(Array.from({ length: 3 }, (_, index) => index + 1))('round %i: all three start', async (round) => {
    const database = await freshDatabase();
    try {
      const env = { DATABASE_URL: database.url, SECRET_KEY: secretKey, ADMIN_PASSWORD: 'race-admin-password' };
      running = await Promise.all([startProcess('api', env), startProcess('worker', env), startProcess('worker', env)]);
      const outcomes = await Promise.allSettled(running.map((process) => process.ready()));
      const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : []));
      expect(failures, `round ${round}`).toEqual([]);
    } finally {
      await Promise.all(running.map((process) => process.stop()));
      running = [];
      await database.drop();
    }
  });
});

if (!postgresUrl) console.warn('TEST_DATABASE_URL is not set: the multi-process start-up test is skipped');
