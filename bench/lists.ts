/**
 * Lists benchmark: 100 000 videos (50 000 published creation requests of one operator, 2 videos
 * each, over 50 profiles), on Postgres and on PGlite. Every paged list the SPA uses is driven by
 * autocannon (64 connections) against the app's real route and against a bare Fastify route in
 * the same process that runs the ideal keyset query for the same page (its cursor known in
 * advance, the same columns and total SPEC's page shows, each read the cheapest way, prepared once
 * per connection; no mapping). Both sides pass the same token check (requireUser: the token, then
 * the user's row), which every API route pays whatever its list; the comparison is of the lists.
 * Three rounds, sides interleaved.
 *
 *   npm run bench:lists
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_SECONDS=3 npm run bench:lists
 *   BENCH_LISTS="profiles,images" BENCH_PGLITE=0 npm run bench:lists   (some lists, Postgres only: while working on them)
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../server/app';
import { requireUser } from '../server/auth/guards';
import { deriveKeys } from '../server/auth/keys';
import { startSession } from '../server/auth/tokens';
import { loadConfig } from '../server/config';
import { connectDatabase, type Database } from '../server/db/connect';
import { migrate } from '../server/db/migrate';
import { mediaServices } from '../server/media/services';
import { setStatusSql } from '../server/services/publishing/video-status';
import { firstPosterOf } from '../server/services/lists/request-list';
import { profiles, requests, seed, withFreshPostgres, type Seeded } from './list-seed';
import { systemClock } from '../server/clock';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const connections = 64;
const rounds = 3;
const databaseName = 'bench_lists_wt10';
const onlyLists = process.env.BENCH_LISTS?.split(',').map((name) => name.trim());
const withPglite = process.env.BENCH_PGLITE !== '0';

interface ListCase {
  name: string;
  /** The app's URL for a page, and whose token it needs. */
  url: (page: number) => string;
  as: 'operator' | 'admin';
  pages: number[];
  /** The ideal query for a page: its text and values, given the key of the row before the page. */
  bare: (page: number) => Promise<{ text: string; values: unknown[] }>;
}

/** The key of the last row before `page` in a list ordered by `order` (computed once, untimed). */
async function keyBefore(db: Database, from: string, order: string, page: number, columns: string): Promise<any> {
  if (page === 1) return null;
  const { rows } = await db.sql(`SELECT ${columns} FROM ${from} ORDER BY ${order} OFFSET $1 LIMIT 1`, [(page - 1) * 20 - 1]);
  return rows[0];
}

function listCases(db: Database, seeded: Seeded): ListCase[] {
  const { operator, account } = seeded;
  const videoColumns = `id, date, created_at, status, views, likes, comments, views_instagram, likes_instagram, comments_instagram, url_youtube, url_instagram, account_id,
     (SELECT jsonb_agg(jsonb_build_object('platform', p.platform, 'status', p.status, 'failure', p.failure, 'url', p.url))
        FROM video_posts AS p WHERE p.video_id = videos.id) AS posts`;
  // A set's posts by state (src/lib/post-states.ts) in one pass over its posts, and those its videos keep cancelled.
  const postCountsOf = (requestId: string) =>
    `(SELECT jsonb_build_object('published', count(*) FILTER (WHERE p.status = 'done'), 'failed', count(*) FILTER (WHERE p.status = 'error'),
              'held', count(*) FILTER (WHERE p.status = 'pending' AND p.wait_kind IN ('cap', 'quota', 'reconnect')),
              'scheduled', count(*) FILTER (WHERE p.status = 'pending' AND p.wait_kind IS DISTINCT FROM 'cap' AND p.wait_kind IS DISTINCT FROM 'quota'
                                            AND p.wait_kind IS DISTINCT FROM 'reconnect'),
              'cancelled', (SELECT coalesce(sum(jsonb_array_length(k.cancelled_posts)), 0) FROM videos AS k WHERE k.request_id = ${requestId}))
       FROM videos AS v JOIN video_posts AS p ON p.video_id = v.id WHERE v.request_id = ${requestId})`;
  // SPEC's paged lists carry their total (totalPages), so every bare query reads it too, the
  // cheapest way there is: the long lists' counter row, a count beside the rows of a short list's only page.
  const counter = (list: string, owner: number | string) =>
    `(SELECT total FROM list_counts WHERE list = '${list}' AND owner_id = ${owner})`;
  const countBeside = 'count(*) OVER ()';
  const keyset =
    (from: string, where: string, columns: string, total: string, order = 'id DESC') =>
    async (page: number) => {
      const before = await keyBefore(db, `${from} WHERE ${where}`, order, page, 'id');
      return {
        text: `SELECT ${columns}, ${total} AS total FROM ${from} WHERE ${where} ${before ? `AND id < ${before.id}` : ''} ORDER BY ${order} LIMIT 20`,
        values: [],
      };
    };
  // What a profile row shows: its switches and connections, its owner's login and its group's name, never a secret.
  const profileColumns = `accounts.id, accounts.proxy, accounts.ip_version, accounts.comments, accounts.group_id, accounts.user_id,
    accounts.is_active_youtube, accounts.is_active_tiktok, accounts.is_active_instagram, accounts.in_youtube,
    accounts.tiktok_auth_str IS NOT NULL AS in_tiktok, accounts.instagram_login IS NOT NULL AND accounts.instagram_password IS NOT NULL AS in_instagram,
    ARRAY(SELECT s.platform FROM connection_states s WHERE s.account_id = accounts.id AND s.state <> 'connected') AS failing_platforms,
    (SELECT coalesce(jsonb_object_agg(c.platform, c.checked_name), '{}'::jsonb) FROM account_connections c
      WHERE c.account_id = accounts.id AND c.checked_name IS NOT NULL) AS connected_as,
    users.login, account_groups.name`;
  const profilesOf = 'accounts JOIN users ON users.id = accounts.user_id LEFT JOIN account_groups ON account_groups.id = accounts.group_id';
  return [
    {
      name: 'requests',
      url: (page) => `/api/create-video?page=${page}`,
      as: 'operator',
      pages: [1, 2000],
      // A row shows the request's file name and first poster, so the ideal query reads them too.
      bare: keyset(
        'creation_requests',
        `user_id = ${operator}`,
        `id, id_upload, status, count_video, created_at, source_name, ${firstPosterOf('creation_requests.id')} AS poster_key`,
        counter('requests', operator),
      ),
    },
    {
      name: 'published sets',
      url: (page) => `/api/upload-video?page=${page}`,
      as: 'operator',
      pages: [1, 2000],
      bare: async (page) => {
        const where = `user_id = ${operator} AND published_at IS NOT NULL`;
        const before = await keyBefore(db, `creation_requests WHERE ${where}`, 'published_at DESC, id DESC', page, 'published_at, id');
        // The statuses are asked for the page's 20 rows only, as index-only probes; each set's posts
        // counted by state, as the page shows them (issue 39).
        return {
          text: `SELECT id, id_upload, title, source_name, published_at, count_video, ${firstPosterOf('page.id')} AS poster_key,
                        ${setStatusSql('page.id')} AS status, ${postCountsOf('page.id')} AS posts, ${counter('published', operator)} AS total
                   FROM (SELECT id, id_upload, title, source_name, published_at, count_video FROM creation_requests WHERE ${where}
                         ${before ? 'AND (published_at, id) < ($1, $2)' : ''} ORDER BY published_at DESC, id DESC LIMIT 20) AS page
                  ORDER BY published_at DESC, id DESC`,
          values: before ? [before.published_at, before.id] : [],
        };
      },
    },
    {
      name: "a user's videos (admin)",
      url: (page) => `/api/users/${operator}/video?page=${page}`,
      as: 'admin',
      pages: [1, 2000],
      bare: keyset('videos', `user_id = ${operator}`, videoColumns, counter('videos', operator)),
    },
    {
      name: "a profile's videos",
      url: (page) => `/api/accounts/${account}/video?page=${page}`,
      as: 'operator',
      pages: [1, 100],
      bare: keyset('videos', `account_id = ${account}`, videoColumns, counter('profile_videos', account)),
    },
    {
      name: 'profiles',
      url: (page) => `/api/accounts?page=${page}`,
      as: 'operator',
      pages: [1],
      bare: keyset(profilesOf, `accounts.user_id = ${operator}`, profileColumns, countBeside, 'accounts.id DESC'),
    },
    {
      name: 'users (admin)',
      url: (page) => `/api/users?page=${page}`,
      as: 'admin',
      pages: [1],
      // A user's row shows their video count (their counter row) and their profile count.
      bare: keyset(
        'users',
        'true',
        `id, login, role, ${counter('videos', 'users.id')} AS videos_count,
         (SELECT count(*) FROM accounts WHERE accounts.user_id = users.id) AS accounts_count`,
        countBeside,
        'id',
      ),
    },
    {
      name: "a user's profiles (admin)",
      url: (page) => `/api/users/${operator}/account?page=${page}`,
      as: 'admin',
      pages: [1],
      bare: keyset(profilesOf, `accounts.user_id = ${operator}`, profileColumns, countBeside, 'accounts.id DESC'),
    },
    {
      name: 'groups',
      url: (page) => `/api/accounts-group?page=${page}`,
      as: 'operator',
      pages: [1],
      // A page of groups shows each group's profiles, so the ideal query reads them too.
      bare: keyset(
        'account_groups',
        `user_id = ${operator}`,
        `*, (SELECT json_agg(json_build_object('id', a.id, 'comments', a.comments) ORDER BY a.id) FROM accounts AS a
              WHERE a.group_id = account_groups.id) AS accounts`,
        countBeside,
      ),
    },
    {
      name: 'tag sets',
      url: (page) => `/api/tags?page=${page}`,
      as: 'operator',
      pages: [1],
      bare: keyset('tag_sets', `user_id = ${operator}`, '*', countBeside),
    },
    {
      name: 'images',
      url: (page) => `/api/photo-bg?page=${page}`,
      as: 'operator',
      pages: [1],
      bare: keyset('photos', `user_id = ${operator}`, 'id, file_key', countBeside),
    },
  ];
}

interface Load {
  requestsPerSecond: number;
  p99: number;
  failures: number;
}

async function drive(url: string, headers: Record<string, string>, duration = seconds): Promise<Load> {
  // The load comes from a worker thread, so the servers' event loop is theirs alone.
  const result = await autocannon({ url, connections, duration, headers, workers: 1 });
  return {
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** The times of the health checks made every 50 ms while `work` runs. */
async function healthChecksDuring<T>(base: string, work: () => Promise<T>): Promise<{ result: T; healthMs: number[] }> {
  const healthMs: number[] = [];
  let running = true;
  const probing = (async () => {
    while (running) {
      const started = performance.now();
      await new Promise<void>((resolve, reject) =>
        http.get(`${base}/healthz`, (response) => response.resume().on('end', resolve)).on('error', reject),
      );
      healthMs.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const result = await work();
  running = false;
  await probing;
  return { result, healthMs };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function benchDatabase(kind: 'postgres' | 'pglite', db: Database) {
  console.log(`\n## ${kind}`);
  const seeded = await seed(db);
  const keys = deriveKeys(crypto.randomBytes(32).toString('hex'));
  const tokenSettings = { keys, accessTokenTtlSeconds: 900, refreshTokenTtlDays: 30 };
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-bench-lists-'));
  const media = mediaServices({ ...loadConfig({}, []), dataDir });
  const app = await buildApp({ clock: systemClock, db, keys, tokenSettings, queue: null, media });
  const bare = Fastify({ logger: false });
  const cases = listCases(db, seeded).filter((list) => !onlyLists || onlyLists.includes(list.name));
  const bareQueries = new Map<string, { text: string; values: unknown[] }>();
  for (const list of cases) {
    for (const page of list.pages) bareQueries.set(`${list.name}|${page}`, await list.bare(page));
  }
  bare.decorate('db', db);
  bare.decorate('tokenSettings', tokenSettings);
  // requireUser reads tokens on the server's clock (issue 44).
  bare.decorate('clock', systemClock);
  bare.get('/bare', { onRequest: requireUser }, async (request) => {
    const { key } = request.query as { key: string };
    const query = bareQueries.get(key)!;
    // Prepared once per connection, as the app's list statements are: the ideal query sent the ideal way.
    const { rows } = await db.prepared(query.text, query.values);
    return { data: rows };
  });
  const appBase = await app.listen({ host: '127.0.0.1', port: 0 });
  const bareBase = await bare.listen({ host: '127.0.0.1', port: 0 });
  const headers = {
    operator: { authorization: `Bearer ${(await startSession(db, tokenSettings, seeded.operator, Date.now())).accessToken}` },
    admin: { authorization: `Bearer ${(await startSession(db, tokenSettings, seeded.admin, Date.now())).accessToken}` },
  };

  // An untimed second on every route first, so no side's first round pays for compiling its code.
  for (const list of cases) {
    for (const page of list.pages) {
      await drive(`${appBase}${list.url(page)}`, headers[list.as], 1);
      await drive(`${bareBase}/bare?key=${encodeURIComponent(`${list.name}|${page}`)}`, headers[list.as], 1);
    }
  }

  const figures = new Map<string, { app: Load[]; bare: Load[]; healthMs: number[] }>();
  for (let round = 1; round <= rounds; round++) {
    for (const list of cases) {
      for (const page of list.pages) {
        const key = `${list.name}|${page}`;
        const entry = figures.get(key) ?? { app: [], bare: [], healthMs: [] };
        figures.set(key, entry);
        const sides = [
          async () => {
            const { result, healthMs } = await healthChecksDuring(appBase, () => drive(`${appBase}${list.url(page)}`, headers[list.as]));
            entry.app.push(result);
            entry.healthMs.push(...healthMs);
          },
          async () => entry.bare.push(await drive(`${bareBase}/bare?key=${encodeURIComponent(key)}`, headers[list.as])),
        ];
        // Interleaved: odd rounds start with the app, even rounds with the bare route.
        if (round % 2 === 0) sides.reverse();
        for (const side of sides) {
          await side();
          // The next run starts once the database has answered every request of this one.
          await db.sql('SELECT 1');
        }
      }
    }
    console.log(`  round ${round} done`);
  }

  console.log(
    '\n| list | page | app req/s (3 runs) | bare req/s (3 runs) | app / bare, per round (median) | app p99 ms | bare p99 ms | /healthz ms during the app runs: median, slowest | failures |',
  );
  console.log('|---|---:|---|---|---:|---:|---:|---:|---:|');
  const summary = new Map<string, { ratio: number; appRps: number; p99: number; healthMs: number }>();
  for (const [key, entry] of figures) {
    const [name, page] = key.split('|');
    const appRps = median(entry.app.map((load) => load.requestsPerSecond));
    // Each round's two runs ran back to back, under the same load from the rest of the machine.
    const ratios = entry.app.map((load, round) => load.requestsPerSecond / entry.bare[round]!.requestsPerSecond);
    const p99 = median(entry.app.map((load) => load.p99));
    const healthMs = Math.max(...entry.healthMs);
    const healthMedian = median(entry.healthMs);
    const failures = [...entry.app, ...entry.bare].reduce((sum, load) => sum + load.failures, 0);
    summary.set(key, { ratio: median(ratios), appRps, p99, healthMs });
    console.log(
      `| ${name} | ${page} | ${entry.app.map((load) => load.requestsPerSecond.toFixed(0)).join(' · ')} | ` +
        `${entry.bare.map((load) => load.requestsPerSecond.toFixed(0)).join(' · ')} | ${ratios.map((ratio) => ratio.toFixed(2)).join(' · ')} (${median(ratios).toFixed(2)}) | ` +
        `${p99} | ${median(entry.bare.map((load) => load.p99))} | ${healthMedian.toFixed(1)}, ${healthMs.toFixed(1)} | ${failures} |`,
    );
  }
  console.log('\n| list | app page N / page 1, req/s per round (median) |');
  console.log('|---|---:|');
  for (const list of cases.filter((item) => item.pages.length > 1)) {
    const first = figures.get(`${list.name}|1`)!.app;
    const last = figures.get(`${list.name}|${list.pages[1]}`)!.app;
    const ratios = last.map((load, round) => load.requestsPerSecond / first[round]!.requestsPerSecond);
    console.log(
      `| ${list.name} (page ${list.pages[1]}) | ${ratios.map((ratio) => ratio.toFixed(2)).join(' · ')} (${median(ratios).toFixed(2)}) |`,
    );
  }
  await app.close();
  await bare.close();
  await fs.rm(dataDir, { recursive: true, force: true });
  return summary;
}

async function main() {
  console.log(
    `lists benchmark: ${requests} requests, ${requests * 2} videos, ${profiles} profiles; ${connections} connections, ${seconds} s per run, ${rounds} rounds interleaved, ${os.cpus().length} CPUs`,
  );

  const postgres = await withFreshPostgres(databaseName, (db) => benchDatabase('postgres', db));
  if (!withPglite) return;

  const pgliteDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-bench-pglite-'));
  const pgliteDb = await connectDatabase({ dataDir: pgliteDir });
  await migrate(pgliteDb);
  let pglite;
  try {
    pglite = await benchDatabase('pglite', pgliteDb);
  } finally {
    await pgliteDb.close();
    await fs.rm(pgliteDir, { recursive: true, force: true });
  }

  console.log('\n## PGlite against Postgres (app routes)');
  console.log('| list | page | PGlite p99 / Postgres p99 | slowest /healthz during the PGlite load |');
  console.log('|---|---:|---:|---:|');
  for (const [key, figures] of pglite) {
    const [name, page] = key.split('|');
    console.log(
      `| ${name} | ${page} | ${(figures.p99 / Math.max(1, postgres.get(key)!.p99)).toFixed(2)} | ${figures.healthMs.toFixed(1)} ms |`,
    );
  }
}

await main();
