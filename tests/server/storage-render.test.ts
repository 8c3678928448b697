import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { renderRequest, requestPrefix } from '../../server/jobs/render';
import { s3Storage } from '../../server/media/s3-storage';
import type { MediaStorage } from '../../server/media/storage';
import { makeClip, makeImage, testTools } from '../fixtures/media';
import { s3Credentials, startS3Server, startVanishingRelay, type TestS3Server } from '../fixtures/s3-server';
import { createUser, describeEachDatabase } from './helpers';

Object.assign(process.env, s3Credentials);

/**
 * Just the two files the render reads: a 4-frame clip (0.4 s at 10 fps), as a render's cost is its
 * frames at 1080×1920; its variant is still about 120 KB, well over what the relay lets through.
 */
const fixtures = { dir: '', clip: '', png: '' };
let s3: TestS3Server;
let scratchRoot: string;
beforeAll(async () => {
  fixtures.dir = await fs.mkdtemp(path.join(os.tmpdir(), 'storage-render-fixtures-'));
  fixtures.clip = path.join(fixtures.dir, 'clip.mp4');
  fixtures.png = path.join(fixtures.dir, 'image.png');
  await makeClip(testTools(), fixtures.clip, { size: '320x240', rate: 10, seconds: 0.4 });
  await makeImage(testTools(), fixtures.png, { size: '64x48', colour: 'teal' });
  s3 = await startS3Server();
  scratchRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'storage-render-'));
});
afterAll(async () => {
  await s3.close();
  await fs.rm(fixtures.dir, { recursive: true, force: true });
  await fs.rm(scratchRoot, { recursive: true, force: true });
});

async function putCopy(storage: MediaStorage, key: string, file: string) {
  const scratch = await storage.scratch();
  await fs.copyFile(file, scratch.file('copy'));
  await storage.put(key, scratch.file('copy'));
  await scratch.dispose();
}

describeEachDatabase('rendering into an S3 store that goes away mid-upload', (env) => {
  it('fails the attempt with nothing counted as done, and the retry finishes every variant', async () => {
    const user = await createUser(env(), 'operator');
    const direct = s3Storage(s3.settings(env().kind), scratchRoot);
    // Downloads send almost nothing towards the store, so the source and background arrive; the
    // relay then lets 64 KiB of the first variant's upload through and disappears.
    const relay = await startVanishingRelay(s3.endpoint, 64 * 1024);
    const media = { ...env().media, storage: s3Storage({ ...s3.settings(env().kind), endpoint: relay.endpoint }, scratchRoot) };

    const idUpload = crypto.randomUUID();
    const sourceKey = `${requestPrefix(idUpload)}/source.mp4`;
    await putCopy(direct, sourceKey, fixtures.clip);
    await putCopy(direct, `photos/${user.id}/bg.png`, fixtures.png);
    const { rows } = await env().db.sql(
      `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key) VALUES ($1, $2, 'loading', 2, $3) RETURNING id`,
      [idUpload, user.id, sourceKey],
    );
    const requestId = rows[0].id as number;
    await env().db.sql(`INSERT INTO photos (user_id, file_key, content_type, width, height) VALUES ($1, $2, 'image/png', 64, 48)`, [
      user.id,
      `photos/${user.id}/bg.png`,
    ]);
    await env().db.sql(`INSERT INTO videos (request_id, user_id, position, status) VALUES ($1, $2, 0, 'loading'), ($1, $2, 1, 'loading')`, [
      requestId,
      user.id,
    ]);
    const videoRows = () =>
      env()
        .db.sql('SELECT status, file_key FROM videos WHERE request_id = $1 ORDER BY position', [requestId])
        .then((result) => result.rows);

    await expect(renderRequest({ requestId }, { db: env().db, clock: env().app.clock, media })).rejects.toThrow();
    expect(relay.vanished()).toBe(true);
    expect(await videoRows()).toEqual([
      { status: 'loading', file_key: null },
      { status: 'loading', file_key: null },
    ]);
    expect(await direct.size(`${requestPrefix(idUpload)}/0.mp4`)).toBeNull();

    await relay.restore();
    await renderRequest({ requestId }, { db: env().db, clock: env().app.clock, media });
    expect((await videoRows()).map((row) => row.status)).toEqual(['noactive', 'noactive']);
    for (const name of ['0.mp4', '0.jpg', '0-small.jpg', '1.mp4', '1.jpg', '1-small.jpg']) {
      expect(await direct.size(`${requestPrefix(idUpload)}/${name}`), name).toBeGreaterThan(0);
    }
    expect(await direct.size(sourceKey)).toBeNull();
  });
});
