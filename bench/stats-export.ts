/**
 * Statistics export benchmark (issue 32.5): GET /api/stats/export.csv of BENCH_EXPORT_VIDEOS
 * YouTube posts (1 000) × BENCH_EXPORT_DAYS Kyiv days (300), 300 000 rows, on Postgres (a fresh
 * `bench_stats_export` on 127.0.0.1:5432, or BENCH_DATABASE_URL's server) and on PGlite.
 *
 * The database is seeded once; each export is then measured in a process of its own, so what an
 * earlier one left in memory cannot hide or inflate it. That process opens the database (PGlite's
 * thread runs inside it), starts the app, exports the last day once untimed (code loaded and
 * compiled), collects garbage, then samples its RSS every 20 ms while a client in the same process
 * downloads the whole period and keeps none of it: as fast as it can, or at BENCH_EXPORT_SLOW_MBPS
 * (1) MB/s, slower than the server writes, so the server must wait for it; and once more after an
 * untimed export of the whole period, whose pages PGlite then has in its cache (in this process,
 * where Postgres keeps its cache in the server's). It prints the peak above the RSS just before. Beside them, the baseline: the same rows read in one statement and joined
 * into one string, as an export that is not streamed would hold them. BENCH_EXPORT_ROUNDS (3)
 * rounds, the modes interleaved.
 *
 *   npm run bench:export
 *   BENCH_EXPORT_VIDEOS=100 BENCH_EXPORT_ROUNDS=1 BENCH_PGLITE=0 npm run bench:export   (a quick look, Postgres only)
 *   BENCH_EXPORT_VIDEOS=3000 BENCH_EXPORT_ROUNDS=1 BENCH_POSTGRES=0 npm run bench:export   (900 000 rows, PGlite only)
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildApp } from '../server/app';
import { deriveKeys } from '../server/auth/keys';
import { startSession } from '../server/auth/tokens';
import { systemClock } from '../server/clock';
import { loadConfig } from '../server/config';
import { connectDatabase, type ConnectOptions, type Database } from '../server/db/connect';
import { migrate } from '../server/db/migrate';
import { mediaServices } from '../server/media/services';
import { statsCsvChunks } from '../server/services/statistics/stats-export';
import { seedMany } from '../tests/server/stats-seed';

const videos = Number(process.env.BENCH_EXPORT_VIDEOS ?? 1000);
const days = Number(process.env.BENCH_EXPORT_DAYS ?? 300);
const rounds = Number(process.env.BENCH_EXPORT_ROUNDS ?? 3);
const slowMbps = Number(process.env.BENCH_EXPORT_SLOW_MBPS ?? 1);
const withPglite = process.env.BENCH_PGLITE !== '0';
const withPostgres = process.env.BENCH_POSTGRES !== '0';
const lastDay = '2026-10-31';
const firstDay = new Date(Date.parse(lastDay) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
const mb = (bytes: number) => bytes / 1024 ** 2;

const modes = ['streamed, fast client', `streamed, ${slowMbps} MB/s client`, 'streamed again, pages cached', 'whole in memory'] as const;
type Mode = (typeof modes)[number];

interface Measured {
  rows: number;
  bytes: number;
  seconds: number;
  rssBeforeMb: number;
  peakAboveMb: number;
  heapAboveMb: number;
}

/** Downloads the export, counting its rows and bytes and keeping none; a slow client pauses to read at `mbps`. */
function download(url: string, token: string, mbps: number | null): Promise<{ rows: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`export answered ${response.statusCode}`));
        let bytes = 0;
        let lineBreaks = 0;
        const started = performance.now();
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) lineBreaks += 1;
          if (mbps === null) return;
          const due = (mb(bytes) / mbps) * 1000 - (performance.now() - started);
          if (due > 0) {
            response.pause();
            setTimeout(() => response.resume(), due);
          }
        });
        // The header is a line too.
        response.on('end', () => resolve({ rows: lineBreaks - 1, bytes }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** One export in this process: the database opened, the app started and warmed up, then measured. */
async function measureHere(mode: Mode, connect: ConnectOptions, userId: number): Promise<Measured> {
  const db = await connectDatabase(connect);
  const keys = deriveKeys(crypto.randomBytes(32).toString('hex'));
  const tokenSettings = { keys, accessTokenTtlSeconds: 3600, refreshTokenTtlDays: 30 };
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-bench-export-'));
  const app = await buildApp({
    clock: systemClock,
    db,
    keys,
    tokenSettings,
    queue: null,
    media: mediaServices({ ...loadConfig({}, []), dataDir }),
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const { accessToken } = await startSession(db, tokenSettings, userId, Date.now());
  const url = (from: string) => `${base}/api/stats/export.csv?from=${from}&to=${lastDay}`;
  // The whole period first, for the export that finds the database's pages already read: PGlite
  // keeps its page cache in this process, as Postgres keeps its own in the server's.
  await download(url(mode === 'streamed again, pages cached' ? firstDay : lastDay), accessToken, null);

  globalThis.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 20);
  const started = performance.now();
  let result: { rows: number; bytes: number };
  if (mode === 'whole in memory') {
    let csv = '';
    for await (const chunk of statsCsvChunks(db, { from: firstDay, to: lastDay }, { ownerId: userId }, Number.MAX_SAFE_INTEGER))
      csv += chunk;
    result = { rows: csv.split('\r\n').length - 2, bytes: Buffer.byteLength(csv) };
  } else {
    result = await download(url(firstDay), accessToken, mode === `streamed, ${slowMbps} MB/s client` ? slowMbps : null);
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await app.close();
  await db.close();
  await fs.rm(dataDir, { recursive: true, force: true });
  return {
    ...result,
    seconds,
    rssBeforeMb: mb(before.rss),
    peakAboveMb: mb(peakRss - before.rss),
    heapAboveMb: mb(peakHeap - before.heapUsed),
  };
}

/** The same script in a new process (tsx's loader and --expose-gc with it), measuring one export. */
async function measureApart(mode: Mode, connect: ConnectOptions, userId: number): Promise<Measured> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...process.execArgv, process.argv[1]!, '--measure', JSON.stringify({ mode, connect, userId })],
    { maxBuffer: 1024 ** 2 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Measured;
}

async function seed(db: Database): Promise<number> {
  const seeding = performance.now();
  const { rows: users } = await db.sql(`INSERT INTO users (login, password_hash, role) VALUES ('operator', 'x', 'user') RETURNING id`, []);
  const userId = users[0].id as number;
  await seedMany(db, { userId, accounts: 50, videos, days, lastDay });
  await db.sql('VACUUM ANALYZE');
  console.log(`seeded ${videos} posts × ${days} days in ${((performance.now() - seeding) / 1000).toFixed(0)} s`);
  return userId;
}

async function benchDatabase(kind: string, connect: ConnectOptions, userId: number): Promise<Record<Mode, Measured[]>> {
  const results = Object.fromEntries(modes.map((mode) => [mode, [] as Measured[]])) as Record<Mode, Measured[]>;
  for (let round = 1; round <= rounds; round++) {
    for (const mode of modes) {
      const measured = await measureApart(mode, connect, userId);
      results[mode].push(measured);
      console.log(`${kind} round ${round}, ${mode}: ${JSON.stringify(measured)}`);
    }
  }
  return results;
}

function printTable(kind: string, results: Record<Mode, Measured[]>) {
  const each = (list: Measured[], pick: (entry: Measured) => number, digits = 1) =>
    list.map((entry) => pick(entry).toFixed(digits)).join(' / ');
  console.log(`\n${kind}: ${videos} posts × ${days} days, ${rounds} round(s), each export in a process of its own; values per round`);
  console.log('| export | rows | MB | seconds | rows/s | RSS before MB | peak RSS above it MB | peak heap above it MB |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const mode of modes) {
    const list = results[mode];
    console.log(
      `| ${mode} | ${each(list, (m) => m.rows, 0)} | ${each(list, (m) => mb(m.bytes))} | ${each(list, (m) => m.seconds)} | ${each(list, (m) => m.rows / m.seconds, 0)} | ${each(list, (m) => m.rssBeforeMb)} | ${each(list, (m) => m.peakAboveMb)} | ${each(list, (m) => m.heapAboveMb)} |`,
    );
  }
}

async function main() {
  console.log(`statistics export benchmark: ${videos * days} rows; ${os.cpus().length} CPUs; load average ${os.loadavg()[0]!.toFixed(1)}`);
  if (!globalThis.gc) throw new Error('run with --expose-gc (npm run bench:export does)');

  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const databaseUrl = new URL(serverUrl);
  databaseUrl.pathname = '/bench_stats_export';
  const admin = await connectDatabase({ databaseUrl: serverUrl });
  await admin.sql('DROP DATABASE IF EXISTS bench_stats_export WITH (FORCE)');
  await admin.sql('CREATE DATABASE bench_stats_export');
  const pgliteDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-bench-export-pglite-'));
  try {
    if (withPostgres) {
      const postgres = await connectDatabase({ databaseUrl: databaseUrl.toString() });
      await migrate(postgres);
      const postgresUser = await seed(postgres);
      await postgres.close();
      printTable('Postgres', await benchDatabase('Postgres', { databaseUrl: databaseUrl.toString() }, postgresUser));
    }
    if (!withPglite) return;

    const pglite = await connectDatabase({ dataDir: pgliteDir });
    await migrate(pglite);
    const pgliteUser = await seed(pglite);
    await pglite.close();
    printTable('PGlite', await benchDatabase('PGlite', { dataDir: pgliteDir }, pgliteUser));
  } finally {
    await admin.sql('DROP DATABASE IF EXISTS bench_stats_export WITH (FORCE)');
    await admin.close();
    await fs.rm(pgliteDir, { recursive: true, force: true });
  }
}

const measuring = process.argv.indexOf('--measure');
if (measuring === -1) {
  await main();
} else {
  const { mode, connect, userId } = JSON.parse(process.argv[measuring + 1]!) as { mode: Mode; connect: ConnectOptions; userId: number };
  console.log(JSON.stringify(await measureHere(mode, connect, userId)));
}
