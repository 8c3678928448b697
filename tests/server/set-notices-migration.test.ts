import { describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate';
import { databaseKinds, freshDatabase } from './helpers';

/**
 * Migration 0037: the bell's one entry per failed post ('publish_failed', with the platform's
 * sentence) becomes one entry per set counting its posts, and a failing profile's entry keeps its
 * code instead of the profile's sentence. Migrated to the latest, the counts read as 0045 words
 * them, in a post's states ('published').
 */
for (const kind of databaseKinds()) {
  describe(`Migration 0037 folds failed posts' notices into their sets [${kind}]`, () => {
    it(
      'leaves one entry per set with its counts, unread while any of its entries was, and codes for failing profiles',
      { timeout: 60_000 },
      async () => {
        const { db, drop } = await freshDatabase(kind, '0036_cancelled_publications.sql');
        try {
          const { rows: users } = await db.sql(`INSERT INTO users (login, password_hash) VALUES ('owner', 'x') RETURNING id`);
          const owner = users[0].id as number;
          const { rows: accounts } = await db.sql(`INSERT INTO accounts (user_id, proxy) VALUES ($1, '127.0.0.1:8080') RETURNING id`, [
            owner,
          ]);
          const account = accounts[0].id as number;
          const set = async (statuses: [string, string | null][]) => {
            const { rows } = await db.sql(
              `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key) VALUES (gen_random_uuid(), $1, 'published', 1, 'gone') RETURNING id`,
              [owner],
            );
            for (const [position, [status, waitKind]] of statuses.entries()) {
              const { rows: video } = await db.sql(
                `INSERT INTO videos (request_id, user_id, account_id, position, status) VALUES ($1, $2, $3, $4, 'publication') RETURNING id`,
                [rows[0].id, owner, account, position],
              );
              await db.sql(
                `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, job_token, wait_kind, wait_detail)
               VALUES ($1, 'tiktok', $2, $3, now(), gen_random_uuid(), $4::text, CASE WHEN $4::text IS NULL THEN NULL ELSE '{}'::jsonb END)`,
                [video[0].id, account, status, waitKind],
              );
            }
            return rows[0].id as number;
          };
          const told = (request: number, read: boolean) =>
            db.sql(
              `INSERT INTO notifications (user_id, kind, request_id, account_id, platform, message, read_at)
             VALUES ($1, 'publish_failed', $2, $3, 'tiktok', 'TikTok: недоступна', $4)`,
              [owner, request, account, read ? new Date() : null],
            );
          const mixed = await set([
            ['done', null],
            ['error', null],
            ['error', null],
            ['pending', 'cap'],
            ['pending', 'retry'],
          ]);
          const readOne = await set([['error', null]]);
          await told(mixed, true);
          await told(mixed, false);
          await told(readOne, true);
          await db.sql(
            `INSERT INTO notifications (user_id, kind, account_id, platform, message) VALUES
             ($1, 'credentials_failed', $2, 'youtube', 'Доступ YouTube відкликано — підключіть профіль знову'),
             ($1, 'credentials_failed', $2, 'tiktok', 'TikTok: access_token_invalid')`,
            [owner, account],
          );

          await migrate(db);
          const { rows } = await db.sql(
            `SELECT kind, request_id, platform, message, posts, failure_code, read_at IS NOT NULL AS read FROM notifications ORDER BY kind, request_id, platform`,
          );
          expect(rows).toEqual([
            {
              kind: 'credentials_failed',
              request_id: null,
              platform: 'tiktok',
              message: null,
              posts: null,
              failure_code: 'refused',
              read: false,
            },
            {
              kind: 'credentials_failed',
              request_id: null,
              platform: 'youtube',
              message: null,
              posts: null,
              failure_code: 'revoked',
              read: false,
            },
            {
              kind: 'set_posts',
              request_id: mixed,
              platform: null,
              message: null,
              posts: { published: 1, failed: 2, held: 1 },
              failure_code: null,
              read: false,
            },
            {
              kind: 'set_posts',
              request_id: readOne,
              platform: null,
              message: null,
              posts: { published: 0, failed: 1, held: 0 },
              failure_code: null,
              read: true,
            },
          ]);
        } finally {
          await drop();
        }
      },
    );
  });
}
