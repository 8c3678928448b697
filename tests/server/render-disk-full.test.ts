import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as t from '../../src/lib/i18n';
import { isDiskFull } from '../../server/http-error';
import { migrate } from '../../server/db/migrate';
import type { MediaStorage } from '../../server/media/storage';
import { runTool } from '../../server/media/tools';
import { filesUnder, makeMediaFixtures, multipart, testTools, type MediaFixtures } from '../fixtures/media';
import { createUser, databaseKinds, describeEachDatabase, freshDatabase, uploadImages, type TestEnv } from './helpers';

/**
 * A disk that fills while a batch renders (issue 29): no retry finds room, so each request that
 * meets it ends at once in 'error' with 'Диск заповнений…', its files freed, nothing left 'loading'.
 */

let fixtures: MediaFixtures;
beforeAll(async () => {
  fixtures = await makeMediaFixtures(testTools());
});
afterAll(() => fixtures.remove());

/** What a full disk answers a write: the kernel's own error, as fs gives it. */
function diskFullError(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), {
    code: 'ENOSPC',
    errno: -28,
    syscall: 'write',
  });
}

const variantKey = /^requests\/[^/]+\/\d+(-small)?\.(mp4|jpg)$/;

/**
 * The storage the routes and the worker share, on a disk that fills during the batch: the first
 * variant to be stored waits for `release`, and once its poster is stored the disk is full. From
 * then on ffmpeg's outputs are /dev/full (every write answers ENOSPC, which ffmpeg reports only on
 * stderr) and storing a variant fails with fs's ENOSPC. Uploads of sources are not touched.
 */
function fillingDisk(storage: MediaStorage) {
  const { scratch, put } = storage;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let filledAt: number | undefined;
  storage.put = async (key, file) => {
    if (!variantKey.test(key)) return put(key, file);
    await released;
    if (filledAt !== undefined) throw diskFullError();
    await put(key, file);
    if (key.endsWith('.jpg')) filledAt = performance.now();
  };
  storage.scratch = async () => {
    const real = await scratch();
    return {
      ...real,
      file: (name) => {
        const file = real.file(name);
        if (filledAt !== undefined && name.startsWith('variant-')) {
          fs.rmSync(file, { force: true });
          fs.symlinkSync('/dev/full', file);
        }
        return file;
      },
    };
  };
  return {
    release,
    filledAt: () => filledAt,
    restore: () => Object.assign(storage, { scratch, put }),
  };
}

async function createRequest(env: TestEnv, headers: Record<string, string>, photoIds: number[]) {
  const body = await multipart([
    { name: 'countVideo', value: '2' },
    { name: 'photoIds', value: JSON.stringify(photoIds) },
    {
      name: 'file',
      file: {
        path: fixtures.clip,
        filename: 'clip.mp4',
        contentType: 'video/mp4',
      },
    },
  ]);
  const response = await env.app.inject({
    method: 'POST',
    url: '/api/create-video/create',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number; idUpload: string }>();
}

describeEachDatabase(
  'a disk that fills while a batch renders',
  (env) => {
    it(
      "ends every request of the batch 'error' with the reason within 10 s, frees what it wrote, and retries none",
      { timeout: 120_000 },
      async () => {
        const user = await createUser(env(), 'operator');
        const admin = await createUser(env(), 'chief', { role: 'admin' });
        // Two images: each request is two compositions in one ffmpeg pass.
        const photoIds = await uploadImages(env().app, user.headers, [fixtures.png, fixtures.jpeg]);
        const disk = fillingDisk(env().media.storage);
        let settledMs: number;
        const batch: { id: number; idUpload: string }[] = [];
        try {
          for (let index = 0; index < 5; index++) batch.push(await createRequest(env(), user.headers, photoIds));
          disk.release();
          await vi.waitFor(
            async () => {
              const { rows } = await env().db.sql(
                `SELECT (SELECT count(*)::int FROM creation_requests WHERE status = 'error') AS failed,
                        (SELECT count(*)::int FROM pgboss.job WHERE name = 'render-request' AND state = 'completed') AS completed`,
              );
              expect(rows[0]).toEqual({ failed: 5, completed: 5 });
            },
            { timeout: 60_000, interval: 50 },
          );
          settledMs = performance.now() - disk.filledAt()!;
        } finally {
          disk.restore();
        }
        expect(settledMs, `every request failed ${Math.round(settledMs)} ms after the disk filled`).toBeLessThan(10_000);

        // Stored as kinds, not sentences; nothing left 'loading', no file of a variant kept.
        const { rows: requests } = await env().db.sql(
          `SELECT status, render_failure, render_failure_detail FROM creation_requests ORDER BY id`,
        );
        expect(requests).toEqual(
          Array(5).fill({
            status: 'error',
            render_failure: 'disk_full',
            render_failure_detail: null,
          }),
        );
        const { rows: items } = await env().db.sql(`SELECT status, render_failure, file_key, poster_key FROM videos`);
        expect(items).toEqual(
          Array(10).fill({
            status: 'error',
            render_failure: 'disk_full',
            file_key: null,
            poster_key: null,
          }),
        );
        // No retry was planned, and nothing went to the dead letters.
        const { rows: jobs } = await env().db.sql(
          `SELECT name, state, retry_count FROM pgboss.job WHERE name LIKE 'render-request%' ORDER BY name`,
        );
        expect(jobs).toEqual(
          Array(5).fill({
            name: 'render-request',
            state: 'completed',
            retry_count: 0,
          }),
        );

        // The variant stored before the disk filled, ffmpeg's outputs and every scratch folder are
        // gone; the images and the sources stay, as after any failed render.
        const { rows: kept } = await env().db.sql(`SELECT file_key FROM photos UNION ALL SELECT source_key FROM creation_requests`);
        expect(await filesUnder(env().mediaDir)).toEqual(kept.map((row) => row.file_key as string).sort());
        expect(await fsp.readdir(path.join(env().mediaDir, '.scratch'))).toEqual([]);

        // The API words the kind in Ukrainian: each request and its videos, the bell, a user's videos.
        for (const { idUpload } of batch) {
          const detail = (
            await env().app.inject({
              url: `/api/create-video/request/${idUpload}`,
              headers: user.headers,
            })
          ).json();
          expect(detail.status).toBe('error');
          expect(detail.error).toBe(t.media.diskFull);
          expect(
            detail.video.map(({ status, error, url }: Record<string, unknown>) => ({
              status,
              error,
              url,
            })),
          ).toEqual(
            Array(2).fill({
              status: 'error',
              error: t.media.diskFull,
              url: null,
            }),
          );
        }
        const list = (
          await env().app.inject({
            url: '/api/create-video',
            headers: user.headers,
          })
        ).json();
        expect(list.data.map((row: { status: string }) => row.status)).toEqual(Array(5).fill('error'));
        const bell = (
          await env().app.inject({
            url: '/api/notifications',
            headers: user.headers,
          })
        ).json();
        expect(
          bell.items.map(({ kind, message }: Record<string, unknown>) => ({
            kind,
            message,
          })),
        ).toEqual(Array(5).fill({ kind: 'render_failed', message: t.media.diskFull }));
        const videos = (
          await env().app.inject({
            url: `/api/users/${user.id}/video`,
            headers: admin.headers,
          })
        ).json();
        expect(
          videos.data.map(({ status, error }: Record<string, unknown>) => ({
            status,
            error,
          })),
        ).toEqual(Array(10).fill({ status: 'error', error: t.media.diskFull }));
      },
    );
  },
  { queue: 'work' },
);

describe("a tool's report of a full disk", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(fixtures.dir, 'tool-'));
  });

  /** A tool that fails with this line on stderr, as ffmpeg does when a write fails. */
  async function failingWith(line: string): Promise<unknown> {
    const tool = path.join(dir, `tool-${Math.random().toString(16).slice(2)}`);
    await fsp.writeFile(tool, `#!/bin/sh\necho '${line}' >&2\necho 'Conversion failed!' >&2\nexit 1\n`, { mode: 0o755 });
    return runTool(tool, [], 10_000).catch((error: unknown) => error);
  }

  it('is a full disk when its stderr names ENOSPC or EDQUOT, whatever its last line', async () => {
    expect(isDiskFull(await failingWith('av_interleaved_write_frame(): No space left on device'))).toBe(true);
    expect(isDiskFull(await failingWith('Error writing trailer of out.mp4: Disk quota exceeded'))).toBe(true);
  });

  it('is not one for any other failure', async () => {
    expect(isDiskFull(await failingWith('out.mp4: Permission denied'))).toBe(false);
    expect(isDiskFull(await failingWith('Invalid data found when processing input'))).toBe(false);
  });
});

for (const kind of databaseKinds()) {
  describe(`Migration 0035 moves the render's stored sentences into kinds [${kind}]`, () => {
    it('reads each sentence the catalog wrote as its kind, keeps other words as a failure, and leaves publish errors', async () => {
      const { db, drop } = await freshDatabase(kind, '0034_sign_in_spray.sql');
      try {
        const { rows: users } = await db.sql(`INSERT INTO users (login, password_hash) VALUES ('owner', 'x') RETURNING id`);
        const userId = users[0].id as number;
        // The catalog's sentences as they were worded when these rows were written.
        const stored: [string, string | null, string | null][] = [
          ['Обрані фонові зображення видалено: створіть запит знову з іншими', 'backgrounds_gone', null],
          ['Створення відео перервано', 'interrupted', null],
          ['Не вдалося створити відео: ffmpeg exit 1: Conversion failed!', 'failed', 'ffmpeg exit 1: Conversion failed!'],
          ['ffmpeg timed out after 3600 s: frame=12', 'failed', 'ffmpeg timed out after 3600 s: frame=12'],
        ];
        const ids: number[] = [];
        for (const [error] of stored) {
          const { rows } = await db.sql(
            `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, error)
             VALUES (gen_random_uuid(), $1, 'error', 1, 'gone', $2) RETURNING id`,
            [userId, error],
          );
          ids.push(rows[0].id);
          await db.sql(`INSERT INTO videos (request_id, user_id, position, status, error) VALUES ($1, $2, 0, 'error', $3)`, [
            rows[0].id,
            userId,
            error,
          ]);
        }
        // A rendered video whose YouTube post failed keeps that failure in `error`, as before.
        await db.sql(`UPDATE videos SET file_key = 'requests/x/0.mp4', error = 'YouTube: відхилено' WHERE request_id = $1`, [ids[3]]);
        await db.sql(
          `INSERT INTO notifications (user_id, kind, request_id, message) VALUES ($1, 'render_failed', $2, 'Створення відео перервано')`,
          [userId, ids[1]],
        );

        expect(await migrate(db, { through: '0035_render_failures.sql' })).toContain('0035_render_failures.sql');

        const { rows: requests } = await db.sql(
          `SELECT render_failure, render_failure_detail FROM creation_requests WHERE id = ANY($1::int[]) ORDER BY id`,
          [ids],
        );
        expect(requests.map((row) => [row.render_failure, row.render_failure_detail])).toEqual(
          stored.map(([, failure, detail]) => [failure, detail]),
        );
        const { rows: items } = await db.sql(
          `SELECT render_failure, render_failure_detail, error FROM videos WHERE request_id = ANY($1::int[]) ORDER BY request_id`,
          [ids],
        );
        expect(items).toEqual([
          {
            render_failure: 'backgrounds_gone',
            render_failure_detail: null,
            error: null,
          },
          {
            render_failure: 'interrupted',
            render_failure_detail: null,
            error: null,
          },
          {
            render_failure: 'failed',
            render_failure_detail: 'ffmpeg exit 1: Conversion failed!',
            error: null,
          },
          {
            render_failure: null,
            render_failure_detail: null,
            error: 'YouTube: відхилено',
          },
        ]);
        const { rows: columns } = await db.sql(
          `SELECT column_name FROM information_schema.columns WHERE table_name = 'creation_requests' AND column_name = 'error'`,
        );
        expect(columns).toEqual([]);
        const { rows: notes } = await db.sql(`SELECT message FROM notifications WHERE kind = 'render_failed'`);
        expect(notes).toEqual([{ message: null }]);

        // A render that ends from now on notifies without a sentence; the bell words it from the request.
        await db.sql(`UPDATE creation_requests SET status = 'loading' WHERE id = $1`, [ids[0]]);
        await db.sql(`UPDATE creation_requests SET status = 'error', render_failure = 'disk_full' WHERE id = $1`, [ids[0]]);
        const { rows: fresh } = await db.sql(`SELECT message FROM notifications WHERE request_id = $1`, [ids[0]]);
        expect(fresh).toEqual([{ message: null }]);
      } finally {
        await drop();
      }
    });
  });
}
