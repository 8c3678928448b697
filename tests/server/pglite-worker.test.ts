import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../server/db/connect';

let db: Database;
beforeAll(async () => {
  db = await connectDatabase({});
  await db.sql('CREATE TABLE items (id int PRIMARY KEY)');
});
afterAll(() => db.close());

it('runs a long query without holding up the event loop', async () => {
  const started = performance.now();
  const query = db.sql('SELECT count(*)::int AS n FROM generate_series(1, 3000000) AS a JOIN generate_series(1, 3) AS b ON true');
  let lateness = 0;
  for (let tick = 0; tick < 5; tick++) {
    const before = performance.now();
    await sleep(10);
    lateness = Math.max(lateness, performance.now() - before - 10);
  }
  const { rows } = await query;
  expect(rows[0].n).toBe(9_000_000);
  expect(performance.now() - started).toBeGreaterThan(100);
  expect(lateness).toBeLessThan(150);
});

it('keeps other statements out of a transaction until it ends', async () => {
  const seen: string[] = [];
  let inserted!: () => void;
  const insertedRow = new Promise<void>((resolve) => (inserted = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const failed = db
    .transaction(async (sql) => {
      await sql('INSERT INTO items VALUES ($1)', [1]);
      inserted();
      await released;
      seen.push('transaction');
      throw new Error('undo');
    })
    .catch((error: Error) => error.message);
  // Sent while the transaction holds its row: it must wait for the ROLLBACK, never run inside it.
  await insertedRow;
  const outside = db.sql('SELECT count(*)::int AS n FROM items').then(({ rows }) => {
    seen.push('outside');
    return rows[0].n;
  });
  release();
  expect(await failed).toBe('undo');
  expect(await outside).toBe(0);
  expect(seen).toEqual(['transaction', 'outside']);
});
