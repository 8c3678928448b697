import zlib from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeMediaFixtures, testTools, type MediaFixtures } from '../fixtures/media';
import { createUser, describeEachDatabase, uploadImages } from './helpers';

let fixtures: MediaFixtures;
beforeAll(async () => {
  fixtures = await makeMediaFixtures(testTools());
});
afterAll(() => fixtures.remove());

describeEachDatabase('compressed answers', (env) => {
  it('sends a large JSON answer with brotli or gzip, as the client accepts, and the same JSON inside', async () => {
    const user = await createUser(env(), 'reader');
    const plain = await env().app.inject({ url: '/api/docs', headers: user.headers });
    expect(plain.headers['content-encoding']).toBeUndefined();

    const brotli = await env().app.inject({ url: '/api/docs', headers: { ...user.headers, 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);

    const gzip = await env().app.inject({ url: '/api/docs', headers: { ...user.headers, 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });

  it('leaves a small answer and an image as they are', async () => {
    const user = await createUser(env(), 'viewer');
    const headers = { ...user.headers, 'accept-encoding': 'br, gzip' };
    const me = await env().app.inject({ url: '/api/auth/me', headers });
    expect(me.statusCode).toBe(200);
    expect(me.headers['content-encoding']).toBeUndefined();
    expect(me.json().user.login).toBe('viewer');

    await uploadImages(env().app, user.headers, [fixtures.png]);
    const [photo] = (await env().app.inject({ url: '/api/photo-bg?page=1', headers: user.headers })).json().data;
    const stored = await env().app.inject({ url: photo.url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(stored.statusCode).toBe(200);
    expect(stored.headers['content-encoding']).toBeUndefined();
    expect([...stored.rawPayload.subarray(1, 4)].map((code) => String.fromCharCode(code)).join('')).toBe('PNG');
  });
});
