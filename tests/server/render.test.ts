import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { t } from '../../server/messages';
import { markRenderFailed, planCompositions, renderFailedJobName, renderRequest, type RenderJobData } from '../../server/jobs/render';
import { noLimits, probeVideo, type VideoInfo } from '../../server/media/probe';
import { renderVariants } from '../../server/media/render';
import { resolveMediaTools, runTool, type MediaTools } from '../../server/media/tools';
import { filesUnder, makeClip, makeImage, multipart, testTools } from '../fixtures/media';
import type { MediaServices } from '../../server/media/services';
import { createUser, describeEachDatabase, uploadImages, type TestEnv } from './helpers';

/**
 * The media these tests render. A render's cost is its frames at 1080×1920, whatever the source
 * shows, so the clips are 4 frames (0.4 s at 10 fps, the poster being the third); only the render
 * cut off midway needs one long enough that ffmpeg is surely still at work when it is killed.
 */
interface RenderFixtures {
  dir: string;
  /** 0.4 s, 320×240 at 10 fps, H.264 + AAC-LC mono. */
  clip: string;
  /** The same without an audio stream. */
  silentClip: string;
  /** 0.4 s, 360×640: a vertical clip, which fills the 9:16 frame. */
  verticalClip: string;
  /** 2 s, 320×240 at 25 fps, H.264 + AAC. */
  longClip: string;
  /** An HLS playlist pointing at a local file, named like a video. */
  playlist: string;
  png: string;
  jpeg: string;
}

let fixtures: RenderFixtures;
beforeAll(async () => {
  const tools = testTools();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-render-fixtures-'));
  const file = (name: string) => path.join(dir, name);
  const short = { size: '320x240', rate: 10, seconds: 0.4 };
  fixtures = {
    dir,
    clip: file('clip.mp4'),
    silentClip: file('silent.mp4'),
    verticalClip: file('vertical.mp4'),
    longClip: file('long.mp4'),
    playlist: file('playlist.mp4'),
    png: file('image.png'),
    jpeg: file('image.jpg'),
  };
  await makeClip(tools, fixtures.clip, short);
  await makeClip(tools, fixtures.silentClip, { ...short, audio: false });
  await makeClip(tools, fixtures.verticalClip, { ...short, size: '360x640' });
  await makeClip(tools, fixtures.longClip, { size: '320x240' });
  await fs.writeFile(fixtures.playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n${fixtures.clip}\n#EXT-X-ENDLIST\n`);
  await makeImage(tools, fixtures.png, { size: '64x48', colour: 'teal' });
  await makeImage(tools, fixtures.jpeg, { size: '48x64', colour: 'orange' });
});
afterAll(() => fs.rm(fixtures.dir, { recursive: true, force: true }));

interface StreamFacts {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
}

async function streamsOf(tools: MediaTools, file: string): Promise<StreamFacts[]> {
  const { stdout } = await runTool(
    tools.ffprobe,
    ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height,pix_fmt', '-of', 'json', file],
    30_000,
  );
  return JSON.parse(stdout).streams;
}

async function createRequest(env: TestEnv, headers: Record<string, string>, source: string, count: number, photoIds: number[]) {
  const body = await multipart([
    { name: 'countVideo', value: String(count) },
    { name: 'photoIds', value: JSON.stringify(photoIds) },
    { name: 'file', file: { path: source, filename: 'clip.mp4', contentType: 'video/mp4' } },
  ]);
  const response = await env.app.inject({
    method: 'POST',
    url: '/api/create-video/create',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: number; idUpload: string };
}

async function detailOf(env: TestEnv, headers: Record<string, string>, idUpload: string) {
  return (await env.app.inject({ url: `/api/create-video/request/${idUpload}`, headers })).json();
}

describeEachDatabase(
  'rendering through the pg-boss worker',
  (env) => {
    it('renders 2 variants over the background image: 1080×1920 H.264 yuv420p with AAC, a poster and its small copy each, request success', async () => {
      const user = await createUser(env(), 'operator');
      const photoIds = await uploadImages(env().app, user.headers, [fixtures.jpeg]);
      const { idUpload } = await createRequest(env(), user.headers, fixtures.clip, 2, photoIds);

      await vi.waitFor(async () => expect((await detailOf(env(), user.headers, idUpload)).status).toBe('success'), {
        timeout: 60_000,
        interval: 250,
      });
      const detail = await detailOf(env(), user.headers, idUpload);
      // Rendered, not published: SPEC's noactive, never 'success' (issue 28.0), here and in the user's list of videos.
      expect(detail.video.map((item: { status: string }) => item.status)).toEqual(['noactive', 'noactive']);
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const listed = (await env().app.inject({ url: `/api/users/${user.id}/video`, headers: admin.headers })).json();
      expect(listed.data.map((item: { status: string }) => item.status)).toEqual(['noactive', 'noactive']);

      for (const item of detail.video) {
        const videoKey = item.url.slice('/api/media/'.length).split('?')[0];
        expect(await streamsOf(env().media.tools, path.join(env().mediaDir, videoKey))).toEqual([
          { codec_type: 'video', codec_name: 'h264', width: 1080, height: 1920, pix_fmt: 'yuv420p' },
          { codec_type: 'audio', codec_name: 'aac' },
        ]);
        const poster = await env().app.inject({ url: item.posterUrl });
        expect(poster.statusCode).toBe(200);
        expect(poster.headers['content-type']).toBe('image/jpeg');
        expect([...poster.rawPayload.subarray(0, 2)]).toEqual([0xff, 0xd8]);
        // The small copy the publish form shows, served like the poster.
        const thumbnail = await env().app.inject({ url: item.thumbnailUrl });
        expect(thumbnail.statusCode).toBe(200);
        expect(thumbnail.headers['content-type']).toBe('image/jpeg');
        expect(thumbnail.rawPayload.length).toBeLessThan(poster.rawPayload.length / 4);
      }
      // Each variant keeps the frame it was rendered at, for the platforms whose rules name one (Facebook Reels).
      const frames = await env().db.sql('SELECT width, height FROM videos WHERE id = ANY($1::int[])', [
        detail.video.map((item: { id: number }) => item.id),
      ]);
      expect(frames.rows).toEqual([
        { width: 1080, height: 1920 },
        { width: 1080, height: 1920 },
      ]);
      // The source is gone once every variant stands on its own; nothing is left in scratch.
      expect((await filesUnder(env().mediaDir)).filter((file) => file.startsWith('requests/'))).toEqual([
        `requests/${idUpload}/0-small.jpg`,
        `requests/${idUpload}/0.jpg`,
        `requests/${idUpload}/0.mp4`,
        `requests/${idUpload}/1-small.jpg`,
        `requests/${idUpload}/1.jpg`,
        `requests/${idUpload}/1.mp4`,
      ]);
      expect(await filesUnder(path.join(env().mediaDir, '.scratch'))).toEqual([]);
    });

    it('sends a render whose retries ran out to the dead-letter queue that marks it failed', async () => {
      const queue = await env().queue!.getQueue('render-request');
      expect(queue?.deadLetter).toBe(renderFailedJobName);
      expect(queue?.retryLimit).toBeGreaterThan(0);
    });
  },
  { queue: 'work' },
);

/** The media services with a record of the background images the render read. */
function recordingBackgrounds(media: MediaServices): { media: MediaServices; used: string[] } {
  const used: string[] = [];
  const storage = {
    ...media.storage,
    localFile: (key: string, scratch: Parameters<MediaServices['storage']['localFile']>[1]) => {
      if (key.startsWith('photos/')) used.push(key);
      return media.storage.localFile(key, scratch);
    },
  };
  return { media: { ...media, storage }, used };
}

async function fileKeysOf(env: TestEnv, photoIds: number[]): Promise<string[]> {
  const { rows } = await env.db.sql('SELECT file_key FROM photos WHERE id = ANY($1::int[]) ORDER BY file_key', [photoIds]);
  return rows.map((row) => row.file_key as string);
}

async function requestState(env: TestEnv, requestId: number) {
  const request = await env.db.sql('SELECT status, render_failure FROM creation_requests WHERE id = $1', [requestId]);
  const items = await env.db.sql('SELECT status, render_failure FROM videos WHERE request_id = $1 ORDER BY position', [requestId]);
  return { ...request.rows[0], videos: items.rows };
}

/**
 * One app and database a kind for every test that runs the render itself (the queue only holds
 * its jobs): each setup and teardown costs about 10 s on PGlite (loading the template, starting
 * pg-boss) and 6 s on Postgres, more than the tests' own renders.
 */
describeEachDatabase(
  'rendering a request in the test',
  (env) => {
    describe('over the chosen backgrounds', () => {
      /** A request of `count` variants over `photoIds`, rendered here (the queue only holds its job) while recording the images read. */
      async function render(headers: Record<string, string>, count: number, photoIds: number[], before?: () => Promise<void>) {
        const { id } = await createRequest(env(), headers, fixtures.clip, count, photoIds);
        await before?.();
        const recorded = recordingBackgrounds(env().media);
        await renderRequest({ requestId: id }, { db: env().db, clock: env().app.clock, media: recorded.media });
        return { id, used: [...new Set(recorded.used)].sort(), state: await requestState(env(), id) };
      }

      it('uses every image when every one is chosen, as the form does by default', async () => {
        const user = await createUser(env(), 'operator');
        const photoIds = await uploadImages(env().app, user.headers, [fixtures.png, fixtures.jpeg]);
        const { used, state } = await render(user.headers, 2, photoIds);
        expect(state.status).toBe('success');
        expect(used).toEqual(await fileKeysOf(env(), photoIds));
      });

      it("renders with the upload's probe carried in its job, without probing the stored source again", async () => {
        const user = await createUser(env(), 'operator');
        const photoIds = await uploadImages(env().app, user.headers, [fixtures.png]);
        const { id } = await createRequest(env(), user.headers, fixtures.clip, 1, photoIds);
        const { rows } = await env().db.sql(
          `SELECT data FROM pgboss.job WHERE name = 'render-request' AND (data->>'requestId')::int = $1`,
          [id],
        );
        const data = rows[0].data as RenderJobData;
        expect(data.source).toEqual(await probeVideo(env().media.tools, fixtures.clip, noLimits));
        const noProbe = { ...env().media, tools: { ...env().media.tools, ffprobe: path.join(fixtures.dir, 'no-such-ffprobe') } };
        await renderRequest(data, { db: env().db, clock: env().app.clock, media: noProbe });
        expect((await requestState(env(), id)).status).toBe('success');
      });

      it("probes the source again when its job's probe predates the picture's size, which the render is built from", async () => {
        const user = await createUser(env(), 'operator');
        const photoIds = await uploadImages(env().app, user.headers, [fixtures.png]);
        const { id } = await createRequest(env(), user.headers, fixtures.clip, 1, photoIds);
        const { width: _width, height: _height, ...olderProbe } = await probeVideo(env().media.tools, fixtures.clip, noLimits);
        const own = await fs.mkdtemp(path.join(fixtures.dir, 'counting-ffprobe-'));
        const calls = path.join(own, 'calls');
        const countingProbe = path.join(own, 'ffprobe');
        await fs.writeFile(countingProbe, `#!/bin/sh\necho call >> '${calls}'\nexec '${env().media.tools.ffprobe}' "$@"\n`, {
          mode: 0o755,
        });
        const media = { ...env().media, tools: { ...env().media.tools, ffprobe: countingProbe } };
        await renderRequest({ requestId: id, source: olderProbe as VideoInfo }, { db: env().db, clock: env().app.clock, media });
        expect((await requestState(env(), id)).status).toBe('success');
        expect((await fs.readFile(calls, 'utf8')).trim().split('\n')).toEqual(['call']);
      });

      it('uses only the chosen images, never the others', async () => {
        const user = await createUser(env(), 'operator');
        const [first, second, third] = await uploadImages(env().app, user.headers, [fixtures.png, fixtures.jpeg, fixtures.png]);
        const { used, state } = await render(user.headers, 3, [first!, third!]);
        expect(state.status).toBe('success');
        expect(used).toEqual(await fileKeysOf(env(), [first!, third!]));
        expect(used).not.toContain((await fileKeysOf(env(), [second!]))[0]);
      });

      it('uses the chosen images that are left when one was deleted before the render', async () => {
        const user = await createUser(env(), 'operator');
        const [kept, deleted, other] = await uploadImages(env().app, user.headers, [fixtures.png, fixtures.jpeg, fixtures.png]);
        const { used, state } = await render(user.headers, 2, [kept!, deleted!], async () => {
          const removed = await env().app.inject({ method: 'DELETE', url: `/api/photo-bg/${deleted}`, headers: user.headers });
          expect(removed.statusCode).toBe(204);
        });
        expect(state.status).toBe('success');
        expect(used).toEqual(await fileKeysOf(env(), [kept!]));
        expect(used).not.toContain((await fileKeysOf(env(), [other!]))[0]);
      });

      it('encodes a vertical clip that fills the frame once for all its variants, as no background shows', async () => {
        const user = await createUser(env(), 'operator');
        const photoIds = await uploadImages(env().app, user.headers, [fixtures.png, fixtures.jpeg]);
        const { id, idUpload } = await createRequest(env(), user.headers, fixtures.verticalClip, 3, photoIds);
        const recorded = recordingBackgrounds(env().media);
        await renderRequest({ requestId: id }, { db: env().db, clock: env().app.clock, media: recorded.media });
        expect((await requestState(env(), id)).status).toBe('success');
        expect(recorded.used).toEqual([]);
        const variants = await Promise.all(
          [0, 1, 2].map((position) => fs.readFile(path.join(env().mediaDir, `requests/${idUpload}/${position}.mp4`))),
        );
        expect(variants[1]!.equals(variants[0]!)).toBe(true);
        expect(variants[2]!.equals(variants[0]!)).toBe(true);
      });

      it('fails the request with the reason, without retries or another background, when every chosen image was deleted', async () => {
        const user = await createUser(env(), 'operator');
        // The second image stays, not chosen: the render must not fall back to it.
        const [deleted] = await uploadImages(env().app, user.headers, [fixtures.png, fixtures.jpeg]);
        const { id, used, state } = await render(user.headers, 2, [deleted!], async () => {
          await env().app.inject({ method: 'DELETE', url: `/api/photo-bg/${deleted}`, headers: user.headers });
        });
        expect(used).toEqual([]);
        expect(state).toEqual({
          status: 'error',
          render_failure: 'backgrounds_gone',
          videos: [
            { status: 'error', render_failure: 'backgrounds_gone' },
            { status: 'error', render_failure: 'backgrounds_gone' },
          ],
        });
        const { rows } = await env().db.sql('SELECT id_upload FROM creation_requests WHERE id = $1', [id]);
        const detail = await detailOf(env(), user.headers, rows[0].id_upload);
        expect([detail.error, ...detail.video.map((video: { error: string }) => video.error)]).toEqual(
          Array(3).fill(t.media.backgroundsGone),
        );
      });
    });

    describe("without a choice of backgrounds (SPEC's shape, or made before migration 0015)", () => {
      /** A request as the route made them before migration 0015: no chosen images. */
      async function legacyRequest(userId: number, idUpload: string, source: string) {
        const { rows } = await env().db.sql(
          `INSERT INTO creation_requests (id_upload, user_id, count_video, source_key) VALUES ($1, $2, 2, $3) RETURNING id`,
          [idUpload, userId, `requests/${idUpload}/source.mov`],
        );
        await env().db.sql(`INSERT INTO videos (request_id, user_id, position) VALUES ($1, $2, 0), ($1, $2, 1)`, [rows[0].id, userId]);
        await fs.mkdir(path.join(env().mediaDir, `requests/${idUpload}`), { recursive: true });
        await fs.copyFile(source, path.join(env().mediaDir, `requests/${idUpload}/source.mov`));
        return rows[0].id as number;
      }

      it('render over every image of their owner', async () => {
        const user = await createUser(env(), 'operator');
        const photoIds = await uploadImages(env().app, user.headers, [fixtures.png, fixtures.jpeg]);
        const requestId = await legacyRequest(user.id, '2b7e4c1a-5d3f-4e8a-9c6b-1f2e3d4c5b6a', fixtures.clip);
        const recorded = recordingBackgrounds(env().media);
        await renderRequest({ requestId }, { db: env().db, clock: env().app.clock, media: recorded.media });
        expect((await requestState(env(), requestId)).status).toBe('success');
        expect([...new Set(recorded.used)].sort()).toEqual(await fileKeysOf(env(), photoIds));
      });

      it('render a source without audio over its own blurred copy when the owner has no images', async () => {
        const user = await createUser(env(), 'operator');
        const idUpload = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
        const requestId = await legacyRequest(user.id, idUpload, fixtures.silentClip);
        await renderRequest({ requestId }, { db: env().db, clock: env().app.clock, media: env().media });
        expect((await requestState(env(), requestId)).status).toBe('success');
        expect(await streamsOf(env().media.tools, path.join(env().mediaDir, `requests/${idUpload}/0.mp4`))).toEqual([
          { codec_type: 'video', codec_name: 'h264', width: 1080, height: 1920, pix_fmt: 'yuv420p' },
        ]);
      });
    });

    describe('that fails', () => {
      it('keeps the reason of a failed attempt, and marks videos and request as errors when retries run out', async () => {
        const user = await createUser(env(), 'operator');
        const { rows } = await env().db.sql(
          `INSERT INTO creation_requests (id_upload, user_id, count_video, source_key)
       VALUES ('6f1c2f86-4b8e-4f55-9d7e-0d7d5e8f0a11', $1, 2, 'requests/6f1c2f86-4b8e-4f55-9d7e-0d7d5e8f0a11/source.mov') RETURNING id`,
          [user.id],
        );
        const requestId = rows[0].id;
        await env().db.sql(`INSERT INTO videos (request_id, user_id, position) VALUES ($1, $2, 0), ($1, $2, 1)`, [requestId, user.id]);
        await fs.mkdir(path.join(env().mediaDir, 'requests/6f1c2f86-4b8e-4f55-9d7e-0d7d5e8f0a11'), { recursive: true });
        await fs.copyFile(fixtures.clip, path.join(env().mediaDir, 'requests/6f1c2f86-4b8e-4f55-9d7e-0d7d5e8f0a11/source.mov'));
        const brokenTools = { ...env().media.tools, ffmpeg: path.join(fixtures.dir, 'no-such-ffmpeg') };
        // The probe carried as the route does, so the render's own ffmpeg pass is what fails.
        const source = await probeVideo(env().media.tools, fixtures.clip, noLimits);

        await expect(
          renderRequest({ requestId, source }, { db: env().db, clock: env().app.clock, media: { ...env().media, tools: brokenTools } }),
        ).rejects.toThrow();
        const afterAttempt = await env().db.sql(
          'SELECT status, render_failure, render_failure_detail FROM creation_requests WHERE id = $1',
          [requestId],
        );
        expect(afterAttempt.rows[0]).toMatchObject({ status: 'loading', render_failure: 'failed' });
        const detail = afterAttempt.rows[0].render_failure_detail as string;
        expect(detail).toContain('no-such-ffmpeg');

        await markRenderFailed({ requestId }, { db: env().db, clock: env().platforms.clock });
        const request = await env().db.sql('SELECT status, render_failure FROM creation_requests WHERE id = $1', [requestId]);
        expect(request.rows[0]).toEqual({ status: 'error', render_failure: 'failed' });
        const items = await env().db.sql('SELECT status, render_failure FROM videos WHERE request_id = $1 ORDER BY position', [requestId]);
        expect(items.rows).toEqual(Array(2).fill({ status: 'error', render_failure: 'failed' }));
        // The words are made where the API answers: the catalog's, then what failed.
        const answered = await detailOf(env(), user.headers, '6f1c2f86-4b8e-4f55-9d7e-0d7d5e8f0a11');
        expect([answered.error, ...answered.video.map((video: { error: string }) => video.error)]).toEqual(
          Array(3).fill(`${t.media.renderFailed}: ${detail}`),
        );
        expect(await filesUnder(env().mediaDir)).toEqual(['requests/6f1c2f86-4b8e-4f55-9d7e-0d7d5e8f0a11/source.mov']);
      });
    });

    describe('cut off midway', () => {
      it('leaves no variant file in the request and no scratch, and keeps every video loading for the retry', async () => {
        const user = await createUser(env(), 'operator');
        const idUpload = '0d9a3c55-7f41-4a8e-9b2c-5e6f7a8b9c0d';
        const { rows } = await env().db.sql(
          `INSERT INTO creation_requests (id_upload, user_id, count_video, source_key) VALUES ($1, $2, 2, $3) RETURNING id`,
          [idUpload, user.id, `requests/${idUpload}/source.mov`],
        );
        const requestId = rows[0].id;
        await env().db.sql(`INSERT INTO videos (request_id, user_id, position) VALUES ($1, $2, 0), ($1, $2, 1)`, [requestId, user.id]);
        await fs.mkdir(path.join(env().mediaDir, `requests/${idUpload}`), { recursive: true });
        await fs.copyFile(fixtures.longClip, path.join(env().mediaDir, `requests/${idUpload}/source.mov`));

        // ffmpeg is killed a fraction of a second in, as a dying worker would leave it.
        const media = { ...env().media, settings: { ...env().media.settings, renderTimeoutSeconds: 0.2 } };
        await expect(renderRequest({ requestId }, { db: env().db, clock: env().app.clock, media })).rejects.toThrow(/timed out/);

        expect(await filesUnder(env().mediaDir)).toEqual([`requests/${idUpload}/source.mov`]);
        const items = await env().db.sql('SELECT status, file_key FROM videos WHERE request_id = $1 ORDER BY position', [requestId]);
        expect(items.rows).toEqual([
          { status: 'loading', file_key: null },
          { status: 'loading', file_key: null },
        ]);

        await renderRequest({ requestId }, { db: env().db, clock: env().app.clock, media: env().media });
        const retried = await env().db.sql('SELECT status FROM creation_requests WHERE id = $1', [requestId]);
        expect(retried.rows[0].status).toBe('success');
      });
    });
  },
  { queue: 'send' },
);

describe('planning compositions', () => {
  it('rotates variants through every image in one shuffled order, one encode per distinct background', () => {
    const plan = planCompositions([0, 1, 2, 3, 4], ['a', 'b', 'c']);
    expect(plan.map((composition) => composition.background).sort()).toEqual(['a', 'b', 'c']);
    expect(plan.flatMap((composition) => composition.positions).sort()).toEqual([0, 1, 2, 3, 4]);
    const first = plan.find((composition) => composition.positions.includes(0))!;
    expect(first.positions).toEqual([0, 3]);
  });

  it('uses the blurred source for every variant when there is no image', () => {
    expect(planCompositions([0, 1], [])).toEqual([{ background: null, positions: [0, 1] }]);
  });
});

describe('the audio of a render', () => {
  const tools = testTools();
  let scratch: string;
  beforeAll(async () => {
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-render-audio-'));
  });
  afterAll(() => fs.rm(scratch, { recursive: true, force: true }));

  async function audioOf(file: string) {
    const { stdout } = await runTool(
      tools.ffprobe,
      ['-v', 'error', '-select_streams', 'a', '-show_entries', 'stream=codec_name,profile,channels', '-of', 'json', file],
      30_000,
    );
    return JSON.parse(stdout).streams;
  }

  const targetsIn = (name: string, count: number) =>
    Array.from({ length: count }, (_, index) => ({
      background: fixtures.png,
      video: path.join(scratch, `${name}-${index}.mp4`),
      poster: path.join(scratch, `${name}-${index}.jpg`),
      thumbnail: path.join(scratch, `${name}-${index}-small.jpg`),
    }));

  it('keeps an AAC-LC mono track as it is in every variant of a pass', async () => {
    const info = await probeVideo(tools, fixtures.clip, noLimits);
    expect(info.audioFitsAsIs).toBe(true);
    const targets = targetsIn('mono', 3);
    await renderVariants({ tools, source: fixtures.clip, info, targets, preset: 'ultrafast', timeoutMs: 120_000 });
    for (const target of targets) {
      // Encoded again it would be stereo (-ac 2): one channel means the source's own packets.
      expect(await audioOf(target.video)).toEqual([{ codec_name: 'aac', profile: 'LC', channels: 1 }]);
      expect(await streamsOf(tools, target.poster)).toEqual([expect.objectContaining({ codec_name: 'mjpeg', width: 1080, height: 1920 })]);
      // The small copy the lists and the publish form show: a fifth of each side, far fewer bytes.
      expect(await streamsOf(tools, target.thumbnail)).toEqual([expect.objectContaining({ codec_name: 'mjpeg', width: 216, height: 384 })]);
      expect((await fs.stat(target.thumbnail)).size).toBeLessThan((await fs.stat(target.poster)).size / 4);
    }
  });

  it('encodes a track no platform takes as it is (5.1 surround) to AAC-LC stereo', async () => {
    const surround = path.join(scratch, 'surround.mp4');
    await runTool(
      tools.ffmpeg,
      [
        ...['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=10:d=0.4'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=0.4', '-ac', '6', '-c:v', 'libx264', '-preset', 'ultrafast'],
        ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', surround],
      ],
      60_000,
    );
    const info = await probeVideo(tools, surround, noLimits);
    expect(info.audioFitsAsIs).toBe(false);
    const targets = targetsIn('surround', 2);
    await renderVariants({ tools, source: surround, info, targets, preset: 'ultrafast', timeoutMs: 120_000 });
    for (const target of targets) expect(await audioOf(target.video)).toEqual([{ codec_name: 'aac', profile: 'LC', channels: 2 }]);
  });
});

describe('where the clip sits in its variant', () => {
  const tools = testTools();
  let scratch: string;
  beforeAll(async () => {
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-render-place-'));
  });
  afterAll(() => fs.rm(scratch, { recursive: true, force: true }));

  /** A red clip of this size; a `rotate` tag (degrees) is what a phone filming sideways writes, set as the file is written again. */
  async function redClip(name: string, size: string, rotate?: number): Promise<string> {
    const file = path.join(scratch, `${name}.mp4`);
    const ffmpeg = (args: string[]) => runTool(tools.ffmpeg, ['-nostdin', '-v', 'error', '-y', ...args], 60_000);
    const encoded = rotate === undefined ? file : path.join(scratch, `${name}-upright.mp4`);
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `color=c=red:s=${size}:r=10:d=0.4`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      encoded,
    ]);
    if (rotate !== undefined) await ffmpeg(['-i', encoded, '-c', 'copy', '-metadata:s:v:0', `rotate=${rotate}`, file]);
    return file;
  }

  /** The first frame's mean colour in the 4×4 square around each point, as RGB: one decode for all the points. */
  async function coloursAt(video: string, points: [number, number][]): Promise<number[][]> {
    const frameFile = path.join(scratch, 'frame.rgb');
    await runTool(
      tools.ffmpeg,
      ['-nostdin', '-v', 'error', '-y', '-i', video, '-frames:v', '1', '-vf', 'format=rgb24', '-f', 'rawvideo', frameFile],
      60_000,
    );
    const frame = await fs.readFile(frameFile);
    const width = 1080;
    expect(frame.length).toBe(width * 1920 * 3);
    return points.map(([x, y]) =>
      [0, 1, 2].map((channel) => {
        let sum = 0;
        for (let row = y - 2; row < y + 2; row++) {
          for (let column = x - 2; column < x + 2; column++) sum += frame[(row * width + column) * 3 + channel]!;
        }
        return Math.round(sum / 16);
      }),
    );
  }

  const known: Record<string, number[]> = { red: [255, 0, 0], teal: [0, 128, 128] };
  /** A colour's name when it is within 40 of red (the clip) or teal (the background) in every channel, else its RGB. */
  const nameOf = (rgb: number[]) =>
    Object.keys(known).find((name) => rgb.every((value, index) => Math.abs(value - known[name]![index]!) < 40)) ?? rgb.join(',');

  /** The colours, by name, at these points of the first frame of `source` rendered over the teal image. */
  async function coloursOf(name: string, source: string, points: [number, number][]): Promise<string[]> {
    const info = await probeVideo(tools, source, noLimits);
    const target = {
      background: fixtures.png,
      video: path.join(scratch, `${name}-out.mp4`),
      poster: path.join(scratch, `${name}-out.jpg`),
      thumbnail: path.join(scratch, `${name}-out-small.jpg`),
    };
    await renderVariants({ tools, source, info, targets: [target], preset: 'ultrafast', timeoutMs: 120_000 });
    expect(await streamsOf(tools, target.video)).toEqual([
      { codec_type: 'video', codec_name: 'h264', width: 1080, height: 1920, pix_fmt: 'yuv420p' },
    ]);
    return (await coloursAt(target.video, points)).map(nameOf);
  }

  it('puts a landscape clip across the middle, with the background above and below it', async () => {
    // 1080×608 in the middle: lines 656 to 1263.
    const points: [number, number][] = [
      [540, 640],
      [540, 672],
      [540, 1248],
      [540, 1280],
    ];
    expect(await coloursOf('landscape', await redClip('landscape', '320x180'), points)).toEqual(['teal', 'red', 'red', 'teal']);
  });

  it('puts a narrow portrait clip down the middle, with the background left and right of it', async () => {
    // 692×1920 in the middle: columns 194 to 885.
    const points: [number, number][] = [
      [180, 960],
      [210, 960],
      [870, 960],
      [900, 960],
    ];
    expect(await coloursOf('narrow', await redClip('narrow', '180x500'), points)).toEqual(['teal', 'red', 'red', 'teal']);
  });

  it('stands a clip filmed sideways upright, so a vertical phone clip fills the frame', async () => {
    const points: [number, number][] = [
      [540, 40],
      [540, 1880],
    ];
    expect(await coloursOf('sideways', await redClip('sideways', '320x180', 90), points)).toEqual(['red', 'red']);
  });

  it('stretches a clip within 2 px of the frame to fill it, rather than leaving a sliver of background', async () => {
    const points: [number, number][] = [
      [2, 960],
      [1078, 960],
    ];
    expect(await coloursOf('almost', await redClip('almost', '1078x1920'), points)).toEqual(['red', 'red']);
  });
});

describe('the ffmpeg and ffprobe shipped by npm', () => {
  const require = createRequire(import.meta.url);
  const npmTools: MediaTools = resolveMediaTools({
    ffmpegPath: require('@ffmpeg-installer/ffmpeg').path,
    ffprobePath: require('@ffprobe-installer/ffprobe').path,
  });
  let scratch: string;
  beforeAll(async () => {
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-npm-ffmpeg-'));
  });
  afterAll(() => fs.rm(scratch, { recursive: true, force: true }));

  it('are the fallback when neither FFMPEG_PATH nor the PATH has ffmpeg (a fresh machine)', () => {
    const fallback = resolveMediaTools({}, { PATH: '' });
    expect(fallback).toEqual({ ffmpeg: npmTools.ffmpeg, ffprobe: npmTools.ffprobe });
  });

  it('are used when FFMPEG_PATH / FFPROBE_PATH point at them', () => {
    expect(npmTools.ffmpeg).toContain(`node_modules${path.sep}@ffmpeg-installer`);
    expect(npmTools.ffprobe).toContain(`node_modules${path.sep}@ffprobe-installer`);
  });

  it('probe a video, refuse a playlist, and render a variant over an image and one over the blurred source', async () => {
    const info = await probeVideo(npmTools, fixtures.clip, noLimits);
    expect(info).toEqual({
      demuxer: 'mov',
      durationSeconds: expect.closeTo(0.4, 1),
      fps: 10,
      width: 320,
      height: 240,
      audioFitsAsIs: true,
    });
    await expect(probeVideo(npmTools, fixtures.playlist, noLimits)).rejects.toMatchObject({ statusCode: 400 });

    const targets = [
      {
        background: fixtures.png,
        video: path.join(scratch, 'a.mp4'),
        poster: path.join(scratch, 'a.jpg'),
        thumbnail: path.join(scratch, 'a-small.jpg'),
      },
      {
        background: null,
        video: path.join(scratch, 'b.mp4'),
        poster: path.join(scratch, 'b.jpg'),
        thumbnail: path.join(scratch, 'b-small.jpg'),
      },
    ];
    await renderVariants({ tools: npmTools, source: fixtures.clip, info, targets, preset: 'ultrafast', timeoutMs: 120_000 });
    for (const target of targets) {
      expect(await streamsOf(npmTools, target.video)).toEqual([
        { codec_type: 'video', codec_name: 'h264', width: 1080, height: 1920, pix_fmt: 'yuv420p' },
        { codec_type: 'audio', codec_name: 'aac' },
      ]);
      expect((await fs.stat(target.poster)).size).toBeGreaterThan(0);
    }
  });
});
