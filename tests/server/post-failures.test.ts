import { describe, expect, it } from 'vitest';
import type { Paged, UploadDetail, VideoSummary } from '../../src/lib/contract';
import * as t from '../../src/lib/i18n';
import { failureKinds, failureText, storedFailure, type PostFailure } from '../../src/lib/post-failures';
import { migrate } from '../../server/db/migrate';
import { failPost } from '../../server/services/publishing/post-lifecycle';
import { createAccount } from './backoffice-fixtures';
import { createUser, databaseKinds, describeEachDatabase, freshDatabase } from './helpers';
import { renderedRequest } from './publishing-fixtures';

/**
 * Why a post failed is a kind with the platform's answer beside it (migration 0043,
 * src/lib/post-failures.ts): the words are made when the API answers, so rewording the catalog
 * changes no stored row, and every answer says the catalog's words of the moment.
 */

describeEachDatabase(
  'A failed post keeps its kind and the platform’s answer, never words',
  (env) => {
    it('stores a kind the database checks, and a reworded catalog changes no row while every answer follows it', async () => {
      const owner = await createUser(env(), 'owner');
      const admin = await createUser(env(), 'root', { role: 'admin' });
      const profile = await createAccount(env(), owner, { comments: 'Вечір' });
      const request = await renderedRequest(env(), owner.id, 1);
      const videoId = request.videos[0]!.id;
      await env().db.sql(`UPDATE creation_requests SET status = 'published', published_at = now() WHERE id = $1`, [request.id]);
      await env().db.sql(`UPDATE videos SET account_id = $2 WHERE id = $1`, [videoId, profile.id]);
      const { rows } = await env().db.sql(
        `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, job_token)
         VALUES ($1, 'instagram', $2, 'pending', now(), gen_random_uuid()) RETURNING id, job_token`,
        [videoId, profile.id],
      );
      const post = { id: rows[0].id as number, videoId, platform: 'instagram' as const };
      const refused: PostFailure = { kind: 'rejected', answer: '(#10) Application does not have permission', status: 400 };
      await failPost(env().db, post, rows[0].job_token, refused, new Date(env().app.clock.now()));

      const stored = async () => (await env().db.sql(`SELECT * FROM video_posts WHERE id = $1`, [post.id])).rows[0];
      const before = await stored();
      expect(before).toMatchObject({
        status: 'error',
        failure: 'rejected',
        failure_detail: { answer: '(#10) Application does not have permission', status: 400 },
      });
      const answered = async () => {
        const set = await env().app.inject({ url: `/api/upload-video/${request.idUpload}`, headers: owner.headers });
        const ofProfile = await env().app.inject({ url: `/api/accounts/${profile.id}/video?page=1`, headers: owner.headers });
        const ofUser = await env().app.inject({ url: `/api/users/${owner.id}/video?page=1`, headers: admin.headers });
        return [
          set.json<UploadDetail>().video[0]!.errorInstagram,
          ofProfile.json<Paged<VideoSummary>>().data[0]!.errorInstagram,
          ofUser.json<Paged<VideoSummary>>().data[0]!.errorInstagram,
        ];
      };
      const said = (words: string) => `Instagram: ${words} ((#10) Application does not have permission)`;
      expect(await answered()).toEqual(Array(3).fill(said(t.platform.rejected)));

      const words = t.platform as { rejected: string };
      const catalog = words.rejected;
      words.rejected = 'Платформа не прийняла відео';
      try {
        expect(await answered()).toEqual(Array(3).fill(said('Платформа не прийняла відео')));
        expect(await stored()).toEqual(before);
      } finally {
        words.rejected = catalog;
      }

      // The column holds a kind or nothing: every kind of the module, and no sentence.
      for (const kind of failureKinds) {
        await env().db.sql(`UPDATE video_posts SET failure = $2 WHERE id = $1`, [post.id, kind]);
      }
      await expect(env().db.sql(`UPDATE video_posts SET failure = $2 WHERE id = $1`, [post.id, t.platform.rejected])).rejects.toThrow(
        /check constraint/,
      );
      await expect(env().db.sql(`UPDATE video_posts SET failure_detail = NULL WHERE id = $1`, [post.id])).rejects.toThrow(
        /check constraint/,
      );
    });
  },
  { queue: 'send' },
);

for (const kind of databaseKinds()) {
  describe(`Migration 0043 reads the stored failure sentences back into kinds [${kind}]`, () => {
    it('turns each catalog sentence into its kind and answer, and keeps any other words as unknown', { timeout: 60_000 }, async () => {
      const { db, drop } = await freshDatabase(kind, '0042_connection_states.sql');
      try {
        const { rows: users } = await db.sql(`INSERT INTO users (login, password_hash) VALUES ('owner', 'x') RETURNING id`);
        const { rows: requests } = await db.sql(
          `INSERT INTO creation_requests (id_upload, user_id, count_video, source_key) VALUES (gen_random_uuid(), $1, 1, 'gone') RETURNING id`,
          [users[0].id],
        );
        // The catalog's sentences as the connectors and the publish job worded them before this migration.
        const failed: [string, string, PostFailure][] = [
          [
            'tiktok',
            'TikTok: Платформа відхилила запит (spam_risk_too_many_posts: too many posts)',
            { kind: 'rejected', answer: 'spam_risk_too_many_posts: too many posts' },
          ],
          [
            'youtube',
            'YouTube: Доступ до акаунта відкликано або він недійсний, підключіть профіль знову (invalid_grant (Token has been expired or revoked.))',
            { kind: 'auth_revoked', answer: 'invalid_grant (Token has been expired or revoked.)' },
          ],
          [
            'instagram',
            'Instagram: Доступ Instagram відкликано — підключіть профіль знову (Error validating access token)',
            { kind: 'grant_revoked', answer: 'Error validating access token' },
          ],
          ['tiktok', 'TikTok: Проксі профілю недоступний', { kind: 'proxy_unreachable' }],
          [
            'youtube',
            'YouTube: Публікацію не вдалося завершити після кількох спроб (fetch failed)',
            { kind: 'gave_up', answer: 'fetch failed' },
          ],
          ['youtube', 'YouTube: Публікацію не вдалося завершити після кількох спроб', { kind: 'gave_up' }],
          ['instagram', 'Instagram: Профіль видалено, публікація неможлива', { kind: 'profile_deleted' }],
          [
            'instagram',
            'Instagram: Instagram не налаштовано на сервері: задайте INSTAGRAM_APP_ID і INSTAGRAM_APP_SECRET',
            { kind: 'app_missing', variables: 'INSTAGRAM_APP_ID і INSTAGRAM_APP_SECRET' },
          ],
          ['tiktok', 'збій', { kind: 'unknown', text: 'збій' }],
          [
            'tiktok',
            'TikTok: Профіль Вечір не дозволяє рівень приватності «Лише я»',
            { kind: 'unknown', text: 'TikTok: Профіль Вечір не дозволяє рівень приватності «Лише я»' },
          ],
        ];
        // Waits whose retries or quota keep the failure they will end with.
        const waiting: [string, string, 'retry' | 'quota', PostFailure][] = [
          ['tiktok', 'TikTok: Платформа тимчасово недоступна (HTTP 503)', 'retry', { kind: 'unavailable', answer: 'HTTP 503' }],
          [
            'youtube',
            'YouTube: Вичерпано ліміт платформи, повторимо пізніше (quotaExceeded)',
            'quota',
            { kind: 'cap_refused', answer: 'quotaExceeded' },
          ],
        ];
        const ids: number[] = [];
        const post = async (position: number, platform: string, status: string, error: string, wait: string | null) => {
          const { rows: videos } = await db.sql(
            `INSERT INTO videos (request_id, user_id, position, status, error_tiktok) VALUES ($1, $2, $3, 'error', $4) RETURNING id`,
            [requests[0].id, users[0].id, position, platform === 'tiktok' ? error : null],
          );
          const { rows: posts } = await db.sql(
            `INSERT INTO video_posts (video_id, platform, status, scheduled_at, error, wait_kind, wait_detail)
             VALUES ($1, $2, $3, now(), $4, $5::text, CASE WHEN $5::text IS NULL THEN NULL ELSE jsonb_build_object('reason', $4::text) END)
             RETURNING id`,
            [videos[0].id, platform, status, error, wait],
          );
          ids.push(posts[0].id);
        };
        for (const [position, [platform, sentence]] of failed.entries()) await post(position, platform, 'error', sentence, null);
        for (const [position, [platform, sentence, wait]] of waiting.entries()) {
          await post(failed.length + position, platform, 'pending', sentence, wait);
        }

        expect(await migrate(db)).toContain('0043_post_failures.sql');

        const { rows } = await db.sql(
          `SELECT platform, failure, failure_detail, wait_detail FROM video_posts WHERE id = ANY($1::int[]) ORDER BY id`,
          [ids],
        );
        const kinds = rows.map((row) => storedFailure(row.failure, row.failure_detail));
        expect(kinds).toEqual([...failed.map(([, , failure]) => failure), ...waiting.map(([, , , failure]) => failure)]);
        expect(rows.slice(failed.length).map((row) => row.wait_detail)).toEqual(waiting.map(([, , , failure]) => ({ failure })));
        // Worded again from its kind, each reads as it did.
        expect(rows.map((row, index) => failureText(row.platform, kinds[index]!))).toEqual([
          ...failed.map(([, sentence]) => sentence),
          ...waiting.map(([, sentence]) => sentence),
        ]);
        const { rows: columns } = await db.sql(
          `SELECT table_name, column_name FROM information_schema.columns
            WHERE (table_name = 'video_posts' AND column_name IN ('error', 'failure', 'failure_detail'))
               OR (table_name = 'videos' AND column_name IN ('error', 'error_tiktok', 'error_instagram'))
            ORDER BY 1, 2`,
        );
        expect(columns).toEqual([
          { table_name: 'video_posts', column_name: 'failure' },
          { table_name: 'video_posts', column_name: 'failure_detail' },
        ]);
      } finally {
        await drop();
      }
    });
  });
}
