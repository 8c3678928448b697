import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { connectDatabase, type Database } from '../server/db/connect';
import { migrate } from '../server/db/migrate';

export const requests = 50_000;
export const profiles = 50;

export interface Seeded {
  operator: number;
  admin: number;
  account: number;
}

/** One operator (and an admin) with 50 000 published creation requests of 2 videos each over 50 profiles. */
export async function seed(db: Database): Promise<Seeded> {
  const started = performance.now();
  const { rows: users } = await db.sql(
    `INSERT INTO users (login, password_hash, role) VALUES ('operator', 'x', 'user'), ('chief', 'x', 'admin') RETURNING id`,
    [],
  );
  const operator = users[0].id as number;
  const admin = users[1].id as number;
  await db.sql(`INSERT INTO account_groups (user_id, name) SELECT $1, 'group ' || g FROM generate_series(1, 5) AS g`, [operator]);
  const { rows: accounts } = await db.sql(
    `INSERT INTO accounts (user_id, proxy, comments, is_active_youtube, group_id)
     SELECT $1, 'http://127.0.0.1:9', 'profile ' || g, true, (SELECT min(id) FROM account_groups) + g % 5
       FROM generate_series(1, $2) AS g RETURNING id`,
    [operator, profiles],
  );
  await db.sql(`INSERT INTO tag_sets (user_id, name, tags) SELECT $1, 'tags ' || g, ARRAY['#a', '#b'] FROM generate_series(1, 12) AS g`, [
    operator,
  ]);
  await db.sql(
    `INSERT INTO photos (user_id, file_key, content_type, width, height)
     SELECT $1, 'photos/' || g || '.jpg', 'image/jpeg', 1080, 1920 FROM generate_series(1, 12) AS g`,
    [operator],
  );
  await db.sql(
    `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, title, published_at, created_at)
     SELECT gen_random_uuid(), $1, 'success', 2, 'source', 'title', now() - ($2 - g) * interval '1 minute', now() - ($2 - g) * interval '1 minute'
       FROM generate_series(1, $2) AS g ORDER BY g`,
    [operator, requests],
  );
  const firstAccount = accounts[0].id as number;
  await db.sql(
    `INSERT INTO videos (request_id, user_id, account_id, position, status, url_youtube, views, date)
     SELECT r.id, r.user_id, $1 + (r.id * 2 + p) % $2, p,
            CASE WHEN r.id % 97 = 0 THEN 'error' WHEN r.id % 89 = 0 THEN 'publication' ELSE 'success' END,
            'https://youtu.be/x', r.id, r.published_at
       FROM creation_requests AS r CROSS JOIN generate_series(0, 1) AS p ORDER BY r.id, p`,
    [firstAccount, profiles],
  );
  await db.sql('VACUUM ANALYZE');
  console.error(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { operator, admin, account: firstAccount };
}

/** Runs `work` on a new, migrated Postgres database `name` on the local server, dropped afterwards. */
export async function withFreshPostgres<T>(name: string, work: (db: Database) => Promise<T>): Promise<T> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await connectDatabase({ databaseUrl: url.toString() });
  try {
    await migrate(db);
    return await work(db);
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/**
 * Runs `measure` on a new, migrated PGlite, then on a new Postgres `bench_${name}` when the local
 * server answers; without it, the figures are PGlite's alone and the bench says so.
 */
export async function onEachDatabase(name: string, measure: (label: string, db: Database) => Promise<void>) {
  const pgliteDir = await fs.mkdtemp(path.join(os.tmpdir(), `shorts-bench-${name}-`));
  const pgliteDb = await connectDatabase({ dataDir: pgliteDir });
  try {
    await migrate(pgliteDb);
    await measure('PGlite', pgliteDb);
  } finally {
    await pgliteDb.close();
    await fs.rm(pgliteDir, { recursive: true, force: true });
  }

  try {
    await withFreshPostgres(`bench_${name}`, (db) => measure('Postgres', db));
  } catch (error) {
    console.log(`\nPostgres did not answer (${(error as Error).message}): measured on PGlite only`);
  }
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A measure's rounds as the benches print them: each round's milliseconds, then their median. */
export const perRound = (values: number[]) =>
  `ms per round: ${values.map((ms) => ms.toFixed(0)).join(', ')}  median ${median(values).toFixed(0)}`;
