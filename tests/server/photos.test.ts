import { afterAll, beforeAll, expect, it } from 'vitest';
import { t } from '../../server/messages';
import { filesUnder, makeMediaFixtures, multipart, testTools, type MediaFixtures, type MultipartPart } from '../fixtures/media';
import { createUser, describeEachDatabase, type TestEnv } from './helpers';

let fixtures: MediaFixtures;
beforeAll(async () => {
  fixtures = await makeMediaFixtures(testTools());
});
afterAll(() => fixtures.remove());

const image = (path: string, filename: string, contentType = 'image/png'): MultipartPart => ({
  name: 'files',
  file: { path, filename, contentType },
});

async function upload(env: TestEnv, headers: Record<string, string>, parts: MultipartPart[]) {
  const body = await multipart(parts);
  return env.app.inject({ method: 'POST', url: '/api/photo-bg', headers: { ...headers, ...body.headers }, payload: body.payload });
}

describeEachDatabase('images API', (env) => {
  it('stores PNG, JPEG and WebP files sent as repeated `files` and lists them newest first with signed URLs', async () => {
    const user = await createUser(env(), 'operator');
    const response = await upload(env(), user.headers, [
      image(fixtures.png, 'a.png'),
      image(fixtures.jpeg, 'b.jpg', 'image/jpeg'),
      image(fixtures.webp, 'c.webp', 'image/webp'),
    ]);
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toHaveLength(3);

    const list = await env().app.inject({ url: '/api/photo-bg?page=1', headers: user.headers });
    const body = list.json();
    expect(body).toMatchObject({ page: 1, totalPages: 1, total: 3 });
    expect(body.data.map((photo: { id: number }) => photo.id)).toEqual([3, 2, 1]);
    expect(body.data[0].url).toMatch(/^\/api\/media\/photos\/\d+\/[0-9a-f-]+\.webp\?exp=\d+&sig=[\w-]+$/);

    const stored = await env().app.inject({ url: body.data[2].url });
    expect(stored.statusCode).toBe(200);
    expect(stored.headers['content-type']).toBe('image/png');
    expect(stored.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect(await filesUnder(env().mediaDir)).toHaveLength(3);
  });

  it('checks the real type from the bytes: a text file named .png is refused and nothing of the request stays', async () => {
    const user = await createUser(env(), 'operator');
    const response = await upload(env(), user.headers, [image(fixtures.png, 'good.png'), image(fixtures.fakePng, 'fake.png')]);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(t.photos.mustBeImage);
    expect(await filesUnder(env().mediaDir)).toEqual([]);
    expect((await env().db.sql('SELECT count(*)::int AS n FROM photos', [])).rows[0].n).toBe(0);
  });

  it('refuses a PNG whose header is valid but whose pixels do not decode', async () => {
    const user = await createUser(env(), 'operator');
    const response = await upload(env(), user.headers, [image(fixtures.brokenPng, 'broken.png')]);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(t.photos.mustBeImage);
    expect(await filesUnder(env().mediaDir)).toEqual([]);
  });

  it('refuses a declared non-image type with the form message, and an empty upload with "Мінімум одне зображення"', async () => {
    const user = await createUser(env(), 'operator');
    const declaredText = await upload(env(), user.headers, [image(fixtures.png, 'a.png', 'text/plain')]);
    expect(declaredText.json().message).toEqual([t.photos.mustBeImage]);
    const none = await upload(env(), user.headers, [{ name: 'note', value: 'x' }]);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toEqual([t.photos.atLeastOne]);
    expect(await filesUnder(env().mediaDir)).toEqual([]);
  });

  it('caps the pixel count of an image', async () => {
    const user = await createUser(env(), 'operator');
    const response = await upload(env(), user.headers, [image(fixtures.hugePng, 'huge.png')]);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(t.media.imageTooLarge(4_000_000));
    expect(await filesUnder(env().mediaDir)).toEqual([]);
  });

  it('scopes images to their owner: another user gets 404 and sees none, the admin sees all', async () => {
    const owner = await createUser(env(), 'owner');
    const other = await createUser(env(), 'other');
    const admin = await createUser(env(), 'boss', { role: 'admin' });
    const [photo] = (await upload(env(), owner.headers, [image(fixtures.png, 'a.png')])).json().data;

    expect((await env().app.inject({ url: '/api/photo-bg', headers: other.headers })).json()).toEqual({
      data: [],
      page: 1,
      totalPages: 0,
      total: 0,
    });
    expect((await env().app.inject({ url: '/api/photo-bg', headers: admin.headers })).json().total).toBe(1);
    const foreignDelete = await env().app.inject({ method: 'DELETE', url: `/api/photo-bg/${photo.id}`, headers: other.headers });
    expect(foreignDelete.statusCode).toBe(404);
    expect(await filesUnder(env().mediaDir)).toHaveLength(1);
  });

  it('deletes the row and the file', async () => {
    const owner = await createUser(env(), 'owner');
    const [photo] = (await upload(env(), owner.headers, [image(fixtures.png, 'a.png')])).json().data;
    const removed = await env().app.inject({ method: 'DELETE', url: `/api/photo-bg/${photo.id}`, headers: owner.headers });
    expect(removed.statusCode).toBe(204);
    expect(await filesUnder(env().mediaDir)).toEqual([]);
    expect((await env().app.inject({ url: '/api/photo-bg', headers: owner.headers })).json().total).toBe(0);
    expect((await env().app.inject({ method: 'DELETE', url: `/api/photo-bg/${photo.id}`, headers: owner.headers })).statusCode).toBe(404);
  });

  it('answers a body that is not multipart with 400', async () => {
    const user = await createUser(env(), 'operator');
    const response = await env().app.inject({ method: 'POST', url: '/api/photo-bg', headers: user.headers, payload: { files: [] } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(t.server.badJson);
  });

  it('answers 401 without a session', async () => {
    expect((await env().app.inject({ url: '/api/photo-bg' })).statusCode).toBe(401);
  });
});
