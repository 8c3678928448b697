import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import type { NotificationList } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { markPublishFailed } from '../../server/jobs/publish';
import { markRenderFailed } from '../../server/jobs/render';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase } from './helpers';

describeEachDatabase('Notifications', (env) => {
  const list = async (user: TestUser) =>
    (await env().app.inject({ method: 'GET', url: '/api/notifications', headers: user.headers })).json<NotificationList>();
  const post = (user: TestUser, url: string) => env().app.inject({ method: 'POST', url, headers: user.headers });

  async function loadingRequest(user: TestUser) {
    const idUpload = crypto.randomUUID();
    const { rows } = await env().db.sql(
      `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key) VALUES ($1, $2, 'loading', 1, 'gone') RETURNING id`,
      [idUpload, user.id],
    );
    return { id: rows[0].id as number, idUpload };
  }

  /** A pending post of a published set through `accountId`, as a publish job finds it. */
  async function pendingPost(user: TestUser, accountId: number) {
    const request = await loadingRequest(user);
    await env().db.sql(`UPDATE creation_requests SET status = 'published', published_at = now() WHERE id = $1`, [request.id]);
    const { rows: video } = await env().db.sql(
      `INSERT INTO videos (request_id, user_id, account_id, position, status) VALUES ($1, $2, $3, 0, 'publication') RETURNING id`,
      [request.id, user.id, accountId],
    );
    const token = crypto.randomUUID();
    const { rows } = await env().db.sql(
      `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, job_token, error)
       VALUES ($1, 'tiktok', $2, 'pending', now(), $3, 'TikTok: недоступна') RETURNING id`,
      [video[0].id, accountId, token],
    );
    return { idUpload: request.idUpload, postId: rows[0].id as number, token };
  }

  it("lists finished renders, failed publishes and failed credentials of the user's own requests and profiles, newest first", async () => {
    const owner = await createUser(env(), 'owner');
    const other = await createUser(env(), 'other');
    const admin = await createUser(env(), 'root', { role: 'admin' });
    const account = await createAccount(env(), owner, { comments: 'Основний' });

    const rendered = await loadingRequest(owner);
    await env().db.sql(`UPDATE creation_requests SET status = 'success' WHERE id = $1`, [rendered.id]);
    const broken = await loadingRequest(owner);
    await markRenderFailed({ requestId: broken.id }, { db: env().db });
    const failing = await pendingPost(owner, account.id);
    await markPublishFailed({ postId: failing.postId, token: failing.token }, { db: env().db });
    await env().db.sql(`INSERT INTO account_connections (account_id, platform, method) VALUES ($1, 'youtube', 'oauth')`, [account.id]);
    const youtubeFails = `UPDATE account_connections SET failure_code = 'refused', failure = 'YouTube: доступ відкликано', updated_at = now()
                           WHERE account_id = $1 AND platform = 'youtube'`;
    await env().db.sql(youtubeFails, [account.id]);
    // Nothing new to say: the same reason again, a request that was already rendered, a post already failed.
    await env().db.sql(youtubeFails, [account.id]);
    await env().db.sql(`UPDATE creation_requests SET status = 'success' WHERE id = $1`, [rendered.id]);
    await markPublishFailed({ postId: failing.postId, token: failing.token }, { db: env().db });

    const mine = await list(owner);
    expect(mine.unread).toBe(4);
    expect(mine.items.map(({ id: _id, createdAt: _at, ...item }) => item)).toEqual([
      {
        kind: 'credentials_failed',
        idUpload: null,
        account: { id: account.id, name: `#${account.id} Основний` },
        title: null,
        platform: 'youtube',
        message: 'YouTube: доступ відкликано',
        read: false,
      },
      {
        kind: 'publish_failed',
        idUpload: failing.idUpload,
        account: { id: account.id, name: `#${account.id} Основний` },
        title: t.postTruth.untitledSet,
        platform: 'tiktok',
        message: 'TikTok: недоступна',
        read: false,
      },
      {
        kind: 'render_failed',
        idUpload: broken.idUpload,
        account: null,
        title: t.postTruth.untitledSet,
        platform: null,
        message: t.media.renderInterrupted,
        read: false,
      },
      {
        kind: 'render_done',
        idUpload: rendered.idUpload,
        account: null,
        title: t.postTruth.untitledSet,
        platform: null,
        message: null,
        read: false,
      },
    ]);
    expect(await list(other)).toEqual({ items: [], unread: 0 });
    // The bell is personal: an admin's lists the admin's own requests and profiles.
    expect(await list(admin)).toEqual({ items: [], unread: 0 });
    expect((await env().app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
  });

  it('names a profile without a comment by the account the failing platform answered as', async () => {
    const owner = await createUser(env(), 'owner');
    const account = await createAccount(env(), owner, {});
    await env().db.sql(
      `INSERT INTO account_connections (account_id, platform, method, checked_name) VALUES ($1, 'youtube', 'oauth', 'Канал'), ($1, 'tiktok', 'pasted', 'olena (@olena)')`,
      [account.id],
    );
    await env().db.sql(
      `UPDATE account_connections SET failure_code = 'refused', failure = 'TikTok: доступ відкликано' WHERE account_id = $1 AND platform = 'tiktok'`,
      [account.id],
    );
    const [notice] = (await list(owner)).items;
    expect(notice).toMatchObject({ kind: 'credentials_failed', platform: 'tiktok', account: { name: `#${account.id} olena (@olena)` } });
  });

  it('marks one notification read, then all, and never another user’s', async () => {
    const owner = await createUser(env(), 'owner');
    const other = await createUser(env(), 'other');
    for (let index = 0; index < 3; index++) {
      const request = await loadingRequest(owner);
      await env().db.sql(`UPDATE creation_requests SET status = 'success' WHERE id = $1`, [request.id]);
    }
    const [newest, , oldest] = (await list(owner)).items;

    expect((await post(other, `/api/notifications/${newest!.id}/read`)).statusCode).toBe(204);
    await post(other, '/api/notifications/read');
    expect((await list(owner)).unread).toBe(3);

    expect((await post(owner, `/api/notifications/${oldest!.id}/read`)).statusCode).toBe(204);
    const afterOne = await list(owner);
    expect(afterOne.unread).toBe(2);
    expect(afterOne.items.map((item) => item.read)).toEqual([false, false, true]);

    expect((await post(owner, '/api/notifications/read')).statusCode).toBe(204);
    expect((await list(owner)).unread).toBe(0);
    expect((await post(owner, '/api/notifications/abc/read')).statusCode).toBe(404);
  });

  it('keeps the newest 50 of a user, whatever the other users have', async () => {
    const owner = await createUser(env(), 'owner');
    const other = await createUser(env(), 'other');
    const otherRequest = await loadingRequest(other);
    await env().db.sql(`UPDATE creation_requests SET status = 'success' WHERE id = $1`, [otherRequest.id]);
    for (let index = 0; index < 53; index++) await loadingRequest(owner);
    await env().db.sql(`UPDATE creation_requests SET status = 'success' WHERE user_id = $1`, [owner.id]);

    const mine = await list(owner);
    expect(mine.items).toHaveLength(50);
    expect(mine.unread).toBe(50);
    expect((await list(other)).items).toHaveLength(1);
  });
});
