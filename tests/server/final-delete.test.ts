import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { t } from '../../server/messages';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import { startLoopbackProxy, type LoopbackProxy } from '../../server/sandbox/loopback-proxy';
import { connectedProfile, createAccount, type TestUser } from './backoffice-fixtures';
import { buildApp } from '../../server/app';
import { startQueue } from '../../server/jobs/queue';
import { stopWaitMs } from '../../server/jobs/publish-stops';
import {
  createUser,
  describeEachDatabase,
  freshDatabase,
  testMedia,
  testPlatformSettings,
  testSecretKey,
  testTokenSettings,
  type TestEnv,
  withSandboxServer,
} from './helpers';
import { publishPayload, renderedRequest, type RenderedRequest } from './publishing-fixtures';
import { startThrottledRelay, type ThrottledRelay } from './throttled-relay';
import { ManualClock } from './manual-clock';
import { platformRequestsSince } from './sandbox-helpers';
import { engineSettings } from '../../server/config';
import { systemClock } from '../../server/clock';

const sandbox = new SandboxState();
/** The relay of the issue: 60 kB/s, so a 300 kB upload lasts five seconds. */
const relayBytesPerSecond = 60_000;
const videoBytes = 300_000;

describeEachDatabase(
  'A delete is final: uploads under way stop, or the delete is refused',
  (env) => {
    const network = withSandboxServer(env);
    let relay: ThrottledRelay;
    let admin: TestUser;

    beforeAll(async () => {
      relay = await startThrottledRelay(network().proxy.port, relayBytesPerSecond);
    });
    afterAll(async () => {
      await relay?.close();
    });
    beforeEach(async () => {
      sandbox.faults.splice(0);
      relay.throttle();
      env().platforms.clock = systemClock;
      env().platforms.pollIntervalMs = 5;
      admin = await createUser(env(), 'root', { role: 'admin' });
    });

    /** A profile behind the slow relay on YouTube (connected through its consent link), TikTok and Instagram. */
    const slowProfile = (user: TestUser, name: string) => connectedProfile(env(), network(), user, name, { proxy: relay.url });

    async function publish(user: TestUser, request: RenderedRequest, accountId: number, overrides = {}) {
      const response = await env().app.inject({
        method: 'POST',
        url: `/api/upload-video/${request.idUpload}`,
        headers: user.headers,
        payload: publishPayload(request, [accountId], { inYouTube: true, inTikTok: true, inInstagram: true, ...overrides }),
      });
      expect(response.statusCode, response.body).toBe(200);
    }

    const uploadPaths = [
      '/upload/youtube/v3/videos?uploadType=resumable&upload_id=',
      '/open-upload.tiktokapis.com/video/',
      '/ig-api-upload/',
    ];
    /**
     * Waits until every platform's upload has reached the platform with the rest of its bytes held
     * inside the relay, so each is part-way when the test goes on.
     */
    async function uploadsUnderWay(count: number) {
      await vi.waitFor(
        () => {
          const uploading = sandbox.requests.filter(
            (entry) => uploadPaths.some((path) => entry.url.includes(path)) && entry.method !== 'GET',
          );
          expect(uploading.length).toBeGreaterThanOrEqual(count);
          expect(relay.held().filter((bytes) => bytes > 0).length).toBeGreaterThanOrEqual(count);
        },
        { timeout: 20_000, interval: 50 },
      );
    }

    /**
     * Once the relay lets everything it holds through and every publish job has run to its end,
     * nothing new is on the platforms and no publish was asked for: an upload that was not stopped
     * would have finished by then, its bytes no longer held back.
     */
    async function expectNothingWentLive(videosBefore: number, requestsBefore: number) {
      relay.release();
      await vi.waitFor(
        async () => {
          expect(relay.held().every((bytes) => bytes === 0)).toBe(true);
          expect(await publishJobsLeft()).toBe(0);
        },
        { timeout: 20_000, interval: 100 },
      );
      expect(sandbox.videos.slice(videosBefore)).toEqual([]);
      const later = sandbox.requests.slice(requestsBefore).map((entry) => `${entry.method} ${entry.url}`);
      expect(later.filter((line) => line.includes('/media_publish'))).toEqual([]);
    }

    /**
     * A stopped job waits a second before it runs again, told by the database's now(), which no
     * test can move: the waiting publish jobs are made due now and the runner told to look.
     */
    async function runWaitingPublishJobs() {
      await env().db.sql(`UPDATE pgboss.job SET start_after = now() WHERE name = 'publish-video' AND state IN ('created', 'retry')`);
      env().queue!.nudge('publish-video');
    }

    /** The publish jobs not ended yet, those waiting run first. */
    async function publishJobsLeft(): Promise<number> {
      await runWaitingPublishJobs();
      const { rows } = await env().db.sql(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'publish-video' AND state IN ('created', 'retry', 'active')`,
      );
      return rows[0].n;
    }

    it('deleting a request while its three uploads run through a 60 kB/s relay stops them: 204, and nothing goes live', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await slowProfile(owner, 'request');
      const request = await renderedRequest(env(), owner.id, 1, videoBytes);
      const videosBefore = sandbox.videos.length;
      await publish(owner, request, profile.id);
      await uploadsUnderWay(3);
      const requestsBefore = sandbox.requests.length;

      const started = Date.now();
      const deleted = await env().app.inject({ method: 'DELETE', url: `/api/create-video/${request.id}`, headers: owner.headers });
      expect(deleted.statusCode, deleted.body).toBe(204);
      // The answer waits until the bytes already inside the slow relay stop landing, so it may
      // take as long as the upload would have, but never past the delete's wait for its uploads.
      // Measured on one database: the other adds only its own speed under load.
      if (env().kind === 'pglite') {
        const answeredMs = Date.now() - started;
        expect(answeredMs).toBeLessThan(stopWaitMs);
        console.info(`[${env().kind}] request delete answered in ${answeredMs} ms`);
      }

      await expectNothingWentLive(videosBefore, requestsBefore);
      const { rows } = await env().db.sql(`SELECT count(*)::int AS n FROM creation_requests WHERE id = $1`, [request.id]);
      expect(rows[0].n).toBe(0);
      // The stopped jobs ran once more, found no post, and ended: nothing is left to publish.
      const { rows: ended } = await env().db.sql(`SELECT state FROM pgboss.job WHERE name = 'publish-video'`);
      expect(ended).toEqual([{ state: 'completed' }, { state: 'completed' }, { state: 'completed' }]);
      expect((await env().db.sql(`SELECT count(*)::int AS n FROM publish_stops`)).rows[0].n).toBe(0);
    });

    it('deleting a profile mid-upload stops its uploads: 204, its posts fail as "profile deleted", nothing goes live', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await slowProfile(owner, 'profile');
      const request = await renderedRequest(env(), owner.id, 1, videoBytes);
      const videosBefore = sandbox.videos.length;
      await publish(owner, request, profile.id, { inYouTube: false });
      await uploadsUnderWay(2);
      const requestsBefore = sandbox.requests.length;

      const deleted = await env().app.inject({ method: 'DELETE', url: `/api/accounts/${profile.id}`, headers: owner.headers });
      expect(deleted.statusCode, deleted.body).toBe(204);

      await expectNothingWentLive(videosBefore, requestsBefore);
      await vi.waitFor(
        async () => {
          const { rows } = await env().db.sql(`SELECT platform, status, failure FROM video_posts WHERE video_id = $1 ORDER BY platform`, [
            request.videos[0]!.id,
          ]);
          expect(rows).toEqual([
            { platform: 'instagram', status: 'error', failure: 'profile_deleted' },
            { platform: 'tiktok', status: 'error', failure: 'profile_deleted' },
          ]);
        },
        { timeout: 10_000, interval: 200 },
      );
    });

    it('deleting a user mid-upload stops the uploads of their requests and profiles', async () => {
      const owner = await createUser(env(), 'leaver');
      const profile = await slowProfile(owner, 'user');
      const request = await renderedRequest(env(), owner.id, 1, videoBytes);
      const videosBefore = sandbox.videos.length;
      await publish(owner, request, profile.id, { inInstagram: false });
      await uploadsUnderWay(2);
      const requestsBefore = sandbox.requests.length;

      const deleted = await env().app.inject({ method: 'DELETE', url: `/api/users/${owner.id}`, headers: admin.headers });
      expect(deleted.statusCode, deleted.body).toBe(204);
      await expectNothingWentLive(videosBefore, requestsBefore);
    });

    it('refuses with a Ukrainian 409 naming the post when TikTok already has every byte, and deletes nothing', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, {
        proxy: network().proxy.url,
        comments: `fast-${env().kind}`,
        isActiveTikTok: true,
        TikTiokAuthStr: issueSandboxToken('tiktok', `fast-${env().kind}@tiktok`),
      });
      const request = await renderedRequest(env(), owner.id, 1, videoBytes);
      await env().db.sql(`UPDATE creation_requests SET title = 'Ранкова пробіжка' WHERE id = $1`, [request.id]);
      // TikTok processes between its status checks: the job waits there once the last chunk is in,
      // on a clock that stands still until the test moves it.
      const clock = new ManualClock();
      env().platforms.clock = clock;
      const pollIntervalMs = 4000;
      env().platforms.pollIntervalMs = pollIntervalMs;
      const videosBefore = sandbox.videos.length;
      await publish(owner, request, profile.id, { inYouTube: false, inTikTok: true, inInstagram: false });
      await vi.waitFor(() => expect(sandbox.videos.length).toBe(videosBefore + 1), { timeout: 10_000, interval: 20 });

      const deleted = await env().app.inject({ method: 'DELETE', url: `/api/create-video/${request.id}`, headers: owner.headers });
      expect(deleted.statusCode, deleted.body).toBe(409);
      expect(deleted.json().message).toBe(
        t.finalDelete.inFlight([
          t.finalDelete.item('Ранкова пробіжка', 1, 'TikTok', t.accounts.optionTitle(profile.id, `fast-${env().kind}`)),
        ]),
      );
      const { rows } = await env().db.sql(`SELECT count(*)::int AS n FROM creation_requests WHERE id = $1`, [request.id]);
      expect(rows[0].n).toBe(1);
      // The refused delete released its hold: the upload finishes and is recorded once the status
      // checks' pauses pass.
      await vi.waitFor(
        async () => {
          await runWaitingPublishJobs();
          await clock.advance(pollIntervalMs);
          const { rows: posts } = await env().db.sql(`SELECT status FROM video_posts WHERE video_id = $1`, [request.videos[0]!.id]);
          expect(posts).toEqual([{ status: 'done' }]);
        },
        { timeout: 15_000, interval: 200 },
      );
    });

    it('a proxy that still delivers an aborted upload: the delete waits for its bytes and refuses once TikTok has them all', async () => {
      const drainingRelay = await startThrottledRelay(network().proxy.port, relayBytesPerSecond, { drainsAfterClientLeaves: true });
      try {
        const owner = await createUser(env(), 'owner');
        const label = `draining-${env().kind}`;
        const profile = await createAccount(env(), owner, {
          proxy: drainingRelay.url,
          comments: label,
          isActiveTikTok: true,
          TikTiokAuthStr: issueSandboxToken('tiktok', `${label}@tiktok`),
        });
        const request = await renderedRequest(env(), owner.id, 1, videoBytes);
        const videosBefore = sandbox.videos.length;
        await publish(owner, request, profile.id, { inYouTube: false, inTikTok: true, inInstagram: false });
        // The relay reads the whole file at once and lets it through at 60 kB/s: once the upload
        // is under way, every byte is inside the proxy and will land whatever the client does.
        await vi.waitFor(
          () => {
            expect(sandbox.requests.some((entry) => entry.url.includes('/open-upload.tiktokapis.com/video/'))).toBe(true);
            expect(drainingRelay.receivedBytes).toBeGreaterThanOrEqual(videoBytes);
          },
          { timeout: 20_000, interval: 50 },
        );

        const deleting = env().app.inject({ method: 'DELETE', url: `/api/create-video/${request.id}`, headers: owner.headers });
        // The upload is aborted with its bytes still inside the proxy; they land once the test lets them.
        await vi.waitFor(() => expect(drainingRelay.draining()).toBe(1), { timeout: 20_000, interval: 20 });
        drainingRelay.release();
        const deleted = await deleting;
        expect(deleted.statusCode, deleted.body).toBe(409);
        expect(deleted.json().message).toBe(
          t.finalDelete.inFlight([t.finalDelete.item('Ранкова пробіжка', 1, 'TikTok', t.accounts.optionTitle(profile.id, label))]),
        );
        expect(sandbox.videos.length).toBe(videosBefore + 1);
        const { rows } = await env().db.sql(`SELECT count(*)::int AS n FROM creation_requests WHERE id = $1`, [request.id]);
        expect(rows[0].n).toBe(1);
      } finally {
        await drainingRelay.close();
      }
    });

    it('a scheduled post of a deleted request leaves no job that publishes: its job finds no post and ends', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, {
        proxy: network().proxy.url,
        comments: `later-${env().kind}`,
        isActiveTikTok: true,
        TikTiokAuthStr: issueSandboxToken('tiktok', `later-${env().kind}@tiktok`),
      });
      const request = await renderedRequest(env(), owner.id, 1, videoBytes);
      await publish(owner, request, profile.id, {
        inYouTube: false,
        inInstagram: false,
        date: new Date(Date.now() + 3600_000).toISOString(),
      });
      const { rows: jobs } = await env().db.sql(`SELECT id FROM pgboss.job WHERE name = 'publish-video' AND state = 'created'`);
      expect(jobs).toHaveLength(1);

      const deleted = await env().app.inject({ method: 'DELETE', url: `/api/create-video/${request.id}`, headers: owner.headers });
      expect(deleted.statusCode, deleted.body).toBe(204);
      const requestsBefore = sandbox.requests.length;
      await runWaitingPublishJobs();
      await vi.waitFor(
        async () => {
          const { rows } = await env().db.sql(`SELECT state FROM pgboss.job WHERE id = $1`, [jobs[0].id]);
          expect(rows).toEqual([{ state: 'completed' }]);
        },
        { timeout: 10_000, interval: 100 },
      );
      expect(platformRequestsSince(sandbox, requestsBefore)).toEqual([]);
    });
  },
  { queue: 'work', sandbox },
);

/**
 * The stop request crosses processes: the API deletes in this test process, the upload runs in a
 * worker process of its own (Postgres only: PGlite is one process's database).
 */
describe.runIf(inject('postgresUrl'))('A delete in the API process stops an upload in a worker process [postgres]', () => {
  const sandbox = new SandboxState();
  let env: TestEnv;
  let drop: () => Promise<void>;
  let dataDir: string;
  let proxy: LoopbackProxy;
  let relay: ThrottledRelay;
  let worker: ChildProcess | undefined;
  let workerLog = '';

  beforeAll(async () => {
    const fresh = await freshDatabase('postgres');
    drop = fresh.drop;
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-final-delete-'));
    const media = testMedia(path.join(dataDir, 'media'));
    const tokenSettings = testTokenSettings();
    const queue = await startQueue({
      db: fresh.db,
      log: pino({ level: 'silent' }),
      work: false,
      context: {} as never,
      engine: engineSettings(),
    });
    const app = await buildApp({
      clock: systemClock,
      db: fresh.db,
      keys: tokenSettings.keys,
      tokenSettings,
      queue,
      media,
      sandbox: { state: sandbox },
    });
    const sandboxOrigin = await app.listen({ port: 0, host: '127.0.0.1' });
    proxy = await startLoopbackProxy();
    relay = await startThrottledRelay(proxy.port, relayBytesPerSecond);
    env = {
      kind: 'postgres',
      db: fresh.db,
      app,
      tokenSettings,
      media,
      mediaDir: path.join(dataDir, 'media'),
      queue,
      platforms: testPlatformSettings(sandboxOrigin),
    };
    worker = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--role=worker'], {
      env: {
        ...process.env,
        DATABASE_URL: fresh.url!,
        DATA_DIR: dataDir,
        SECRET_KEY: testSecretKey,
        PLATFORMS: 'sandbox',
        SANDBOX_ORIGIN: sandboxOrigin,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout!.on('data', (chunk: Buffer) => (workerLog += chunk.toString()));
    worker.stderr!.on('data', (chunk: Buffer) => (workerLog += chunk.toString()));
  });
  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker!.once('exit', resolve));
      worker.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (worker.exitCode === null) worker.kill('SIGKILL');
    }
    await env?.app.close();
    await env?.queue?.stop({ graceful: false, wait: true });
    await relay?.close();
    await proxy?.close();
    await drop?.();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('deleting a request answers 204 once the worker stopped its TikTok upload, and nothing goes live', async () => {
    const owner = await createUser(env, 'owner');
    const profile = await createAccount(env, owner, {
      proxy: relay.url,
      comments: 'two-processes',
      isActiveTikTok: true,
      TikTiokAuthStr: issueSandboxToken('tiktok', 'two-processes@tiktok'),
    });
    const request = await renderedRequest(env, owner.id, 1, videoBytes);
    const published = await env.app.inject({
      method: 'POST',
      url: `/api/upload-video/${request.idUpload}`,
      headers: owner.headers,
      payload: publishPayload(request, [profile.id], { inYouTube: false, inTikTok: true, inInstagram: false }),
    });
    expect(published.statusCode, published.body).toBe(200);
    await vi.waitFor(
      () => {
        expect(sandbox.requests.some((entry) => entry.url.includes('/open-upload.tiktokapis.com/video/'))).toBe(true);
        expect(relay.held().some((bytes) => bytes > 0)).toBe(true);
      },
      { timeout: 30_000, interval: 50 },
    );

    const deleted = await env.app.inject({ method: 'DELETE', url: `/api/create-video/${request.id}`, headers: owner.headers });
    expect(deleted.statusCode, `${deleted.body}\n${workerLog}`).toBe(204);
    // An upload the worker did not stop would finish once the relay holds nothing back, and its job end.
    relay.release();
    await vi.waitFor(
      async () => {
        expect(relay.held().every((bytes) => bytes === 0)).toBe(true);
        const { rows } = await env.db.sql(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'publish-video' AND state = 'active'`);
        expect(rows[0].n).toBe(0);
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(sandbox.videos).toEqual([]);
  });
});
