import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { platformEndpoints } from '../../server/platforms/endpoints';
import { PlatformNetworkError } from '../../server/net/http';
import { memoryProgressStore } from '../../server/platforms/progress';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import { startLoopbackProxy, type LoopbackProxy } from '../../server/sandbox/loopback-proxy';
import { tiktok } from '../../server/platforms/tiktok/connector';
import { publishKey, type Platform, type VideoUpload } from '../../server/platforms/types';
import { youtube } from '../../server/platforms/youtube/connector';
import { freshDatabase, testMedia, testTokenSettings } from './helpers';
import { everyChoiceMade } from './platforms-helpers';
import { testNetwork } from './helpers';
import { systemClock } from '../../server/clock';

/**
 * A real platform keeps its sessions while this server restarts: a resumable YouTube session and
 * its bytes, a TikTok publish id. The sandbox, which dies with this server, keeps them in DATA_DIR.
 */
let dir: string;
let proxy: LoopbackProxy;
let db: Awaited<ReturnType<typeof freshDatabase>>;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-sandbox-restart-'));
  proxy = await startLoopbackProxy();
  db = await freshDatabase('pglite');
});
afterAll(async () => {
  await proxy?.close();
  await db?.drop();
  await fs.rm(dir, { recursive: true, force: true });
});

async function sandboxServer(port = 0) {
  const state = new SandboxState({ dataDir: dir });
  const tokenSettings = testTokenSettings();
  const app = await buildApp({
    clock: systemClock,
    db: db.db,
    keys: tokenSettings.keys,
    tokenSettings,
    queue: null,
    media: testMedia(path.join(dir, 'media')),
    sandbox: { state },
  });
  await app.listen({ host: '127.0.0.1', port });
  return { state, app, port: (app.server.address() as AddressInfo).port };
}

async function videoFile(platform: Platform) {
  const bytes = crypto.randomBytes(400_000);
  const file = path.join(dir, `${platform}.mp4`);
  await fs.writeFile(file, bytes);
  const video: VideoUpload = {
    path: file,
    size: bytes.length,
    contentType: 'video/mp4',
    title: 'Вечірня прогулянка',
    description: 'Опис',
    tags: [],
    publishKey: publishKey(7, platform),
    options: everyChoiceMade,
  };
  return { video, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
}

it('a YouTube session and a TikTok publish id started before a restart finish after it, each as one video', async () => {
  const first = await sandboxServer();
  const context = (port: number, platform: Platform, progress = memoryProgressStore()) => ({
    proxy: proxy.url,
    network: testNetwork(),
    credentials: { accessToken: issueSandboxToken(platform, `restart@${platform}`) },
    endpoints: platformEndpoints('sandbox', `http://127.0.0.1:${port}`),
    progress,
    pollIntervalMs: 5,
    clock: systemClock,
  });
  const youtubeVideo = await videoFile('youtube');
  const tiktokVideo = await videoFile('tiktok');
  const youtubeProgress = memoryProgressStore();
  const tiktokProgress = memoryProgressStore();

  // YouTube: the connection drops after 150 000 bytes; TikTok: the upload is whole, its status unasked.
  first.state.faults.push({ platform: 'youtube', step: 'upload', kind: 'drop-connection', afterBytes: 150_000 });
  first.state.faults.push({ platform: 'tiktok', step: 'status', kind: 'drop-connection' });
  await expect(youtube.publish(context(first.port, 'youtube', youtubeProgress), youtubeVideo.video)).rejects.toBeInstanceOf(
    PlatformNetworkError,
  );
  await expect(tiktok.publish(context(first.port, 'tiktok', tiktokProgress), tiktokVideo.video)).rejects.toBeInstanceOf(
    PlatformNetworkError,
  );
  await first.app.close();

  const second = await sandboxServer(first.port);
  try {
    const onYouTube = await youtube.publish(context(second.port, 'youtube', youtubeProgress), youtubeVideo.video);
    const onTikTok = await tiktok.publish(context(second.port, 'tiktok', tiktokProgress), tiktokVideo.video);

    const stored = second.state.videos.map((video) => [video.platform, video.id, video.sha256]);
    expect(stored.sort()).toEqual([
      ['tiktok', onTikTok.remoteId, tiktokVideo.sha256],
      ['youtube', onYouTube.remoteId, youtubeVideo.sha256],
    ]);
    // Resumed, not started again: the session sent only what was missing, and no second publish was initialised.
    const requests = second.state.requests.map((request) => `${request.method} ${request.url.split('?')[0]}`);
    expect(requests).not.toContain('POST /sandbox/www.googleapis.com/upload/youtube/v3/videos');
    expect(requests).not.toContain('POST /sandbox/open.tiktokapis.com/v2/post/publish/video/init/');
    // Finished uploads leave no bytes behind.
    expect(await fs.readdir(path.join(dir, 'sandbox', 'uploads'))).toEqual([]);
  } finally {
    await second.app.close();
  }
});
