import { afterAll, beforeAll, expect, it } from 'vitest';
import { t } from '../../server/messages';
import { filesUnder, makeMediaFixtures, multipart, testTools, type MediaFixtures, type MultipartPart } from '../fixtures/media';
import { createUser, describeEachDatabase, uploadImages, type TestEnv } from './helpers';

let fixtures: MediaFixtures;
beforeAll(async () => {
  fixtures = await makeMediaFixtures(testTools());
});
afterAll(() => fixtures.remove());

const video = (path: string, filename = 'source.mp4', contentType = 'video/mp4'): MultipartPart => ({
  name: 'file',
  file: { path, filename, contentType },
});

async function create(env: TestEnv, headers: Record<string, string>, parts: MultipartPart[]) {
  const body = await multipart(parts);
  return env.app.inject({
    method: 'POST',
    url: '/api/create-video/create',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

const chosen = (ids: unknown): MultipartPart => ({ name: 'photoIds', value: JSON.stringify(ids) });

/** A user with one background image, and the part that chooses it. */
async function operatorWithImage(env: TestEnv, login = 'operator') {
  const user = await createUser(env, login);
  const [photoId] = await uploadImages(env.app, user.headers, [fixtures.png]);
  return { ...user, photoId: photoId!, background: chosen([photoId]) };
}

async function requestCount(env: TestEnv): Promise<number> {
  return (await env.db.sql('SELECT count(*)::int AS n FROM creation_requests', [])).rows[0].n;
}

async function jobCount(env: TestEnv): Promise<number> {
  const { rows } = await env.db.sql(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'render-request'`, []);
  return rows[0].n;
}

describeEachDatabase(
  'create-video API',
  (env) => {
    it('creates the request, its loading videos and one render job, and keeps the source', async () => {
      const user = await operatorWithImage(env());
      const response = await create(env(), user.headers, [{ name: 'countVideo', value: '3' }, user.background, video(fixtures.clip)]);
      expect(response.statusCode).toBe(201);
      const { id, idUpload } = response.json();
      expect(idUpload).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

      const detail = (await env().app.inject({ url: `/api/create-video/request/${idUpload}`, headers: user.headers })).json();
      expect(detail).toMatchObject({ id, idUpload, status: 'loading', countVideo: 3 });
      expect(detail.video.map((item: { status: string; url: null }) => [item.status, item.url])).toEqual([
        ['loading', null],
        ['loading', null],
        ['loading', null],
      ]);
      expect(await jobCount(env())).toBe(1);
      expect((await filesUnder(env().mediaDir)).filter((file) => file.startsWith('requests/'))).toEqual([
        `requests/${idUpload}/source.mov`,
      ]);
    });

    it('keeps the chosen images with the request, in the order they were sent', async () => {
      const user = await createUser(env(), 'operator');
      const [first, , third] = await uploadImages(env().app, user.headers, [fixtures.png, fixtures.png, fixtures.png]);
      const response = await create(env(), user.headers, [
        { name: 'countVideo', value: '2' },
        chosen([third, first]),
        video(fixtures.clip),
      ]);
      expect(response.statusCode, response.body).toBe(201);
      const { rows } = await env().db.sql('SELECT background_ids FROM creation_requests WHERE id = $1', [response.json().id]);
      expect(rows[0].background_ids).toEqual([third, first]);
    });

    it("offers the caller's own images as backgrounds, newest first, an admin's too", async () => {
      const owner = await createUser(env(), 'owner');
      const admin = await createUser(env(), 'boss', { role: 'admin' });
      const own = await uploadImages(env().app, owner.headers, [fixtures.png, fixtures.jpeg]);
      const adminOwn = await uploadImages(env().app, admin.headers, [fixtures.png]);
      const choices = async (headers: Record<string, string>) =>
        (await env().app.inject({ url: '/api/create-video/backgrounds', headers })).json().data as { id: number; url: string }[];
      const offered = await choices(owner.headers);
      expect(offered.map((photo) => photo.id)).toEqual([...own].reverse());
      expect(offered[0]!.url).toMatch(/^\/api\/media\/photos\//);
      expect((await choices(admin.headers)).map((photo) => photo.id)).toEqual(adminOwn);
      expect((await env().app.inject({ url: '/api/create-video/backgrounds' })).statusCode).toBe(401);
    });

    it("takes SPEC's shape (file, countVideo): no choice kept, so the render uses every image of the owner, or none", async () => {
      const withImages = await operatorWithImage(env());
      const withoutImages = await createUser(env(), 'newcomer');
      for (const user of [withImages, withoutImages]) {
        const response = await create(env(), user.headers, [video(fixtures.clip), { name: 'countVideo', value: '2' }]);
        expect(response.statusCode, response.body).toBe(201);
        const { rows } = await env().db.sql('SELECT background_ids FROM creation_requests WHERE id = $1', [response.json().id]);
        expect(rows[0].background_ids).toBeNull();
      }
      expect(await jobCount(env())).toBe(2);
    });

    const badChoices: Array<[string, MultipartPart[], string[]]> = [
      ['empty', [chosen([])], [t.createVideo.backgroundsRequired]],
      ['not a list', [chosen({ id: 1 })], [t.validation.invalidValue('photoIds')]],
      ['not JSON', [{ name: 'photoIds', value: '1,2' }], [t.validation.invalidValue('photoIds')]],
      ['of texts', [chosen(['1'])], [t.validation.invalidValue('photoIds')]],
      ['with a repeated id', [chosen([1, 1])], [t.validation.invalidValue('photoIds')]],
      ['beyond a database id', [chosen([2 ** 31])], [t.validation.invalidValue('photoIds')]],
      ['longer than 500', [chosen(Array.from({ length: 501 }, (_, index) => index + 1))], [t.createVideo.backgroundsTooMany(500)]],
    ];
    for (const [what, fields, messages] of badChoices) {
      it(`refuses a choice of images ${what} with 400 and leaves no file, row or job`, async () => {
        const user = await operatorWithImage(env());
        const response = await create(env(), user.headers, [{ name: 'countVideo', value: '1' }, ...fields, video(fixtures.clip)]);
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toEqual(messages);
        expect((await filesUnder(env().mediaDir)).filter((file) => file.startsWith('requests/'))).toEqual([]);
        expect(await requestCount(env())).toBe(0);
        expect(await jobCount(env())).toBe(0);
      });
    }

    it("refuses another user's image with the same answer as an image that does not exist", async () => {
      const victim = await operatorWithImage(env(), 'victim');
      const attacker = await operatorWithImage(env(), 'attacker');
      const attempt = (ids: number[]) =>
        create(env(), attacker.headers, [{ name: 'countVideo', value: '1' }, chosen(ids), video(fixtures.clip)]);

      const foreign = await attempt([attacker.photoId, victim.photoId]);
      const unknown = await attempt([attacker.photoId, victim.photoId + 1000]);
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json()).toEqual({ statusCode: 400, error: t.server.statusNames[400], message: t.createVideo.unknownBackground });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual(foreign.json());
      expect(await requestCount(env())).toBe(0);
      expect(await jobCount(env())).toBe(0);
    });

    const hostile: Array<[string, () => string, string]> = [
      ['an image renamed to .mp4', () => fixtures.png, t.media.notVideo],
      ['a text file', () => fixtures.fakePng, t.media.notVideo],
      ['an HLS playlist disguised as .mp4', () => fixtures.playlist, t.media.notVideo],
      ['a truncated MP4', () => fixtures.truncated, t.media.videoDamaged],
      ['a zero-byte file', () => fixtures.empty, t.media.emptyFile],
      ['a picture wider than MAX_VIDEO_SIDE', () => fixtures.wideClip, t.media.videoFrameTooLarge(2048)],
      ['a picture taller than MAX_VIDEO_SIDE', () => fixtures.tallClip, t.media.videoFrameTooLarge(2048)],
    ];
    for (const [what, file, message] of hostile) {
      it(`refuses ${what} with 400 and leaves no file, row or job`, async () => {
        const user = await operatorWithImage(env());
        const response = await create(env(), user.headers, [{ name: 'countVideo', value: '2' }, user.background, video(file())]);
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toBe(message);
        expect((await filesUnder(env().mediaDir)).filter((file) => file.startsWith('requests/'))).toEqual([]);
        expect((await env().db.sql('SELECT count(*)::int AS n FROM creation_requests', [])).rows[0].n).toBe(0);
        expect(await jobCount(env())).toBe(0);
      });
    }

    const badCounts: Array<[string, MultipartPart[], string[]]> = [
      ['missing', [], [t.createVideo.countRequired]],
      ['not a number', [{ name: 'countVideo', value: 'abc' }], [t.createVideo.countRange(50)]],
      ['not whole', [{ name: 'countVideo', value: '1.5' }], [t.createVideo.countRange(50)]],
      ['zero', [{ name: 'countVideo', value: '0' }], [t.createVideo.countRange(50)]],
      ['over MAX_VARIANTS', [{ name: 'countVideo', value: '51' }], [t.createVideo.countRange(50)]],
    ];
    for (const [what, fields, messages] of badCounts) {
      it(`refuses countVideo ${what} with the form's message and leaves no file`, async () => {
        const user = await operatorWithImage(env());
        const response = await create(env(), user.headers, [...fields, user.background, video(fixtures.clip)]);
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toEqual(messages);
        expect((await filesUnder(env().mediaDir)).filter((file) => file.startsWith('requests/'))).toEqual([]);
      });
    }

    it('needs exactly one file declared as a video', async () => {
      const user = await operatorWithImage(env());
      const none = await create(env(), user.headers, [{ name: 'countVideo', value: '1' }, user.background]);
      expect(none.json().message).toEqual([t.createVideo.atLeastOne]);
      const two = await create(env(), user.headers, [
        { name: 'countVideo', value: '1' },
        user.background,
        video(fixtures.clip),
        video(fixtures.clip),
      ]);
      expect(two.statusCode).toBe(400);
      expect(two.json().message).toBe(t.createVideo.atMostOne);
      const declaredImage = await create(env(), user.headers, [
        { name: 'countVideo', value: '1' },
        user.background,
        video(fixtures.clip, 'a.png', 'image/png'),
      ]);
      expect(declaredImage.json().message).toEqual([t.createVideo.mustBeVideo]);
      expect((await filesUnder(env().mediaDir)).filter((file) => file.startsWith('requests/'))).toEqual([]);
    });

    it('answers 413 with the limit when the upload is larger than MAX_UPLOAD_BYTES, leaving nothing', async () => {
      const user = await operatorWithImage(env());
      const big = { path: undefined, data: Buffer.alloc(21 * 1024 ** 2, 1), filename: 'big.mp4', contentType: 'video/mp4' };
      const response = await create(env(), user.headers, [
        { name: 'countVideo', value: '1' },
        user.background,
        { name: 'file', file: big },
      ]);
      expect(response.statusCode).toBe(413);
      expect(response.json().message).toBe(t.media.fileTooLarge(20 * 1024 ** 2));
      expect((await filesUnder(env().mediaDir)).filter((file) => file.startsWith('requests/'))).toEqual([]);
    });

    it('lists requests newest first and scopes list, detail and delete to the owner; the admin sees all', async () => {
      const owner = await operatorWithImage(env(), 'owner');
      const other = await createUser(env(), 'other');
      const admin = await createUser(env(), 'boss', { role: 'admin' });
      const first = (
        await create(env(), owner.headers, [{ name: 'countVideo', value: '1' }, owner.background, video(fixtures.clip)])
      ).json();
      // A name as a browser may send it: with a control character and a right-to-left mark in it.
      const second = (
        await create(env(), owner.headers, [
          { name: 'countVideo', value: '2' },
          owner.background,
          video(fixtures.silentClip, 'Ранок\u0007 \u200fвипуск.mov'),
        ])
      ).json();

      const list = (await env().app.inject({ url: '/api/create-video?page=1', headers: owner.headers })).json();
      expect(list).toMatchObject({ page: 1, totalPages: 1, total: 2 });
      expect(list.data.map((row: object) => Object.keys(row).sort())).toEqual([
        ['countVideo', 'createdAt', 'id', 'idUpload', 'posterUrl', 'sourceName', 'status'],
        ['countVideo', 'createdAt', 'id', 'idUpload', 'posterUrl', 'sourceName', 'status'],
      ]);
      // Recognisable rows: the uploaded file's name, and no poster until a variant is rendered.
      expect(list.data.map((row: { sourceName: string; posterUrl: string | null }) => [row.sourceName, row.posterUrl])).toEqual([
        ['Ранок випуск.mov', null],
        ['source.mp4', null],
      ]);
      expect(list.data.map((row: { idUpload: string }) => row.idUpload)).toEqual([second.idUpload, first.idUpload]);
      const detail = await env().app.inject({ url: `/api/create-video/request/${second.idUpload}`, headers: owner.headers });
      expect(detail.json().sourceName).toBe('Ранок випуск.mov');

      expect((await env().app.inject({ url: '/api/create-video', headers: other.headers })).json().total).toBe(0);
      expect((await env().app.inject({ url: '/api/create-video', headers: admin.headers })).json().total).toBe(2);
      const foreignDetail = await env().app.inject({ url: `/api/create-video/request/${first.idUpload}`, headers: other.headers });
      expect(foreignDetail.statusCode).toBe(404);
      expect((await env().app.inject({ url: '/api/create-video/request/not-a-uuid', headers: owner.headers })).statusCode).toBe(404);
      const foreignDelete = await env().app.inject({ method: 'DELETE', url: `/api/create-video/${first.id}`, headers: other.headers });
      expect(foreignDelete.statusCode).toBe(404);

      const removed = await env().app.inject({ method: 'DELETE', url: `/api/create-video/${first.id}`, headers: owner.headers });
      expect(removed.statusCode).toBe(204);
      expect((await filesUnder(env().mediaDir)).filter((file) => file.startsWith('requests/'))).toEqual([
        `requests/${second.idUpload}/source.mov`,
      ]);
      expect((await env().db.sql('SELECT count(*)::int AS n FROM videos', [])).rows[0].n).toBe(2);
    });
  },
  { queue: 'send' },
);
