/**
 * npm run bench:sign-in — a spray of 5 000 failed sign-ins with a fresh random login each, as the
 * attacker of the sign-in policy's issue sent them, against an in-memory PGlite: how long it takes,
 * how much login_failures and the database grow (the policy keeps that under 512 KiB), and whether
 * a known browser still signs in at once. Moved out of tests/server/sign-in-policy.test.ts, which
 * keeps a short spray that checks the same behaviour.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app';
import { deriveKeys } from '../server/auth/keys';
import { hashPassword } from '../server/auth/passwords';
import { systemClock } from '../server/clock';
import { loadConfig } from '../server/config';
import { connectDatabase } from '../server/db/connect';
import { migrate } from '../server/db/migrate';
import { mediaServices } from '../server/media/services';

const attempts = Number(process.env.SPRAY_ATTEMPTS ?? 5000);

const db = await connectDatabase({});
await migrate(db);
const keys = deriveKeys(crypto.randomBytes(32).toString('hex'));
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-bench-sign-in-'));
const app = await buildApp({
  clock: systemClock,
  db,
  keys,
  tokenSettings: { keys, accessTokenTtlSeconds: 900, refreshTokenTtlDays: 30 },
  queue: null,
  media: mediaServices({ ...loadConfig({}, []), dataDir }),
});
const signIn = (login: string, password: string, cookie?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { login, password },
    remoteAddress: '10.7.7.7',
    headers: cookie ? { cookie } : {},
  });
const size = async () => {
  const { rows } = await db.sql(
    `SELECT pg_total_relation_size('login_failures')::bigint AS failures, pg_database_size(current_database())::bigint AS database`,
    [],
  );
  return { failures: Number(rows[0].failures), database: Number(rows[0].database) };
};

await db.sql(`INSERT INTO users (login, password_hash, role) VALUES ('admin', $1, 'admin')`, [await hashPassword('admin-password')]);
const device = String((await signIn('admin', 'admin-password')).headers['set-cookie']).split(';')[0]!;
const before = await size();
const started = Date.now();
const statuses = new Set<number>();
for (let attempt = 0; attempt < attempts; attempt++) {
  statuses.add((await signIn(`guess-${crypto.randomBytes(6).toString('hex')}`, 'wrong-pass')).statusCode);
}
const sprayMs = Date.now() - started;
const after = await size();
const rows = (await db.sql('SELECT count(*)::int AS n FROM login_failures', [])).rows[0].n;
const signInStarted = Date.now();
const known = await signIn('admin', 'admin-password', device);
console.log(`${attempts} failed sign-ins in ${sprayMs} ms (answers ${[...statuses].sort().join(', ')}): ${rows} rows`);
console.log(
  `login_failures grew ${after.failures - before.failures} B to ${after.failures} B, the database ${after.database - before.database} B (limit 524288 B each)`,
);
console.log(`the known browser then signed in: ${known.statusCode} in ${Date.now() - signInStarted} ms`);
await app.close();
await db.close();
await fs.rm(dataDir, { recursive: true, force: true });
