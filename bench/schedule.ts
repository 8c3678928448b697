/**
 * Schedule benchmark: 10 000 publish jobs pending in the future and 20 publishes due at one
 * moment. How late does each of the 20 start? The project's worker (startQueue, the real publish
 * handler and engine) against two bare pg-boss work() workers on the same database in the same
 * run, three rounds interleaved. A lateness depends on where the moment falls in the polling
 * cycle, so each round has 5 such moments, 1.37 s apart (100 starts), not one:
 *
 * - bare, defaults: work(name, { batchSize: 20 }), pg-boss's default 2 s polling;
 * - bare, 0.5 s: the same with pollingIntervalSeconds 0.5, the fastest pg-boss 10 allows.
 *
 * Then the same three on render requests sent one by one to an idle worker (10, 0.73 s apart):
 * a render should start within a second of its request.
 *
 * Lateness is the time from a job's start_after to its handler starting, on this one machine.
 *
 *   npm run bench:schedule      # PGlite, and Postgres at BENCH_DATABASE_URL (default
 *                               # postgres://postgres@127.0.0.1:5432/postgres) when it answers
 */
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import PgBoss from 'pg-boss';
import pino from 'pino';
import { engineSettings, platformTimeoutSettings, postingCapSettings } from '../server/config';
import { platformNetwork } from '../server/net/http';
import { deriveKeys } from '../server/auth/keys';
import { connectDatabase, type Database } from '../server/db/connect';
import { migrate } from '../server/db/migrate';
import { startQueue } from '../server/jobs/queue';
import { publishJobName } from '../server/services/publishing/post-lifecycle';
import { renderJobName } from '../server/jobs/render';
import { diskStorage } from '../server/media/storage';
import { resolveMediaTools } from '../server/media/tools';
import { systemClock } from '../server/clock';

const futureJobs = 10_000;
const dueJobs = 20;
const moments = 5;
const momentGapMs = 1370;
const renderRequests = 10;
const renderGapMs = 730;
const rounds = 3;
/** Time from putting the due jobs in to their moment, so every worker is idle and polling by then. */
const leadMs = 3000;
const silent = pino({ level: 'silent' });

/** A load put into the queue while the worker runs; `expected` jobs must start. */
interface Scenario {
  title: string;
  queue: string;
  expected: number;
  put(boss: PgBoss): Promise<void>;
}

type Contender = { label: string; run: (db: Database, scenario: Scenario) => Promise<number[]> };

/** The pending future jobs, then the due ones, after the worker started. */
const publishes: Scenario = {
  title: `${futureJobs} future jobs pending; ${dueJobs} publishes due at one moment, ${moments} moments a round`,
  queue: publishJobName,
  expected: moments * dueJobs,
  async put(boss) {
    const now = Date.now();
    const future = Array.from({ length: futureJobs }, (_, index) => ({
      name: publishJobName,
      data: { postId: -1 - index, token: 'bench' },
      startAfter: new Date(now + 3600_000 + index * 1000).toISOString(),
    }));
    for (let index = 0; index < future.length; index += 1000) await boss.insert(future.slice(index, index + 1000));
    const first = Date.now() + leadMs;
    for (let moment = 0; moment < moments; moment++) {
      await boss.insert(
        Array.from({ length: dueJobs }, (_, index) => ({
          name: publishJobName,
          data: { postId: -100_000 - moment * dueJobs - index, token: 'bench' },
          startAfter: new Date(first + moment * momentGapMs).toISOString(),
        })),
      );
    }
  },
};

/** Render requests as operators send them, each due at once, to an idle worker. */
const renders: Scenario = {
  title: `${renderRequests} render requests, one every ${renderGapMs} ms`,
  queue: renderJobName,
  expected: renderRequests,
  async put(boss) {
    for (let index = 0; index < renderRequests; index++) {
      await boss.send(renderJobName, { requestId: -1 - index });
      await new Promise((resolve) => setTimeout(resolve, renderGapMs));
    }
  },
};

/** Puts the scenario's jobs in while the worker runs; returns when all have started. */
async function load(db: Database, scenario: Scenario, started: () => number) {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => db.sql(text, values) },
    supervise: false,
    schedule: false,
    migrate: false,
  });
  await boss.start();
  await scenario.put(boss);
  const deadline = Date.now() + leadMs + moments * momentGapMs + 120_000;
  while (started() < scenario.expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  await boss.stop({ graceful: false, wait: true });
}

const project: Contender = {
  label: 'project worker',
  async run(db, scenario) {
    const queue = await startQueue({
      db,
      log: silent,
      work: true,
      engine: engineSettings(process.env),
      context: {
        db,
        media: {
          storage: diskStorage(path.join(os.tmpdir(), 'shorts-bench-schedule-media')),
          tools: resolveMediaTools({}),
          settings: {} as never,
        },
        keys: deriveKeys(crypto.randomBytes(32).toString('hex')),
        platforms: {
          mode: 'sandbox',
          sandboxOrigin: 'http://127.0.0.1:9',
          statsIntervalMinutes: 15,
          postingCaps: postingCapSettings(),
          network: platformNetwork({ timeouts: platformTimeoutSettings(), policy: { mode: 'sandbox', allowPrivate: false } }),
          clock: systemClock,
        },
      },
    });
    const lateness = queue.runners!.get(scenario.queue)!.lateness;
    lateness.length = 0;
    await load(db, scenario, () => lateness.length);
    const result = [...lateness];
    await queue.stop({ graceful: false, wait: true });
    return result;
  },
};

function bare(label: string, options: PgBoss.WorkOptions): Contender {
  return {
    label,
    async run(db, scenario) {
      const boss = new PgBoss({
        db: { executeSql: (text: string, values?: unknown[]) => db.sql(text, values) },
        supervise: false,
        schedule: false,
        migrate: false,
      });
      await boss.start();
      const lateness: number[] = [];
      await boss.work(scenario.queue, { ...options, includeMetadata: true }, async (jobs) => {
        for (const job of jobs) lateness.push(Date.now() - new Date(job.startAfter).getTime());
      });
      await load(db, scenario, () => lateness.length);
      await boss.stop({ graceful: false, wait: true });
      return lateness;
    },
  };
}

const contenders = [
  project,
  bare('bare pg-boss, defaults', { batchSize: dueJobs }),
  bare('bare pg-boss, 0.5 s', { batchSize: dueJobs, pollingIntervalSeconds: 0.5 }),
];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function postgres(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    console.log(`Postgres at ${adminUrl} does not answer: PGlite only.\n`);
    return null;
  }
  const name = `bench_schedule_${crypto.randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

async function prepare(db: Database) {
  await migrate(db);
  // pg-boss's schema and queues, as the server creates them.
  await (
    await startQueue({ db, log: silent, work: false, context: {} as never, engine: engineSettings() })
  ).stop({ graceful: false, wait: true });
}

async function bench(kind: string, db: Database, scenario: Scenario) {
  console.log(`${kind}: ${scenario.title}; ${os.availableParallelism()} CPUs`);
  const results = new Map<string, { p50: number[]; p99: number[] }>(contenders.map((contender) => [contender.label, { p50: [], p99: [] }]));
  for (let round = 1; round <= rounds; round++) {
    for (const contender of contenders) {
      await db.sql('DELETE FROM pgboss.job');
      const lateness = await contender.run(db, scenario);
      const p50 = percentile(lateness, 50);
      const p99 = percentile(lateness, 99);
      results.get(contender.label)!.p50.push(p50);
      results.get(contender.label)!.p99.push(p99);
      console.log(
        `  round ${round}  ${contender.label.padEnd(24)} started ${String(lateness.length).padStart(3)}/${scenario.expected}   ` +
          `p50 ${(p50 / 1000).toFixed(3)} s   p99 ${(p99 / 1000).toFixed(3)} s`,
      );
    }
  }
  const mine = results.get(project.label)!;
  for (const contender of contenders.slice(1)) {
    const theirs = results.get(contender.label)!;
    const ratios = mine.p99.map((value, index) => (value / theirs.p99[index]!).toFixed(2));
    console.log(`  p99 project / ${contender.label}, per round: ${ratios.join(', ')}`);
  }
  console.log(`  project p99, worst round: ${(Math.max(...mine.p99) / 1000).toFixed(3)} s\n`);
}

async function main() {
  const pglite = await connectDatabase({});
  try {
    await prepare(pglite);
    await bench('PGlite', pglite, publishes);
    await bench('PGlite', pglite, renders);
  } finally {
    await pglite.close();
  }
  const server = await postgres();
  if (server) {
    const db = await connectDatabase({ databaseUrl: server.url });
    try {
      await prepare(db);
      await bench('Postgres', db, publishes);
      await bench('Postgres', db, renders);
    } finally {
      await db.close();
      await server.drop();
    }
  }
}

await main();
