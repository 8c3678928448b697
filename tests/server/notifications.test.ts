import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import type { NotificationList } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { markPublishFailed } from '../../server/jobs/publish';
import { markRenderFailed } from '../../server/jobs/render';
import { recordAccessFailure, recordConnection } from '../../server/platforms/connections';
import { awaitReconnect, claimPost, completePost, failPost, holdPost } from '../../server/services/publishing/post-lifecycle';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, testJobContext } from './helpers';

describeEachDatabase(
  'Notifications',
  (env) => {
    const list = async (user: TestUser) =>
      (await env().app.inject({ method: 'GET', url: '/api/notifications', headers: user.headers })).json<NotificationList>();
    const post = (user: TestUser, url: string) => env().app.inject({ method: 'POST', url, headers: user.headers });

    async function loadingRequest(user: TestUser, sourceName: string | null = null) {
      const idUpload = crypto.randomUUID();
      const { rows } = await env().db.sql(
        `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, source_name)
         VALUES ($1, $2, 'loading', 1, 'gone', $3) RETURNING id`,
        [idUpload, user.id, sourceName],
      );
      return { id: rows[0].id as number, idUpload };
    }

    /** A published set of `count` videos through `accountId`, each with a pending TikTok post as a publish job finds it. */
    async function publishedSet(user: TestUser, accountId: number, count = 1, title = '') {
      const request = await loadingRequest(user);
      await env().db.sql(`UPDATE creation_requests SET status = 'published', published_at = now(), title = $2 WHERE id = $1`, [
        request.id,
        title,
      ]);
      const posts = [];
      for (let position = 0; position < count; position++) {
        const { rows: video } = await env().db.sql(
          `INSERT INTO videos (request_id, user_id, account_id, position, status) VALUES ($1, $2, $3, $4, 'publication') RETURNING id`,
          [request.id, user.id, accountId, position],
        );
        const token = crypto.randomUUID();
        const { rows } = await env().db.sql(
          `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, job_token, failure, failure_detail)
         VALUES ($1, 'tiktok', $2, 'pending', now(), $3, 'unavailable', '{}') RETURNING id`,
          [video[0].id, accountId, token],
        );
        posts.push({ id: rows[0].id as number, videoId: video[0].id as number, platform: 'tiktok' as const, token });
      }
      return { idUpload: request.idUpload, posts };
    }

    it("lists finished renders, sets' posts and failed credentials of the user's own requests and profiles, newest first", async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const admin = await createUser(env(), 'root', { role: 'admin' });
      const account = await createAccount(env(), owner, { comments: 'Основний' });

      const rendered = await loadingRequest(owner, 'ranok.mp4');
      await env().db.sql(`UPDATE creation_requests SET status = 'success' WHERE id = $1`, [rendered.id]);
      const broken = await loadingRequest(owner);
      await markRenderFailed({ requestId: broken.id }, { db: env().db, clock: env().platforms.clock });
      const failing = await publishedSet(owner, account.id);
      await markPublishFailed({ postId: failing.posts[0]!.id, token: failing.posts[0]!.token }, testJobContext(env()));
      await env().db.sql(`INSERT INTO account_connections (account_id, platform, method) VALUES ($1, 'youtube', 'oauth')`, [account.id]);
      const youtubeFails = () =>
        recordConnection(env().db.sql, {
          accountId: account.id,
          platform: 'youtube',
          state: 'down',
          kind: 'refused',
          source: 'publish',
          at: new Date(),
        });
      await youtubeFails();
      // Nothing new to say: the same reason again, a request that was already rendered, a post already failed.
      await youtubeFails();
      await env().db.sql(`UPDATE creation_requests SET status = 'success' WHERE id = $1`, [rendered.id]);
      await markPublishFailed({ postId: failing.posts[0]!.id, token: failing.posts[0]!.token }, testJobContext(env()));

      const mine = await list(owner);
      expect(mine.unread).toBe(4);
      expect(mine.items.map(({ id: _id, createdAt: _at, ...item }) => item)).toEqual([
        {
          kind: 'credentials_failed',
          idUpload: null,
          account: { id: account.id, name: `#${account.id} Основний` },
          title: null,
          platform: 'youtube',
          message: null,
          posts: null,
          failure: 'refused',
          read: false,
        },
        {
          kind: 'set_posts',
          idUpload: failing.idUpload,
          account: null,
          title: '',
          platform: null,
          message: null,
          posts: { published: 0, failed: 1, held: 0 },
          failure: null,
          read: false,
        },
        {
          kind: 'render_failed',
          idUpload: broken.idUpload,
          account: null,
          title: '',
          platform: null,
          message: t.media.renderInterrupted,
          posts: null,
          failure: null,
          read: false,
        },
        {
          kind: 'render_done',
          idUpload: rendered.idUpload,
          account: null,
          // Named by its source file while the request has no title (issue 40.7).
          title: 'ranok.mp4',
          platform: null,
          message: null,
          posts: null,
          failure: null,
          read: false,
        },
      ]);
      expect(await list(other)).toEqual({ items: [], unread: 0 });
      // The bell is personal: an admin's lists the admin's own requests and profiles.
      expect(await list(admin)).toEqual({ items: [], unread: 0 });
      expect((await env().app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
    });

    it("tells each set's published, failed and held posts in one entry, and a revoked grant, to the owner alone", async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const admin = await createUser(env(), 'root', { role: 'admin' });
      const account = await createAccount(env(), owner, { comments: 'Основний' });
      await env().db.sql(`INSERT INTO account_connections (account_id, platform, method) VALUES ($1, 'tiktok', 'oauth')`, [account.id]);
      const morning = await publishedSet(owner, account.id, 3, 'Ранкова пробіжка');
      const evening = await publishedSet(owner, account.id, 2, 'Вечір');
      const [first, second, third] = morning.posts;
      const [capped, waiting] = evening.posts;
      const out = (post: typeof first) =>
        completePost(
          env().db,
          post!,
          post!.token,
          account.id,
          { remoteId: `remote-${post!.id}`, url: `https://www.tiktok.com/@o/video/${post!.id}` },
          { recordWhileStopping: false, at: new Date() },
        );
      const cap = { detail: { limit: 15, windowHours: 24 }, until: new Date(Date.now() + 3_600_000) };

      expect(await out(first)).toBe('done');
      expect(await out(second)).toBe('done');
      await failPost(env().db, third!, third!.token, { kind: 'rejected', answer: 'відео відхилено' }, new Date());
      await holdPost(env().db, env().queue!, { postId: capped!.id, token: capped!.token }, cap, new Date());
      expect((await list(owner)).items[0]).toMatchObject({ idUpload: evening.idUpload, posts: { published: 0, failed: 0, held: 1 } });
      await env().db.transaction(async (run) => {
        await run(`UPDATE account_connections SET state = 'revoked' WHERE account_id = $1 AND platform = 'tiktok'`, [account.id]);
        await recordAccessFailure(run, { accountId: account.id, platform: 'tiktok', source: 'publish', at: new Date() });
      });
      expect(await awaitReconnect(env().db, waiting!, waiting!.token, new Date())).toBe(true);
      const before = await list(owner);
      // Held once more when its window came: the counts are the same, so nothing new is told.
      const [{ job_token: heldToken }] = (await env().db.sql(`SELECT job_token FROM video_posts WHERE id = $1`, [capped!.id])).rows;
      await claimPost(env().db, { postId: capped!.id, token: heldToken }, new Date());
      await holdPost(env().db, env().queue!, { postId: capped!.id, token: heldToken }, cap, new Date());

      const mine = await list(owner);
      expect(mine).toEqual(before);
      expect(mine.unread).toBe(3);
      expect(
        mine.items.map(({ kind, idUpload, title, posts, account: about, platform, failure }) => ({
          kind,
          idUpload,
          title,
          posts,
          about,
          platform,
          failure,
        })),
      ).toEqual([
        {
          kind: 'set_posts',
          idUpload: evening.idUpload,
          title: 'Вечір',
          posts: { published: 0, failed: 0, held: 2 },
          about: null,
          platform: null,
          failure: null,
        },
        {
          kind: 'credentials_failed',
          idUpload: null,
          title: null,
          posts: null,
          about: { id: account.id, name: `#${account.id} Основний` },
          platform: 'tiktok',
          failure: 'revoked',
        },
        {
          kind: 'set_posts',
          idUpload: morning.idUpload,
          title: 'Ранкова пробіжка',
          posts: { published: 2, failed: 1, held: 0 },
          about: null,
          platform: null,
          failure: null,
        },
      ]);
      expect(await list(other)).toEqual({ items: [], unread: 0 });
      // The bell is personal: an admin's tells the admin's own sets and profiles, which the lists show everyone's.
      expect(await list(admin)).toEqual({ items: [], unread: 0 });
    });

    it("replaces a read set's entry with an unread one on top when its counts change", async () => {
      const owner = await createUser(env(), 'owner');
      const account = await createAccount(env(), owner, {});
      const set = await publishedSet(owner, account.id, 2);
      const [first, second] = set.posts;
      await failPost(env().db, first!, first!.token, { kind: 'rejected', answer: 'відео відхилено' }, new Date());
      const rendered = await loadingRequest(owner);
      await env().db.sql(`UPDATE creation_requests SET status = 'success' WHERE id = $1`, [rendered.id]);
      expect((await post(owner, '/api/notifications/read')).statusCode).toBe(204);

      await completePost(
        env().db,
        second!,
        second!.token,
        account.id,
        { remoteId: 'r', url: 'https://www.tiktok.com/@o/video/1' },
        { recordWhileStopping: false, at: new Date() },
      );
      const { items, unread } = await list(owner);
      expect(unread).toBe(1);
      expect(items.map(({ kind, posts, read }) => ({ kind, posts, read }))).toEqual([
        { kind: 'set_posts', posts: { published: 1, failed: 1, held: 0 }, read: false },
        { kind: 'render_done', posts: null, read: true },
      ]);
    });

    it('names a profile without a comment by the account the failing platform answered as', async () => {
      const owner = await createUser(env(), 'owner');
      const account = await createAccount(env(), owner, {});
      await env().db.sql(
        `INSERT INTO account_connections (account_id, platform, method, checked_name) VALUES ($1, 'youtube', 'oauth', 'Канал'), ($1, 'tiktok', 'pasted', 'olena (@olena)')`,
        [account.id],
      );
      await recordConnection(env().db.sql, {
        accountId: account.id,
        platform: 'tiktok',
        state: 'down',
        kind: 'refused',
        source: 'publish',
        at: new Date(),
      });
      const [notice] = (await list(owner)).items;
      expect(notice).toMatchObject({ kind: 'credentials_failed', platform: 'tiktok', account: { name: `#${account.id} olena (@olena)` } });
    });

    it('marks one notification read, then all, and answers another user’s as not found', async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      for (let index = 0; index < 3; index++) {
        const request = await loadingRequest(owner);
        await env().db.sql(`UPDATE creation_requests SET status = 'success' WHERE id = $1`, [request.id]);
      }
      const [newest, , oldest] = (await list(owner)).items;

      // Another user's notification is not found, as another user's profile is.
      const others = await post(other, `/api/notifications/${newest!.id}/read`);
      expect(others.statusCode).toBe(404);
      expect(others.json().message).toBe(t.server.notFound);
      await post(other, '/api/notifications/read');
      expect((await list(owner)).unread).toBe(3);

      expect((await post(owner, `/api/notifications/${oldest!.id}/read`)).statusCode).toBe(204);
      const afterOne = await list(owner);
      expect(afterOne.unread).toBe(2);
      expect(afterOne.items.map((item) => item.read)).toEqual([false, false, true]);

      // Marking a read one again is no error: the bell may send it twice.
      expect((await post(owner, `/api/notifications/${oldest!.id}/read`)).statusCode).toBe(204);
      expect((await post(owner, '/api/notifications/read')).statusCode).toBe(204);
      expect((await list(owner)).unread).toBe(0);
      expect((await post(owner, '/api/notifications/abc/read')).statusCode).toBe(404);
      expect((await post(owner, '/api/notifications/2147483647/read')).statusCode).toBe(404);
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
  },
  { queue: 'send' },
);
