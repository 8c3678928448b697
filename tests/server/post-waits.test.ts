import { describe, expect, it, vi } from 'vitest';
import type { UploadDetail } from '../../src/lib/contract';
import * as t from '../../src/lib/i18n';
import { migrate } from '../../server/db/migrate';
import { publishPost } from '../../server/jobs/publish';
import { resumeWaitingPosts } from '../../server/services/publishing/post-lifecycle';
import { publishJobName } from '../../server/services/publishing/post-lifecycle';
import { createAccount } from './backoffice-fixtures';
import { createUser, databaseKinds, describeEachDatabase, freshDatabase, testJobContext } from './helpers';
import { renderedRequest } from './publishing-fixtures';

/**
 * Why a pending post waits is a kind with its figures (migration 0030, src/lib/post-waits.ts):
 * the words are made when the API answers, so rewording the catalog changes no decision.
 */

for (const kind of databaseKinds()) {
  describe(`Migrations 0030 and 0031 move stored sentences into kinds and per-platform failures [${kind}]`, () => {
    it(
      'reads each sentence the catalog wrote as its kind and figures, and keeps any other words as a retry',
      { timeout: 60_000 },
      async () => {
        const { db, drop } = await freshDatabase(kind, '0028_typed_connections.sql');
        try {
          const { rows: users } = await db.sql(`INSERT INTO users (login, password_hash) VALUES ('owner', 'x') RETURNING id`);
          const { rows: requests } = await db.sql(
            `INSERT INTO creation_requests (id_upload, user_id, count_video, source_key) VALUES (gen_random_uuid(), $1, 1, 'gone') RETURNING id`,
            [users[0].id],
          );
          // The catalog's sentences as they were worded when these rows were written.
          const stored: [string, string | null, string, unknown][] = [
            [
              'youtube',
              'Спроба не вдалася: YouTube: платформа тимчасово недоступна',
              'retry',
              { reason: 'YouTube: платформа тимчасово недоступна' },
            ],
            ['tiktok', 'Профіль зараз завантажує інше відео в TikTok', 'busy', {}],
            ['youtube', 'Платформа просить зачекати: YouTube: квоту вичерпано', 'quota', { reason: 'YouTube: квоту вичерпано' }],
            ['instagram', 'Доступ Instagram відкликано — підключіть профіль знову', 'reconnect', {}],
            ['tiktok', 'Ліміт TikTok вичерпано — так відповіла платформа', 'cap', { refused: true }],
            [
              'youtube',
              'Ліміт YouTube: 100 завантажень на день для проєкту Google вичерпано (доба за тихоокеанським часом)',
              'cap',
              { limit: 100, windowHours: null },
            ],
            ['instagram', 'Ліміт Instagram: 25 публікацій за 24 год вичерпано', 'cap', { limit: 25, windowHours: 24 }],
            ['tiktok', 'Проксі не відповів вчасно', 'retry', { reason: 'Проксі не відповів вчасно' }],
            ['youtube', null, '', null],
          ];
          const ids: number[] = [];
          for (const [position, [platform, waitReason]] of stored.entries()) {
            const { rows: videos } = await db.sql(
              `INSERT INTO videos (request_id, user_id, position, status) VALUES ($1, $2, $3, 'publication') RETURNING id`,
              [requests[0].id, users[0].id, position],
            );
            const { rows: posts } = await db.sql(
              `INSERT INTO video_posts (video_id, platform, status, scheduled_at, wait_reason) VALUES ($1, $2, 'pending', now(), $3) RETURNING id`,
              [videos[0].id, platform, waitReason],
            );
            ids.push(posts[0].id);
          }

          expect(await migrate(db, { through: '0030_wait_kinds.sql' })).toContain('0030_wait_kinds.sql');

          const { rows } = await db.sql(`SELECT id, wait_kind, wait_detail FROM video_posts WHERE id = ANY($1::int[]) ORDER BY id`, [ids]);
          expect(rows.map((row) => [row.wait_kind, row.wait_detail])).toEqual(
            stored.map(([, , waitKind, detail]) => [waitKind === '' ? null : waitKind, detail]),
          );
          const { rows: columns } = await db.sql(
            `SELECT column_name FROM information_schema.columns WHERE table_name = 'video_posts' AND column_name LIKE 'wait%' ORDER BY 1`,
          );
          expect(columns.map((column) => column.column_name)).toEqual(['wait_detail', 'wait_kind']);
        } finally {
          await drop();
        }
      },
    );

    it(
      'moves a profile’s one failure text onto the connection of the platform it names, or of every switched-on one',
      { timeout: 60_000 },
      async () => {
        const { db, drop } = await freshDatabase(kind, '0030_wait_kinds.sql');
        try {
          const { rows: users } = await db.sql(`INSERT INTO users (login, password_hash) VALUES ('owner', 'x') RETURNING id`);
          const profile = async (error: string | null, active: { youtube?: boolean; tiktok?: boolean; instagram?: boolean }) => {
            const { rows } = await db.sql(
              `INSERT INTO accounts (user_id, proxy, platform_error, is_active_youtube, is_active_tiktok, is_active_instagram)
             VALUES ($1, '127.0.0.1:8080', $2, $3, $4, $5) RETURNING id`,
              [users[0].id, error, active.youtube ?? false, active.tiktok ?? false, active.instagram ?? false],
            );
            return rows[0].id as number;
          };
          const connect = (accountId: number, platform: string, method: string, state = 'connected') =>
            db.sql(`INSERT INTO account_connections (account_id, platform, method, state) VALUES ($1, $2, $3, $4)`, [
              accountId,
              platform,
              method,
              state,
            ]);
          // TikTok's grant was revoked: the consent link is the connection in use, beside a pasted string.
          const revoked = await profile('TikTok: Доступ TikTok відкликано — підключіть профіль знову', { youtube: true, tiktok: true });
          await connect(revoked, 'tiktok', 'pasted');
          await connect(revoked, 'tiktok', 'oauth', 'revoked');
          await connect(revoked, 'youtube', 'oauth');
          // The proxy failed: a text naming no platform was about every platform switched on.
          const proxyDown = await profile('Проксі не відповідає', { youtube: true, instagram: true });
          await connect(proxyDown, 'youtube', 'oauth');
          await connect(proxyDown, 'instagram', 'login');
          await connect(proxyDown, 'tiktok', 'pasted');
          const working = await profile(null, { youtube: true });
          await connect(working, 'youtube', 'oauth');

          await migrate(db, { through: '0041_profile_health.sql' });

          const { rows } = await db.sql(
            `SELECT account_id, platform, method, failure_code, failure FROM account_connections WHERE failure IS NOT NULL ORDER BY account_id, platform`,
          );
          expect(rows).toEqual([
            {
              account_id: revoked,
              platform: 'tiktok',
              method: 'oauth',
              failure_code: 'revoked',
              failure: 'TikTok: Доступ TikTok відкликано — підключіть профіль знову',
            },
            { account_id: proxyDown, platform: 'instagram', method: 'login', failure_code: 'refused', failure: 'Проксі не відповідає' },
            { account_id: proxyDown, platform: 'youtube', method: 'oauth', failure_code: 'refused', failure: 'Проксі не відповідає' },
          ]);
          // Moving what was known tells nobody anew.
          expect((await db.sql(`SELECT 1 FROM notifications`)).rows).toEqual([]);
          const { rows: columns } = await db.sql(
            `SELECT column_name FROM information_schema.columns WHERE table_name = 'accounts' AND column_name = 'platform_error'`,
          );
          expect(columns).toEqual([]);
        } finally {
          await drop();
        }
      },
    );
  });
}

describeEachDatabase(
  'A post waiting for its profile to be connected again',
  (env) => {
    it('resumes on reconnect whatever the catalog now says, and is said in the catalog’s words of the moment', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, { comments: 'Відкликаний' });
      // Connected through Instagram's consent page, and the grant is gone: a publish meets it before any network call.
      await env().db.sql(`UPDATE accounts SET is_active_instagram = true WHERE id = $1`, [profile.id]);
      await env().db.sql(
        `INSERT INTO account_connections (account_id, platform, method, remote_id, state, error)
         VALUES ($1, 'instagram', 'oauth', '17841400000000000', 'revoked', 'Error validating access token')`,
        [profile.id],
      );
      const request = await renderedRequest(env(), owner.id, 1);
      await env().db.sql(`UPDATE creation_requests SET status = 'published', published_at = now() WHERE id = $1`, [request.id]);
      const { rows } = await env().db.sql(
        `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, job_token)
         VALUES ($1, 'instagram', $2, 'pending', now(), gen_random_uuid()) RETURNING id, job_token`,
        [request.videos[0]!.id, profile.id],
      );
      const post = { postId: rows[0].id as number, token: rows[0].job_token as string };
      const stateOf = async () =>
        (
          await env().db.sql(`SELECT status, job_token, wait_kind, wait_detail, next_attempt_at FROM video_posts WHERE id = $1`, [
            post.postId,
          ])
        ).rows[0];

      await publishPost(post, testJobContext(env()));
      expect(await stateOf()).toMatchObject({ status: 'pending', wait_kind: 'reconnect', wait_detail: {}, next_attempt_at: null });

      const reworded = vi.spyOn(t.connections, 'revoked').mockImplementation((platform) => `${platform}: доступ більше не діє`);
      try {
        const detail = await env().app.inject({ method: 'GET', url: `/api/upload-video/${request.idUpload}`, headers: owner.headers });
        expect(detail.statusCode, detail.body).toBe(200);
        expect(detail.json<UploadDetail>().video[0]).toMatchObject({
          waitKind: 'reconnect',
          waitReason: 'Instagram: доступ більше не діє',
        });

        expect(await resumeWaitingPosts(env().db, env().queue!, profile.id, 'instagram', new Date(env().app.clock.now()))).toBe(1);
      } finally {
        reworded.mockRestore();
      }
      const resumed = await stateOf();
      expect(resumed).toMatchObject({ status: 'pending', wait_kind: null, wait_detail: null });
      expect(resumed.job_token).not.toBe(post.token);
      const { rows: jobs } = await env().db.sql(`SELECT 1 FROM pgboss.job WHERE name = $1 AND data->>'token' = $2`, [
        publishJobName,
        resumed.job_token,
      ]);
      expect(jobs).toHaveLength(1);
    });
  },
  { queue: 'send' },
);
