import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { PostOptions } from '../../src/lib/contract';
import { buildApp } from '../../server/app';
import type { Database } from '../../server/db/connect';
import { platformEndpoints } from '../../server/platforms/endpoints';
import { memoryProgressStore } from '../../server/platforms/progress';
import { SandboxState } from '../../server/sandbox/index';
import { startLoopbackProxy, type LoopbackProxy } from '../../server/sandbox/loopback-proxy';
import type { Credentials, Endpoints, Platform, PublishProgressStore, VideoUpload } from '../../server/platforms/types';
import { publishKey } from '../../server/platforms/types';
import { freshDatabase, testMedia, testTokenSettings } from './helpers';
import { testNetwork } from './helpers';
import { systemClock } from '../../server/clock';

export const proxyUser = 'operator';
export const proxyPassword = 'p@ss:w0rd';

export interface PlatformsEnv {
  db: Database;
  app: Awaited<ReturnType<typeof buildApp>>;
  state: SandboxState;
  clock: { now: number };
  origin: string;
  proxy: LoopbackProxy;
  /** The profile's proxy as an operator would enter it, credentials included. */
  httpProxy: string;
  socksProxy: string;
  endpoints: Endpoints;
  dir: string;
}

/**
 * The real app in sandbox mode listening on a port, and a loopback proxy that demands
 * credentials, so connectors go over real HTTP through the proxy as a profile's calls would.
 */
export function usePlatformsSandbox(): () => PlatformsEnv {
  let env: PlatformsEnv | undefined;
  let drop: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const fresh = await freshDatabase('pglite');
    drop = fresh.drop;
    const clock = { now: Date.parse('2026-11-22T10:00:00Z') };
    // Every test of a file posts through one TikTok token while the clock stands still, so TikTok's
    // 6 video/init calls a minute would stop the file mid-way; sandbox-caps.test.ts covers that limit.
    const state = new SandboxState({ now: () => clock.now, limits: { tiktokInitsPerMinute: Infinity } });
    const tokenSettings = testTokenSettings();
    const app = await buildApp({
      clock: systemClock,
      db: fresh.db,
      keys: tokenSettings.keys,
      tokenSettings,
      queue: null,
      media: testMedia(path.join(os.tmpdir(), 'shorts-platforms-unused-media')),
      platforms: 'sandbox',
      sandbox: { state },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const proxy = await startLoopbackProxy({ username: proxyUser, password: proxyPassword });
    const credentials = `${encodeURIComponent(proxyUser)}:${encodeURIComponent(proxyPassword)}`;
    env = {
      db: fresh.db,
      app,
      state,
      clock,
      origin,
      proxy,
      httpProxy: `http://${credentials}@127.0.0.1:${proxy.port}`,
      socksProxy: `socks5://${credentials}@127.0.0.1:${proxy.port}`,
      endpoints: platformEndpoints('sandbox', origin),
      dir: await fs.mkdtemp(path.join(os.tmpdir(), 'platforms-')),
    };
  });
  beforeEach(() => {
    env!.state.faults.splice(0);
    env!.state.requests.splice(0);
    env!.state.videos.splice(0);
    env!.proxy.traffic.splice(0);
  });
  afterAll(async () => {
    await env?.proxy.close();
    await env?.app.close();
    if (env) await fs.rm(env.dir, { recursive: true, force: true });
    await drop();
  });
  return () => env!;
}

let fileCounter = 0;

/** A "video" of random bytes: the platforms check byte counts and hashes, not codecs. */
/** The operator's explicit choices for a post; SELF_ONLY is the one level creator_info offers every account. */
export const everyChoiceMade: PostOptions = {
  tiktok: { privacyLevel: 'SELF_ONLY', disableComment: false, disableDuet: false, disableStitch: false },
  youtube: { privacyStatus: 'public', selfDeclaredMadeForKids: false, categoryId: '22' },
  instagram: { shareToFeed: true },
};

export async function videoFile(env: PlatformsEnv, platform: Platform, size = 300_000, videoId = 42) {
  const bytes = crypto.randomBytes(size);
  const file = path.join(env.dir, `video-${++fileCounter}.mp4`);
  await fs.writeFile(file, bytes);
  const video: VideoUpload = {
    path: file,
    size,
    contentType: 'video/mp4',
    title: 'Ранкова пробіжка',
    description: 'Опис відео для перевірки',
    tags: ['біг', 'ранок'],
    publishKey: publishKey(videoId, platform),
    options: everyChoiceMade,
  };
  return { video, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
}

export function context<C extends Credentials>(
  env: PlatformsEnv,
  credentials: C,
  progress: PublishProgressStore = memoryProgressStore(),
  proxy = env.httpProxy,
) {
  return { proxy, network: testNetwork(), credentials, endpoints: env.endpoints, progress, pollIntervalMs: 5, clock: systemClock };
}

/** Every request the sandbox answered arrived through the loopback proxy, and nothing else did. */
export function expectEveryRequestProxied(env: PlatformsEnv) {
  const proxied = env.proxy.traffic.map((entry) => {
    const url = new URL(entry.url);
    return `${entry.method} ${url.pathname}${url.search}`;
  });
  expect(env.state.requests.length).toBeGreaterThan(0);
  expect(proxied).toEqual(env.state.requests.map((entry) => `${entry.method} ${entry.url}`));
}

export function requestsTo(env: PlatformsEnv, method: string, url: string | RegExp) {
  const matches = (candidate: string) => (typeof url === 'string' ? candidate.includes(url) : url.test(candidate));
  return env.state.requests.filter((entry) => entry.method === method && matches(entry.url)).length;
}

/** The retry helper without real waiting: records each pause it would have made. */
export function recordingSleep() {
  const pauses: number[] = [];
  return { pauses, sleep: async (ms: number) => void pauses.push(ms) };
}
