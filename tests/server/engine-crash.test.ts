import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { UploadDetail } from '../../src/lib/contract';
import { buildApp } from '../../server/app';
import type { Database } from '../../server/db/connect';
import { purgeRefreshTokensJob } from '../../server/jobs/definitions';
import { startQueue, type Queue } from '../../server/jobs/queue';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import { startLoopbackProxy, type LoopbackProxy } from '../../server/sandbox/loopback-proxy';
import { makeClip, makeImage, multipart, testTools } from '../fixtures/media';
import { createAccount } from './backoffice-fixtures';
import {
  createUser,
  databaseKinds,
  freshDatabase,
  testMedia,
  testPlatformSettings,
  testSecretKey,
  testTokenSettings,
  uploadImages,
  type TestEnv,
} from './helpers';
import { publishPayload, renderedRequest } from './publishing-fixtures';
import { engineSettings } from '../../server/config';
import { systemClock } from '../../server/clock';

const silent = pino({ level: 'silent' });
const scratchOf = (mediaDir: string) => path.join(mediaDir, '.scratch');

// In one process, on PGlite and Postgres: a process that stopped beating loses its jobs, leases and scratch.
for (const kind of databaseKinds()) {
  describe(`The sweeper takes back what a dead process held [${kind}]`, () => {
    let db: Database;
    let drop: () => Promise<void>;
    let queue: Queue;
    let mediaDir: string;

    beforeAll(async () => {
      ({ db, drop } = await freshDatabase(kind));
      mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-sweep-'));
      queue = await startQueue({
        db,
        log: silent,
        work: true,
        // The purge job used here is a background queue's: polled every 0.5 s, not 5 s, once put back.
        engine: { ...engineSettings(), heartbeatSeconds: 0.5, deadAfterSeconds: 1.5, backgroundPollSeconds: 0.5 },
        context: { db, media: testMedia(mediaDir), keys: testTokenSettings().keys, platforms: testPlatformSettings() },
      });
    });
    afterAll(async () => {
      await queue?.stop({ graceful: false, wait: true });
      await drop?.();
      await fs.rm(mediaDir, { recursive: true, force: true });
    });

    it('puts its running job back, frees its lease and removes its scratch folder', async () => {
      const dead = crypto.randomUUID();
      await db.sql(
        `INSERT INTO engine_workers (id, host, pid, role, last_seen) VALUES ($1, 'gone', 1, 'worker', now() - interval '1 hour')`,
        [dead],
      );
      const jobId = (await queue.send(purgeRefreshTokensJob.name, {}))!;
      await db.sql(`UPDATE pgboss.job SET state = 'active', started_on = now() - interval '1 hour' WHERE id = $1`, [jobId]);
      await db.sql(`INSERT INTO engine_jobs (job_id, queue, worker_id) VALUES ($1, $2, $3)`, [jobId, purgeRefreshTokensJob.name, dead]);
      await db.sql(`INSERT INTO engine_leases (key, worker_id, job_id) VALUES ('upload:1:tiktok', $1, $2)`, [dead, jobId]);
      const folder = path.join(scratchOf(mediaDir), `${dead}.abc123-xyz`);
      await fs.mkdir(folder, { recursive: true });
      await fs.writeFile(path.join(folder, 'variant-0.mp4'), 'half a file');

      await vi.waitFor(
        async () => {
          const job = await queue.getJobById(purgeRefreshTokensJob.name, jobId);
          expect(job?.state).toBe('completed');
        },
        { timeout: 10_000, interval: 100 },
      );
      expect((await db.sql(`SELECT count(*)::int AS n FROM engine_workers WHERE id = $1`, [dead])).rows[0].n).toBe(0);
      expect((await db.sql(`SELECT count(*)::int AS n FROM engine_leases`)).rows[0].n).toBe(0);
      expect(await fs.readdir(scratchOf(mediaDir))).toEqual([]);
    });
  });
}

/**
 * Two worker processes on one Postgres (PGlite is one process's database, so this part runs on
 * Postgres only): the API and the sandbox live in this test process, as an API process would.
 */
describe.runIf(inject('postgresUrl'))('A worker killed with SIGKILL mid-render and mid-publish [postgres]', () => {
  let env: TestEnv;
  let drop: () => Promise<void>;
  let databaseUrl: string;
  let dataDir: string;
  let proxy: LoopbackProxy;
  let sandboxOrigin: string;
  const sandbox = new SandboxState();
  const workers: ChildProcess[] = [];
  const logs = new Map<ChildProcess, string>();

  beforeAll(async () => {
    const fresh = await freshDatabase('postgres');
    drop = fresh.drop;
    databaseUrl = fresh.url!;
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-crash-'));
    const mediaDir = path.join(dataDir, 'media');
    const media = testMedia(mediaDir);
    const tokenSettings = testTokenSettings();
    // The same liveness as the workers below: with the default 5 s heartbeat, a worker judging by
    // 3 s took this API process for dead and swept its upload's scratch folder mid-request (a 500).
    const queue = await startQueue({
      db: fresh.db,
      log: silent,
      work: false,
      context: {} as never,
      engine: { ...engineSettings(), heartbeatSeconds: 1, deadAfterSeconds: 3 },
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
    sandboxOrigin = await app.listen({ port: 0, host: '127.0.0.1' });
    proxy = await startLoopbackProxy();
    env = { kind: 'postgres', db: fresh.db, app, tokenSettings, media, mediaDir, queue, platforms: testPlatformSettings(sandboxOrigin) };
  });
  afterAll(async () => {
    for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    await env?.app.close();
    await env?.queue?.stop({ graceful: false, wait: true });
    await proxy?.close();
    await drop?.();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  function startWorker(): ChildProcess {
    const tools = testTools();
    // `node --import tsx`, not the tsx binary: one process, so SIGKILL hits the worker itself.
    const worker = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--role=worker'], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        SECRET_KEY: testSecretKey,
        PLATFORMS: 'sandbox',
        SANDBOX_ORIGIN: sandboxOrigin,
        FFMPEG_PATH: tools.ffmpeg,
        FFPROBE_PATH: tools.ffprobe,
        RENDER_PRESET: 'ultrafast',
        WORKER_HEARTBEAT_SECONDS: '1',
        WORKER_DEAD_AFTER_SECONDS: '3',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    logs.set(worker, '');
    const keep = (chunk: Buffer) => logs.set(worker, logs.get(worker) + chunk.toString());
    worker.stdout!.on('data', keep);
    worker.stderr!.on('data', keep);
    workers.push(worker);
    return worker;
  }

  /** Processes whose command line names this test's data folder: ffmpeg at work on its files. */
  function ffmpegsOfThisTest(): string[] {
    const lines = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
    return lines.filter((line) => line.includes(dataDir) && /ffmpeg/.test(line));
  }

  async function rows(text: string, values: unknown[] = []) {
    return (await env.db.sql(text, values)).rows;
  }

  it('each request and post finishes within 60 s on another worker, once, with no orphan ffmpeg or scratch file', async () => {
    const user = await createUser(env, 'operator');
    const profile = await createAccount(env, user, {
      proxy: proxy.url,
      comments: 'crash',
      isActiveTikTok: true,
      TikTiokAuthStr: issueSandboxToken('tiktok', 'crash@tiktok'),
      isActiveInstagram: true,
      InstagramLogin: 'crash.insta',
      InstagramPassword: 'instagram-password',
    });

    const first = startWorker();
    // A render long enough to be caught at work: 2 variants of a 12 s clip.
    const source = path.join(dataDir, 'source.mp4');
    const tools = testTools();
    await makeClip(tools, source, { seconds: 12 });
    const image = path.join(dataDir, 'background.png');
    await makeImage(tools, image);
    const photoIds = await uploadImages(env.app, user.headers, [image]);
    const form = await multipart([
      { name: 'countVideo', value: '2' },
      { name: 'photoIds', value: JSON.stringify(photoIds) },
      { name: 'file', file: { path: source, filename: 'source.mp4', contentType: 'video/mp4' } },
    ]);
    const created = await env.app.inject({
      method: 'POST',
      url: '/api/create-video/create',
      headers: { ...user.headers, ...form.headers },
      payload: form.payload,
    });
    expect(created.statusCode, created.body).toBe(201);
    const { idUpload: renderId } = created.json<{ idUpload: string }>();

    // A publish on TikTok and Instagram: both wait 5 s for processing after their upload.
    const published = await renderedRequest(env, user.id, 1, 256_000);
    const sent = await env.app.inject({
      method: 'POST',
      url: `/api/upload-video/${published.idUpload}`,
      headers: user.headers,
      payload: publishPayload(published, [profile.id], { inYouTube: false, inTikTok: true, inInstagram: true }),
    });
    expect(sent.statusCode, sent.body).toBe(200);

    // Kill once ffmpeg renders and both uploads are on the platforms but not yet confirmed.
    await vi.waitFor(
      async () => {
        expect(ffmpegsOfThisTest().length).toBeGreaterThan(0);
        const posts = await rows(`SELECT platform, status, progress FROM video_posts ORDER BY platform`);
        expect(posts.map((post) => [post.platform, post.status, Boolean(post.progress?.publishId ?? post.progress?.uploaded)])).toEqual([
          ['instagram', 'pending', true],
          ['tiktok', 'pending', true],
        ]);
      },
      { timeout: 30_000, interval: 50 },
    );
    first.kill('SIGKILL');
    const killedAt = Date.now();
    await new Promise((resolve) => first.once('exit', resolve));

    // ffmpeg dies with its worker.
    await vi.waitFor(() => expect(ffmpegsOfThisTest()).toEqual([]), { timeout: 2000, interval: 100 });
    expect((await fs.readdir(path.join(dataDir, 'media', '.scratch'))).length).toBeGreaterThan(0);

    const second = startWorker();
    await vi.waitFor(
      async () => {
        const response = await env.app.inject({ method: 'GET', url: `/api/create-video/request/${renderId}`, headers: user.headers });
        expect(response.json<{ status: string }>().status).toBe('success');
        const detail = (
          await env.app.inject({ method: 'GET', url: `/api/upload-video/${published.idUpload}`, headers: user.headers })
        ).json<UploadDetail>();
        expect(detail.video[0]!.status).toBe('success');
      },
      { timeout: 60_000, interval: 250 },
    );
    expect(Date.now() - killedAt).toBeLessThan(60_000);

    // Exactly one post per (video, platform) on the platforms, and the post rows point at it.
    const publishKey = (platform: string) => `video-${published.videos[0]!.id}-${platform}`;
    for (const platform of ['tiktok', 'instagram'] as const) {
      const onPlatform = sandbox.videos.filter((video) => video.platform === platform && video.description.includes(publishKey(platform)));
      expect(onPlatform).toHaveLength(1);
      const [post] = await rows(`SELECT status, url, remote_id FROM video_posts WHERE platform = $1`, [platform]);
      expect(post).toEqual({ status: 'done', url: expect.any(String), remote_id: onPlatform[0]!.id });
    }
    const [video] = await rows(`SELECT url_tiktok, url_instagram FROM videos WHERE id = $1`, [published.videos[0]!.id]);
    expect(video.url_tiktok).toBe(sandbox.videos.find((entry) => entry.platform === 'tiktok')!.url);

    // The dead worker's scratch folders are swept; the new worker's are disposed; no ffmpeg is left.
    await vi.waitFor(async () => expect(await fs.readdir(path.join(dataDir, 'media', '.scratch'))).toEqual([]), { timeout: 5000 });
    expect(ffmpegsOfThisTest()).toEqual([]);
    expect(logs.get(second)).toContain('job recovered from a dead worker');

    second.kill('SIGTERM');
    await new Promise((resolve) => second.once('exit', resolve));
  }, 120_000);
});
