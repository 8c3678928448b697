import path from 'node:path';
import os from 'node:os';
import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { PermanentPlatformError, TransientPlatformError, retryAfterOf } from '../../server/platforms/errors';
import { PlatformNetworkError } from '../../server/net/http';
import { proxyUrl } from '../../server/auth/proxy-url';
import { t } from '../../server/messages';
import { retryDelay, withRetry } from '../../server/net/retry';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import { youtube } from '../../server/platforms/youtube/connector';
import { context, proxyPassword, proxyUser, recordingSleep, usePlatformsSandbox, videoFile } from './platforms-helpers';
import { sandboxControl, testMedia, testTokenSettings } from './helpers';
import { testNetwork } from './helpers';
import { systemClock } from '../../server/clock';

async function closedPort() {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('proxies, retries and the sandbox wiring', () => {
  const env = usePlatformsSandbox();
  const credentials = { accessToken: issueSandboxToken('youtube', 'network@example.com') };

  it('ends a publish through an unreachable proxy with the Ukrainian network error, after retrying', async () => {
    const port = await closedPort();
    const { video } = await videoFile(env(), 'youtube');
    const { pauses, sleep } = recordingSleep();
    const error = await withRetry(
      () => youtube.publish(context(env(), credentials, undefined, `socks5://user:secret@127.0.0.1:${port}`), video),
      {
        sleep,
        attempts: 3,
      },
    ).catch((caught) => caught);

    expect(error).toBeInstanceOf(PlatformNetworkError);
    // No port, address or socket error: the message must not tell which ports answer.
    expect(error.message).toBe('Проксі профілю недоступний');
    expect(error.message).not.toContain('secret');
    expect(pauses).toHaveLength(2);
    expect(env().state.requests).toEqual([]);
  });

  it('says so when the proxy refuses the profile’s proxy credentials, over HTTP and SOCKS5', async () => {
    const url = `${env().endpoints['www.googleapis.com']}/youtube/v3/channels?part=snippet&mine=true`;
    const port = env().proxy.port;
    for (const proxy of [`http://${proxyUser}:wrong@127.0.0.1:${port}`, `socks5://${proxyUser}:wrong@127.0.0.1:${port}`]) {
      const error = await testNetwork()
        .fetch(proxy, url)
        .catch((caught) => caught);
      expect(error).toBeInstanceOf(PlatformNetworkError);
      expect(error.message).toBe('Проксі не прийняв логін або пароль');
    }
    expect(env().state.requests).toEqual([]);
  });

  it('connects through proxies as URLs with credentials or as host:port:user:password (proxy-format.test.ts has every format)', () => {
    expect(proxyUrl('socks5://u%40x:p%3Aw@10.0.0.1:1080').toString()).toBe('socks5://u%40x:p%3Aw@10.0.0.1:1080');
    expect(proxyUrl('https://proxy.example:8443').protocol).toBe('https:');
    expect(proxyUrl('10.0.0.2:3128:user:pass').toString()).toBe('http://user:pass@10.0.0.2:3128/');
    expect(() => proxyUrl('ftp://10.0.0.3:21')).toThrow(t.accountForm.proxyInvalid);
  });

  it('forwards absolute-URI requests as well as tunnels, and records them', async () => {
    const target = new URL(`${env().origin}/sandbox/www.googleapis.com/youtube/v3/channels?part=snippet&mine=true`);
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request({
        host: '127.0.0.1',
        port: env().proxy.port,
        path: target.toString(),
        headers: {
          host: target.host,
          authorization: `Bearer ${credentials.accessToken}`,
          'proxy-authorization': `Basic ${Buffer.from(`${proxyUser}:${proxyPassword}`).toString('base64')}`,
        },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(200);
    expect(env().proxy.traffic).toEqual([{ method: 'GET', url: target.toString(), via: 'http' }]);
  });

  it('backs off exponentially with jitter, never below Retry-After, and gives up on long waits and permanent errors', () => {
    const transient = new TransientPlatformError('youtube', 'unavailable', 'y', 500);
    expect(retryDelay(1, transient, { random: () => 0 })).toBe(500);
    expect(retryDelay(1, transient, { random: () => 1 })).toBe(1000);
    expect(retryDelay(4, transient, { random: () => 0.5 })).toBe(6000);
    expect(retryDelay(9, transient, { attempts: 10, random: () => 1 })).toBe(60_000);
    expect(retryDelay(5, transient)).toBeNull();
    expect(retryDelay(1, new TransientPlatformError('youtube', 'unavailable', 'y', 429, 9000), { random: () => 0 })).toBe(9000);
    expect(retryDelay(1, new TransientPlatformError('youtube', 'unavailable', 'y', 403, 61_000))).toBeNull();
    expect(retryDelay(1, new PermanentPlatformError('youtube', 'rejected', 'y', 400))).toBeNull();
    expect(retryDelay(1, new Error('bug'))).toBeNull();
    expect(retryAfterOf(new Headers({ 'retry-after': '120' }))).toBe(120_000);
    const sentAt = { date: 'Sun, 22 Nov 2026 10:00:00 GMT' };
    expect(retryAfterOf(new Headers({ ...sentAt, 'retry-after': 'Sun, 22 Nov 2026 10:00:30 GMT' }))).toBe(30_000);
    expect(retryAfterOf(new Headers({ ...sentAt, 'retry-after': 'Sun, 22 Nov 2026 09:59:00 GMT' }))).toBe(0);
    // A date with nothing to read it against asks for no particular wait: the usual backoff applies.
    expect(retryAfterOf(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 10:00:30 GMT' }))).toBeUndefined();
    expect(retryAfterOf(new Headers())).toBeUndefined();
  });

  it('controls faults over HTTP at /sandbox/_faults, which exists in sandbox mode only', async () => {
    const invalid = await sandboxControl(env().app, {
      method: 'POST',
      url: '/sandbox/_faults',
      payload: { platform: 'youtube', step: 'nowhere', kind: 'quota' },
    });
    expect(invalid.statusCode).toBe(400);
    const added = await sandboxControl(env().app, {
      method: 'POST',
      url: '/sandbox/_faults',
      payload: { platform: 'youtube', step: 'profile', kind: 'status-500', times: 2 },
    });
    expect(added.statusCode).toBe(201);
    expect(env().state.faults).toEqual([{ platform: 'youtube', step: 'profile', kind: 'status-500', times: 2 }]);
    const error = await youtube.fetchChannel(context(env(), credentials)).catch((caught) => caught);
    expect(error).toBeInstanceOf(TransientPlatformError);
    expect(error.message).toBe('YouTube: Платформа тимчасово недоступна (Backend Error)');
    expect((await sandboxControl(env().app, { method: 'DELETE', url: '/sandbox/_faults' })).json()).toEqual({ faults: [] });

    const tokenSettings = testTokenSettings();
    const live = await buildApp({
      clock: systemClock,
      db: env().db,
      keys: tokenSettings.keys,
      tokenSettings,
      queue: null,
      media: testMedia(path.join(os.tmpdir(), 'shorts-platforms-unused-media')),
      platforms: 'live',
      publicUrl: 'https://office.example',
    });
    const absent = await live.inject({
      method: 'GET',
      url: '/sandbox/www.googleapis.com/youtube/v3/channels?mine=true',
    });
    expect(absent.statusCode).toBe(404);
    expect(live.sandbox).toBeUndefined();
    await live.close();
  });

  it('keeps sandbox videos, channel descriptions and revocations across restarts when given a data directory', () => {
    const first = new SandboxState({ dataDir: env().dir });
    first.addVideo({
      platform: 'tiktok',
      id: '1',
      account: 'a',
      title: 't',
      description: 'd',
      tags: [],
      bytes: 3,
      sha256: 'h',
      createdAt: 5,
      url: 'u',
    });
    first.setChannelDescription('a', 'опис');
    first.revoke('youtube', 'b');
    const second = new SandboxState({ dataDir: env().dir });
    expect(second.videos).toEqual(first.videos);
    expect(second.channelDescriptions.get('a')).toBe('опис');
    expect(second.isRevoked('youtube', 'b')).toBe(true);
    expect(second.isRevoked('youtube', 'a')).toBe(false);
  });

  it('reads PLATFORMS (sandbox by default), SANDBOX_PROXY_PORT and where workers reach the sandbox', () => {
    expect(loadConfig({}, [])).toMatchObject({
      platforms: 'sandbox',
      sandboxProxyPort: 3001,
      sandboxOrigin: 'http://127.0.0.1:3000',
    });
    expect(
      loadConfig(
        { PLATFORMS: 'live', PUBLIC_URL: 'https://office.example', SANDBOX_PROXY_PORT: '8899', HOST: '0.0.0.0', PORT: '4000' },
        [],
      ),
    ).toMatchObject({
      platforms: 'live',
      sandboxProxyPort: 8899,
      sandboxOrigin: 'http://127.0.0.1:4000',
    });
    expect(loadConfig({ PORT: '4000' }, []).sandboxProxyPort).toBe(4001);
    expect(loadConfig({ SANDBOX_PROXY_PORT: '0' }, []).sandboxProxyPort).toBe(0);
    expect(() => loadConfig({ PLATFORMS: 'staging' }, [])).toThrow('PLATFORMS must be one of sandbox, live, got "staging"');
    expect(() => loadConfig({ SANDBOX_PROXY_PORT: '-1' }, [])).toThrow('SANDBOX_PROXY_PORT');
  });
});
