import path from 'node:path';
import fs from 'node:fs/promises';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CreationRequestDetail, LoginResponse, UploadDetail } from '../../src/lib/contract';
import { issueSandboxToken } from '../../server/sandbox/index';
import { syncStatsJobName } from '../../server/jobs/sync-stats';
import { s3Storage } from '../../server/media/s3-storage';
import { filesUnder, makeClip, makeMediaFixtures, testTools, type MediaFixtures } from '../fixtures/media';
import { s3Credentials, startS3Server, type TestS3Server } from '../fixtures/s3-server';
import { freshDatabase, postgresUrl, startProcess, type ServerProcess } from './processes';

const adminPassword = 'scale-out-admin-password';
// The test reads the store itself with the same credentials the processes get.
Object.assign(process.env, s3Credentials);

/**
 * An API process and a worker process that share only DATABASE_URL and STORAGE_URL, as on two
 * machines: each has its own DATA_DIR, and no media file may land in either.
 */
describe.skipIf(!postgresUrl)('an API and a worker on separate disks, sharing Postgres and an S3 store', () => {
  let s3: TestS3Server;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let api: ServerProcess;
  let worker: ServerProcess;
  let replacement: ServerProcess | undefined;
  let fixtures: MediaFixtures;
  let headers: Record<string, string>;
  let sharedEnv: Record<string, string>;
  /** The admin's one background image, chosen by every request here. */
  let photoIds: string;

  beforeAll(async () => {
    fixtures = await makeMediaFixtures(testTools());
    // Instagram takes Reels of 3 s and more (the pre-queue check of issue 22.3).
    await makeClip(testTools(), path.join(fixtures.dir, 'reel.mp4'), { seconds: 4 });
    s3 = await startS3Server();
    database = await freshDatabase();
    const env = {
      ...s3.env('office'),
      DATABASE_URL: database.url,
      SECRET_KEY: 'scale-out-secret-key-0123456789abcdefghij',
      ADMIN_LOGIN: 'admin',
      ADMIN_PASSWORD: adminPassword,
      RENDER_PRESET: 'ultrafast',
      WORKER_HEARTBEAT_SECONDS: '1',
      WORKER_DEAD_AFTER_SECONDS: '3',
    };
    sharedEnv = env;
    api = await startProcess('api', env);
    await api.ready();
    worker = await startProcess('worker', { ...env, SANDBOX_ORIGIN: api.baseUrl! });
    await worker.ready();
    const login = await call<LoginResponse>('POST', '/api/auth/login', { login: 'admin', password: adminPassword });
    headers = { authorization: `Bearer ${login.accessToken}` };
    const images = new FormData();
    images.set('files', new Blob([await fs.readFile(fixtures.png)], { type: 'image/png' }), 'background.png');
    const { data } = await call<{ data: { id: number }[] }>('POST', '/api/photo-bg', images);
    photoIds = JSON.stringify(data.map((photo) => photo.id));
  });

  afterAll(async () => {
    await worker?.stop();
    await replacement?.stop();
    await api?.stop();
    await database?.drop();
    await s3?.close();
    await fixtures?.remove();
  });

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  it('uploads, renders, publishes and syncs statistics with nothing shared on disk', async () => {
    const form = new FormData();
    form.set('countVideo', '2');
    form.set('photoIds', photoIds);
    form.set('file', new Blob([await fs.readFile(path.join(fixtures.dir, 'reel.mp4'))], { type: 'video/mp4' }), 'clip.mp4');
    const { idUpload } = await call<{ idUpload: string }>('POST', '/api/create-video/create', form);

    let request: CreationRequestDetail | undefined;
    await vi.waitFor(
      async () => {
        request = await call<CreationRequestDetail>('GET', `/api/create-video/request/${idUpload}`);
        expect(request.status).toBe('success');
      },
      { timeout: 90_000, interval: 500 },
    );
    // The variants the worker wrote are served by the API, which never had them on its disk.
    const poster = await fetch(new URL(request!.video[0]!.posterUrl!, api.baseUrl));
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    expect((await poster.arrayBuffer()).byteLength).toBeGreaterThan(0);

    const proxy = /Sandbox proxy for profiles: (\S+)/.exec(api.output())![1]!;
    const profile = await call<{ id: number }>('POST', '/api/accounts', {
      proxy,
      ipVersion: 'ipv4',
      comments: 'scale-out',
      isActiveYouTube: false,
      isActiveTikTok: true,
      isActiveInstagram: true,
      YouTubeAuthClientId: '',
      YouTubeAuthClientSecret: '',
      YouTubeLogin: '',
      YouTubePassword: '',
      InstagramLogin: 'scale.out',
      InstagramPassword: 'instagram-password',
      InstagramAccessToken: '',
      InstagramUserId: '',
      TikTiokAuthStr: issueSandboxToken('tiktok', 'scale-out@tiktok'),
    });
    // The operator's remembered TikTok choice: a publish without one is refused (issue 22.3).
    await call('PUT', `/api/posting-rules/${profile.id}`, { tiktok: { privacyLevel: 'SELF_ONLY' } });
    const option = { id: profile.id, title: 'scale-out', value: profile.id };
    await call('POST', `/api/upload-video/${idUpload}`, {
      title: 'Два процеси',
      description: 'Опис',
      tags: ['масштаб'],
      accounts: [option],
      video: request!.video.map((video) => ({ ...video, account: null, date: null })),
      inYouTube: false,
      inTikTok: true,
      inInstagram: true,
      date: null,
    });

    let published: UploadDetail | undefined;
    await vi.waitFor(
      async () => {
        published = await call<UploadDetail>('GET', `/api/upload-video/${idUpload}`);
        expect(published.video.map((video) => video.status)).toEqual(['success', 'success']);
      },
      { timeout: 90_000, interval: 500 },
    );
    expect(published!.video.every((video) => video.urlTiktok && video.urlInstagram)).toBe(true);

    // Statistics sync on a cron; a test cannot wait for it, so it queues the same job itself.
    const boss = new PgBoss({ connectionString: database.url, supervise: false, schedule: false, migrate: false });
    await boss.start();
    try {
      await vi.waitFor(
        async () => {
          await boss.send(syncStatsJobName, {});
          await new Promise((resolve) => setTimeout(resolve, 1000));
          const synced = await call<UploadDetail>('GET', `/api/upload-video/${idUpload}`);
          expect(synced.video.every((video) => video.viewsInstagram > 0)).toBe(true);
        },
        { timeout: 60_000, interval: 1000 },
      );
    } finally {
      await boss.stop({ graceful: false });
    }

    const mediaOnDisk = async (process: ServerProcess) => (await filesUnder(process.dataDir)).filter((file) => file.startsWith('media/'));
    expect(await mediaOnDisk(api)).toEqual([]);
    expect(await mediaOnDisk(worker)).toEqual([]);
    const store = s3Storage(s3.settings('office'), worker.dataDir);
    for (const name of ['0.mp4', '0.jpg', '1.mp4', '1.jpg']) {
      expect(await store.size(`requests/${idUpload}/${name}`), name).toBeGreaterThan(0);
    }
  });

  it('a worker killed mid-render is replaced by one on another disk, which finishes the request', async () => {
    const form = new FormData();
    form.set('countVideo', '3');
    form.set('photoIds', photoIds);
    form.set('file', new Blob([await fs.readFile(path.join(fixtures.dir, 'reel.mp4'))], { type: 'video/mp4' }), 'clip.mp4');
    const { idUpload } = await call<{ idUpload: string }>('POST', '/api/create-video/create', form);
    // Killed once it holds the render (the engine's table of running jobs names it), mid-encode.
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    await vi.waitFor(
      async () => {
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM engine_jobs WHERE queue = 'render-request'`);
        expect(rows[0].n).toBe(1);
      },
      { timeout: 30_000, interval: 100 },
    );
    await db.end();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await worker.kill('SIGKILL');
    const killedAt = Date.now();

    replacement = await startProcess('worker', { ...sharedEnv, SANDBOX_ORIGIN: api.baseUrl! });
    await replacement.ready();
    await vi.waitFor(
      async () => {
        const request = await call<CreationRequestDetail>('GET', `/api/create-video/request/${idUpload}`);
        expect(request.status).toBe('success');
      },
      { timeout: 60_000, interval: 500 },
    );
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    const store = s3Storage(s3.settings('office'), replacement.dataDir);
    for (const name of ['0.mp4', '1.mp4', '2.mp4']) {
      expect(await store.size(`requests/${idUpload}/${name}`), name).toBeGreaterThan(0);
    }
  });
});

describe('a media store configured wrongly', () => {
  let s3: TestS3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(() => s3.close());

  async function startFails(env: Record<string, string>): Promise<string> {
    const process = await startProcess('all', { DATABASE_URL: '', ...s3.env(), ...env });
    try {
      await expect(process.ready(60_000)).rejects.toThrow('exited with 1');
      return process.output();
    } finally {
      await process.stop();
    }
  }

  it('stops the start with one sentence for a missing bucket, refused credentials or an unreachable endpoint', async () => {
    expect(await startFails({ STORAGE_URL: 's3://no-such-bucket' })).toContain(
      `Configuration error: media storage s3://no-such-bucket/: the bucket "no-such-bucket" does not exist at ${s3.endpoint}`,
    );
    expect(await startFails({ AWS_ACCESS_KEY_ID: 'unknown-key-id' })).toContain(
      `Configuration error: media storage s3://media/: ${s3.endpoint} refused the credentials for bucket "media"`,
    );
    expect(await startFails({ S3_ENDPOINT: 'http://127.0.0.1:9' })).toContain(
      'Configuration error: media storage s3://media/: the storage endpoint http://127.0.0.1:9 cannot be reached',
    );
  });
});
