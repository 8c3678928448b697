import { describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate';
import { databaseKinds, freshDatabase } from './helpers';

for (const kind of databaseKinds()) {
  describe(`Migration 0035 moves the render's stored sentences into kinds [${kind}]`, () => {
    it(
      'reads each sentence the catalog wrote as its kind, keeps other words as a failure, and leaves publish errors',
      { timeout: 120_000 },
      async () => {
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

          expect(await migrate(db)).toContain('0035_render_failures.sql');

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
            { render_failure: 'backgrounds_gone', render_failure_detail: null, error: null },
            { render_failure: 'interrupted', render_failure_detail: null, error: null },
            { render_failure: 'failed', render_failure_detail: 'ffmpeg exit 1: Conversion failed!', error: null },
            { render_failure: null, render_failure_detail: null, error: 'YouTube: відхилено' },
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
      },
    );
  });
}
