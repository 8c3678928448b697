import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, inject } from 'vitest';
import { connectDatabase, type Database } from '../../server/db/connect';
import { migrate } from '../../server/db/migrate';
import { deriveKeys } from '../../server/auth/keys';
import { hashPassword } from '../../server/auth/passwords';
import { startSession, type TokenSettings } from '../../server/auth/tokens';
import { buildApp, type AppDeps } from '../../server/app';
import { startQueue, type Queue } from '../../server/jobs/queue';
import { diskStorage } from '../../server/media/storage';
import { multipart, testTools } from '../fixtures/media';
import { emptyDatabase } from './empty-database';
import type { MediaServices } from '../../server/media/services';
import type { PlatformSettings } from '../../server/platforms/profile-context';
import type { SandboxState } from '../../server/sandbox/index';
import { engineSettings, platformTimeoutSettings, postingCapSettings } from '../../server/config';
import { platformNetwork, type PlatformNetwork } from '../../server/net/http';
import type { ProxyPolicy } from '../../server/net/proxy-policy';
import { startLoopbackProxy, type LoopbackProxy } from '../../server/sandbox/loopback-proxy';
import { systemClock, type Clock } from '../../server/clock';
import type { JobContext } from '../../server/jobs/types';
import type { PostingSlots } from '../../src/lib/contract';

export type DatabaseKind = 'pglite' | 'postgres';

/** PGlite always; Postgres too when TEST_DATABASE_URL answers (see tests/global-setup.ts). */
export function databaseKinds(): DatabaseKind[] {
  return inject('postgresUrl') ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * A fresh, migrated database: an in-memory PGlite, or a new Postgres database dropped on close,
 * each copied from the run's migrated template (tests/global-setup.ts). `through` stops at that
 * migration, for a test that stores rows in an older shape: the copy's `public` schema is dropped,
 * made again as initdb makes it, and migrated from empty (every migration works in `public` alone).
 * That holds what a new cluster migrated through `through` holds, without the cluster, whose
 * initdb took PGlite 3 to 6 s on the busy machine (catalogs compared: 773 entries on PGlite, 645
 * on Postgres, the same).
 */
export async function freshDatabase(
  kind: DatabaseKind,
  through?: string,
): Promise<{ db: Database; drop: () => Promise<void>; url?: string }> {
  if (kind === 'pglite') {
    const db = await connectDatabase({ loadDataDir: inject('pgliteTemplate') });
    if (through) await migrateFromEmpty(db, through);
    return { db, drop: () => db.close() };
  }
  const adminUrl = inject('postgresUrl')!;
  const name = `test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await connectDatabase({ databaseUrl: url.toString() });
  if (through) await migrateFromEmpty(db, through);
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * PGlite databases this worker's earlier suites are done with, emptied and still in the shape such a
 * suite starts from, for the next suite: a new one cost about 3 s of CPU (its thread, PGlite's start,
 * loading the template; measured 2026-12-05), a hundred times a run, where emptying a used one takes
 * milliseconds. Vitest keeps a worker's modules from file to file (`isolate: false`, vitest.config.ts).
 * Suites with a queue have a pool of their own: pg-boss's schema, installed by their first, stays.
 */
interface PglitePool {
  idle: Database[];
  /** The catalog's shape (shapeOf) of this pool's first database once its suite was set up, before any test. */
  shape?: Promise<string>;
}
const pglitePools = { plain: { idle: [] } as PglitePool, queue: { idle: [] } as PglitePool };

/** A fresh database for a suite: on PGlite, one set aside by an earlier suite of the same kind when there is one. */
async function reusableDatabase(kind: DatabaseKind, pool: PglitePool): Promise<{ db: Database; drop: () => Promise<void> }> {
  if (kind === 'postgres') return freshDatabase(kind);
  const db = pool.idle.pop() ?? (await connectDatabase({ loadDataDir: inject('pgliteTemplate') }));
  return { db, drop: () => setAside(db, pool) };
}

/**
 * What a suite can leave behind besides rows, which emptying does not undo: schemas (pg-boss's, a
 * copy of kept rows), tables, columns, constraints, functions, triggers, roles, extensions.
 */
async function shapeOf(db: Database): Promise<string> {
  const { rows } = await db.sql(
    `SELECT md5(string_agg(item, ',' ORDER BY item)) AS shape FROM (
       SELECT 'schema ' || nspname AS item FROM pg_namespace
       UNION ALL SELECT 'relation ' || oid::regclass || ' ' || relkind::text FROM pg_class
       UNION ALL SELECT 'column ' || attrelid::regclass || '.' || attname || ' ' || atttypid::regtype FROM pg_attribute WHERE attnum > 0 AND NOT attisdropped
       UNION ALL SELECT 'constraint ' || conrelid::regclass || '.' || conname FROM pg_constraint
       UNION ALL SELECT 'function ' || oid::regprocedure FROM pg_proc
       UNION ALL SELECT 'trigger ' || tgrelid::regclass || '.' || tgname FROM pg_trigger
       UNION ALL SELECT 'role ' || rolname FROM pg_roles
       UNION ALL SELECT 'extension ' || extname FROM pg_extension
     ) AS catalog`,
    [],
  );
  return rows[0].shape as string;
}

/**
 * pg-boss's rows as a new install leaves them, its queues aside (each suite creates the same ones,
 * and a queue's row and table go together): no job, schedule or subscription, no maintenance or
 * cron run on record, so the next suite's cron and maintenance start as on a new database.
 */
const emptyPgBoss = [
  'DELETE FROM pgboss.job',
  'DELETE FROM pgboss.archive',
  'DELETE FROM pgboss.schedule',
  'DELETE FROM pgboss.subscription',
  'UPDATE pgboss.version SET maintained_on = NULL, cron_on = NULL, monitored_on = NULL',
].join(';\n');

/** Empties a suite's PGlite for the next one, or closes it when the suite changed more than rows. */
async function setAside(db: Database, pool: PglitePool) {
  try {
    await emptyDatabase(db);
    await db.sql('DELETE FROM engine_workers', []);
    if (pool === pglitePools.queue) await db.sql(emptyPgBoss, []);
    if ((await shapeOf(db)) === (await pool.shape)) {
      pool.idle.push(db);
      return;
    }
  } catch {
    // A statement failed: whatever state it is in is not handed on.
  }
  await db.close().catch(() => undefined);
}

async function migrateFromEmpty(db: Database, through: string) {
  await db.sql(
    `DROP SCHEMA public CASCADE;
     CREATE SCHEMA public AUTHORIZATION pg_database_owner;
     GRANT USAGE ON SCHEMA public TO PUBLIC;
     COMMENT ON SCHEMA public IS 'standard public schema'`,
  );
  await migrate(db, { through });
}

export const testSecretKey = 'test-secret-key-that-is-long-enough-0123456789';

export function testTokenSettings(): TokenSettings {
  return { keys: deriveKeys(testSecretKey), accessTokenTtlSeconds: 900, refreshTokenTtlDays: 30 };
}

/** Media in a temporary folder, the ffmpeg the server would find, and a fast x264 preset. */
export function testMedia(mediaDir: string): MediaServices {
  return {
    storage: diskStorage(mediaDir),
    tools: testTools(),
    settings: {
      maxUploadBytes: 20 * 1024 ** 2,
      maxImageBytes: 5 * 1024 ** 2,
      maxImagePixels: 4_000_000,
      maxVariants: 50,
      maxVideoSeconds: 60,
      maxVideoSide: 2048,
      renderPreset: 'ultrafast',
      renderOutputsPerPass: 6,
      renderTimeoutSeconds: 120,
      mediaUrlTtlSeconds: 3600,
    },
  };
}

export interface TestEnv {
  kind: DatabaseKind;
  db: Database;
  app: Awaited<ReturnType<typeof buildApp>>;
  tokenSettings: TokenSettings;
  media: MediaServices;
  mediaDir: string;
  queue: Queue | null;
  /** What the workers use to reach the platforms: the sandbox; a test that listens sets `sandboxOrigin`. */
  platforms: PlatformSettings;
}

/** What a job handler gets, as the queue would hand it over, for a test that runs a handler itself. */
export function testJobContext(test: TestEnv, signal: AbortSignal = new AbortController().signal): JobContext {
  return {
    db: test.db,
    log: pino({ level: 'silent' }),
    media: test.media,
    keys: test.tokenSettings.keys,
    platforms: test.platforms,
    queue: test.queue!,
    signal,
    jobId: crypto.randomUUID(),
    engine: engineSettings(),
  };
}

export interface SuiteOptions {
  /** 'send' enqueues jobs without running them; 'work' also runs the handlers, as a worker does. */
  queue?: 'send' | 'work';
  /** The emulator's state, to share its clock and fault plan with the test. */
  sandbox?: SandboxState;
  /** YOUTUBE_APP_IN_TESTING=1: YouTube links record Google's 7-day refresh token end. */
  youtubeAppInTesting?: boolean;
  /** The clock of the workers and the API (share it with the sandbox's `now`); the system's when absent. */
  clock?: Clock;
  /** The way out to the platforms of the workers and the API (short timeouts, say); `testNetwork()` when absent. */
  network?: PlatformNetwork;
  /** The sandbox proxy the profile form offers, as main.ts hands over the one it started; none when absent. */
  sandboxProxy?: string;
  /** The installation's posting slots (POSTING_*); their defaults when absent. */
  postingSlots?: PostingSlots;
}

/** The way out to the platforms with the default limits, under the sandbox's proxy policy unless told otherwise. */
export function testNetwork(policy: ProxyPolicy = { mode: 'sandbox', allowPrivate: false }): PlatformNetwork {
  return platformNetwork({ timeouts: platformTimeoutSettings(), policy });
}

/** Workers in tests talk to the sandbox and check processing status without real pauses. */
export function testPlatformSettings(sandboxOrigin = 'http://127.0.0.1:9', clock: Clock = systemClock): PlatformSettings {
  return {
    mode: 'sandbox',
    sandboxOrigin,
    statsIntervalMinutes: 15,
    pollIntervalMs: 5,
    postingCaps: postingCapSettings(),
    network: testNetwork(),
    clock,
  };
}

/**
 * Runs `body` once per database kind, with one app and database per kind shared by the tests
 * inside and emptied (with the media folder and any queued jobs) before each test.
 */
export function describeEachDatabase(title: string, body: (env: () => TestEnv) => void, options: SuiteOptions = {}) {
  for (const kind of databaseKinds()) {
    describe(`${title} [${kind}]`, () => {
      let env: TestEnv | undefined;
      let drop: () => Promise<void> = async () => undefined;
      beforeAll(async () => {
        const pool = options.queue ? pglitePools.queue : pglitePools.plain;
        const fresh = await reusableDatabase(kind, pool);
        drop = fresh.drop;
        const tokenSettings = testTokenSettings();
        const mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-media-'));
        const media = testMedia(mediaDir);
        const clock = options.clock ?? systemClock;
        const platforms = { ...testPlatformSettings(undefined, clock), ...(options.network ? { network: options.network } : {}) };
        const queue = options.queue
          ? await startQueue({
              db: fresh.db,
              log: pino({ level: 'silent' }),
              work: options.queue === 'work',
              engine: engineSettings(),
              context: { db: fresh.db, media, keys: tokenSettings.keys, platforms },
            })
          : null;
        const app = await buildApp({
          clock,
          db: fresh.db,
          keys: tokenSettings.keys,
          tokenSettings,
          queue,
          media,
          ...(options.sandbox ? { sandbox: { state: options.sandbox } } : {}),
          youtubeAppInTesting: options.youtubeAppInTesting,
          network: platforms.network,
          sandboxProxy: options.sandboxProxy,
          postingSlots: options.postingSlots,
        });
        env = { kind, db: fresh.db, app, tokenSettings, media, mediaDir, queue, platforms };
        if (kind === 'pglite') await (pool.shape ??= shapeOf(fresh.db));
      });
      beforeEach(async () => {
        await emptyDatabase(env!.db);
        if (env!.queue) await env!.db.sql('DELETE FROM pgboss.job', []);
        await fs.rm(env!.mediaDir, { recursive: true, force: true });
        await fs.mkdir(env!.mediaDir, { recursive: true });
      });
      afterAll(async () => {
        await env?.app.close();
        await env?.queue?.stop({ graceful: false, wait: true });
        await drop();
        if (env) await fs.rm(env.mediaDir, { recursive: true, force: true });
      });
      body(() => env!);
    });
  }
}

/** A second app on the test's database in live mode (PLATFORMS=live), reached at `publicUrl`; close it after use. */
export function buildLiveApp(env: TestEnv, publicUrl = 'https://office.example') {
  return buildAppOn(env, { platforms: 'live', publicUrl });
}

/** Another app on the test's database, keys and media, with no queue and with `options` on top. */
export function buildAppOn(env: TestEnv, options: Partial<AppDeps> = {}) {
  return buildApp({
    clock: systemClock,
    db: env.db,
    keys: env.tokenSettings.keys,
    tokenSettings: env.tokenSettings,
    queue: null,
    media: env.media,
    ...options,
  });
}

/**
 * One argon2 hash per password for the whole file: each costs tens of milliseconds of CPU, and the
 * suites make hundreds of users. A hash verifies the same whichever user row holds it.
 */
const passwordHashes = new Map<string, Promise<string>>();
function testPasswordHash(password: string): Promise<string> {
  let hash = passwordHashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    passwordHashes.set(password, hash);
  }
  return hash;
}

/** Creates a user straight in the database and returns it with a valid access token. */
export async function createUser(env: TestEnv, login: string, options: { role?: 'admin' | 'user'; password?: string } = {}) {
  const { rows } = await env.db.sql('INSERT INTO users (login, password_hash, role) VALUES ($1, $2, $3) RETURNING id', [
    login,
    await testPasswordHash(options.password ?? 'password123'),
    options.role ?? 'user',
  ]);
  const id = rows[0].id as number;
  return { id, login, ...(await newSession(env, id)) };
}

/**
 * A new session of the user, as a sign-in gives: its access token lasts 15 minutes on the server's
 * clock, so a test that advances that clock further signs in again.
 */
export async function newSession(env: TestEnv, userId: number) {
  const { accessToken: token } = await startSession(env.db, env.tokenSettings, userId, env.app.clock.now());
  return { token, headers: { authorization: `Bearer ${token}` } };
}

/**
 * The sandbox's controls (`/sandbox/_…`: its fault plan, what the platforms received, its calls and
 * revocations) as an admin calls them on `app`: they inspect and steer every user's platforms. The
 * admin is made in the app's database when it has none yet, as a test's database starts empty.
 */
export async function sandboxControl(app: TestEnv['app'], request: InjectOptions) {
  const login = 'sandbox-admin';
  const found = await app.db.sql(`SELECT id FROM users WHERE login = $1`, [login]);
  const made = found.rows[0]
    ? found
    : await app.db.sql(`INSERT INTO users (login, password_hash, role) VALUES ($1, $2, 'admin') RETURNING id`, [
        login,
        await testPasswordHash('password123'),
      ]);
  const { accessToken } = await startSession(app.db, app.tokenSettings, made.rows[0].id, app.clock.now());
  return app.inject({ ...request, headers: { ...request.headers, authorization: `Bearer ${accessToken}` } });
}

/**
 * A personal API token of `user`, made through POST /api/tokens from their session, with the
 * headers that send it instead of the session's.
 */
export async function createApiToken(
  env: TestEnv,
  user: { headers: Record<string, string> },
  scope: 'read' | 'publish' | 'admin',
  options: { name?: string; expiresInDays?: number } = {},
) {
  const response = await env.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: user.headers,
    payload: { name: options.name ?? `${scope} token`, scope, expiresInDays: options.expiresInDays ?? 30 },
  });
  if (response.statusCode !== 201) throw new Error(`creating a token answered ${response.statusCode}: ${response.body}`);
  const created = response.json<{ id: number; token: string; expiresAt: string }>();
  return { ...created, headers: { authorization: `Bearer ${created.token}` } };
}

/** Uploads background images through the route, as the operator with `headers` does; answers their ids in upload order. */
export async function uploadImages(app: TestEnv['app'], headers: Record<string, string>, files: string[]): Promise<number[]> {
  const body = await multipart(
    files.map((file, index) => ({ name: 'files', file: { path: file, filename: `bg-${index}.png`, contentType: 'image/png' } })),
  );
  const response = await app.inject({
    method: 'POST',
    url: '/api/photo-bg',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  if (response.statusCode !== 201) throw new Error(`uploading images answered ${response.statusCode}: ${response.body}`);
  return response.json<{ data: { id: number }[] }>().data.map((photo) => photo.id);
}

export interface SandboxServer {
  /** Where the test's app listens on 127.0.0.1: the sandbox's origin, and the API's for `fetch`. */
  baseUrl: string;
  /** The proxy profiles give to reach the sandbox. */
  proxy: LoopbackProxy;
}

/**
 * For a suite whose app or workers call the sandbox over the network: listens on 127.0.0.1, points
 * the workers' sandbox origin there, and starts a loopback proxy for the profiles, closed after the suite.
 */
export function withSandboxServer(env: () => TestEnv): () => SandboxServer {
  let network: SandboxServer | undefined;
  beforeAll(async () => {
    const baseUrl = await env().app.listen({ port: 0, host: '127.0.0.1' });
    env().platforms.sandboxOrigin = baseUrl;
    network = { baseUrl, proxy: await startLoopbackProxy() };
  });
  afterAll(async () => {
    await network?.proxy.close();
  });
  return () => network!;
}

/**
 * The stored posts of a video or of a set, by video then platform: `columns` of the post `p` (and
 * of its video `v`), for a test whose point is what is stored, or that runs a post's job itself.
 */
export async function storedPosts(env: TestEnv, of: { videoId: number } | { requestId: number }, columns: string) {
  const [where, id] = 'videoId' in of ? ['p.video_id', of.videoId] : ['v.request_id', of.requestId];
  const { rows } = await env.db.sql(
    `SELECT ${columns} FROM video_posts p JOIN videos v ON v.id = p.video_id WHERE ${where} = $1 ORDER BY p.video_id, p.platform`,
    [id],
  );
  return rows;
}
