import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { t } from '../../server/messages';
import { signMediaUrl, verifyMediaSignature } from '../../server/media/signed-urls';
import { parseRange } from '../../server/routes/media';
import { describeEachDatabase, type TestEnv } from './helpers';

const bytes = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 256));

async function storeVideo(env: TestEnv, key = 'requests/0b5e1c9a-2f4d-4c55-8a7e-1d2c3b4a5f60/0.mp4') {
  await fs.mkdir(path.dirname(path.join(env.mediaDir, key)), { recursive: true });
  await fs.writeFile(path.join(env.mediaDir, key), bytes);
  return signMediaUrl(env.tokenSettings.keys.mediaUrl, key, 3600, env.app.clock.now());
}

describeEachDatabase('signed media URLs', (env) => {
  it('serves the whole file with its content type and says it accepts ranges', async () => {
    const url = await storeVideo(env());
    const response = await env().app.inject({ url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['content-length']).toBe('1000');
    expect(response.rawPayload.equals(bytes)).toBe(true);
  });

  it('answers a Range request with 206 and exactly those bytes', async () => {
    const url = await storeVideo(env());
    const response = await env().app.inject({ url, headers: { range: 'bytes=100-199' } });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe('bytes 100-199/1000');
    expect(response.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);

    const tail = await env().app.inject({ url, headers: { range: 'bytes=-10' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(990))).toBe(true);

    const outside = await env().app.inject({ url, headers: { range: 'bytes=5000-' } });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe('bytes */1000');
    expect(outside.json()).toEqual({ statusCode: 416, error: 'Діапазон недосяжний', message: t.media.rangeOutside });
  });

  it('answers 403 without a signature, with a tampered one, for another key, or once expired', async () => {
    const url = await storeVideo(env());
    const bare = url.split('?')[0]!;
    const tampered = url.replace(/sig=./, (match) => (match.endsWith('A') ? 'sig=B' : 'sig=A'));
    const otherKey = url.replace('/0.mp4', '/1.mp4');
    const expired = signMediaUrl(
      env().tokenSettings.keys.mediaUrl,
      'requests/0b5e1c9a-2f4d-4c55-8a7e-1d2c3b4a5f60/0.mp4',
      60,
      env().app.clock.now() - 3 * 3600_000,
    );
    for (const attempt of [bare, tampered, otherKey, expired]) {
      const response = await env().app.inject({ url: attempt });
      expect(response.statusCode, attempt).toBe(403);
      expect(response.json().message).toBe(t.media.linkInvalid);
    }
  });

  it('answers 404 for a validly signed key that has no file', async () => {
    const url = signMediaUrl(env().tokenSettings.keys.mediaUrl, 'photos/1/missing.png', 3600, env().app.clock.now());
    expect((await env().app.inject({ url })).statusCode).toBe(404);
  });
});

describe('media URL signatures', () => {
  const key = Buffer.alloc(32, 9);
  const now = Date.parse('2026-11-21T10:05:00Z');

  it('keep the same URL within the hour, so browsers cache media between list refreshes', () => {
    expect(signMediaUrl(key, 'photos/1/a.png', 3600, now)).toBe(signMediaUrl(key, 'photos/1/a.png', 3600, now + 20 * 60_000));
  });

  it('are bound to the key and the expiry', () => {
    const url = new URL(signMediaUrl(key, 'photos/1/a.png', 3600, now), 'http://x');
    const exp = url.searchParams.get('exp');
    const sig = url.searchParams.get('sig');
    expect(verifyMediaSignature(key, 'photos/1/a.png', exp, sig, now)).toBe(true);
    expect(verifyMediaSignature(key, 'photos/1/a.png', exp, sig, now + 2 * 3600_000)).toBe(false);
    expect(verifyMediaSignature(key, 'photos/1/b.png', exp, sig, now)).toBe(false);
    expect(verifyMediaSignature(key, 'photos/1/a.png', Number(exp) + 3600, sig, now)).toBe(false);
  });

  it('refuse keys that could leave the media folder', () => {
    expect(() => signMediaUrl(key, '../secret.key', 3600, now)).toThrow();
    expect(() => signMediaUrl(key, '/etc/passwd', 3600, now)).toThrow();
  });
});

describe('Range header parsing', () => {
  it.each([
    ['bytes=0-0', { start: 0, end: 0 }],
    ['bytes=10-', { start: 10, end: 99 }],
    ['bytes=90-500', { start: 90, end: 99 }],
    ['bytes=-5', { start: 95, end: 99 }],
    ['bytes=100-', 'unsatisfiable'],
    ['bytes=20-10', 'unsatisfiable'],
    ['bytes=0-1,5-6', null],
    ['items=0-1', null],
    [undefined, null],
  ])('%s of a 100-byte file → %j', (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });
});
