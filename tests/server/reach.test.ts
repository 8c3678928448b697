import crypto from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { engineSettings } from '../../server/config';
import type { AccountSummary, Paged, UploadDetail } from '../../src/lib/contract';
import { syncProfileStats } from '../../server/jobs/sync-stats';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import { judgeReach } from '../../server/services/statistics/reach';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, testJobContext, withSandboxServer } from './helpers';

const clock = { now: Date.now() };
const sandbox = new SandboxState({ now: () => clock.now });
const hour = 3600_000;

/** A post to seed: when it went live (hours before now) and how long ago the sandbox has had it, which makes its views. */
interface SeededPost {
  liveHoursAgo: number;
  sandboxAgeSeconds: number;
}

describeEachDatabase(
  'Reach shown, not guessed',
  (env) => {
    const network = withSandboxServer(env);
    beforeEach(() => {
      sandbox.videos.splice(0);
    });

    async function tiktokProfile(owner: TestUser) {
      const label = `reach-${crypto.randomUUID().slice(0, 8)}-${env().kind}`;
      const account = await createAccount(env(), owner, {
        proxy: network().proxy.url,
        isActiveTikTok: true,
        TikTiokAuthStr: issueSandboxToken('tiktok', label),
      });
      return { account, sandboxAccount: Buffer.from(label).toString('base64url') };
    }

    /** One published set holding `posts`, newest first as given; returns its idUpload and the posts' ids in that order. */
    async function seed(owner: TestUser, accountId: number, sandboxAccount: string, posts: SeededPost[]) {
      const { rows } = await env().db.sql(
        `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, published_at)
         VALUES (gen_random_uuid(), $1, 'published', $2, 'gone', now()) RETURNING id, id_upload`,
        [owner.id, posts.length],
      );
      const ids: number[] = [];
      for (const [position, post] of posts.entries()) {
        const remoteId = `r${crypto.randomUUID().replaceAll('-', '')}`;
        const liveAt = new Date(Date.now() - post.liveHoursAgo * hour);
        const { rows: inserted } = await env().db.sql(
          `WITH v AS (INSERT INTO videos (request_id, user_id, account_id, position, status) VALUES ($1, $2, $3, $4, 'success') RETURNING id)
           INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, published_at, remote_id)
           SELECT id, 'tiktok', $3, 'done', $5, $5, $6 FROM v RETURNING id`,
          [rows[0].id, owner.id, accountId, position, liveAt, remoteId],
        );
        ids.push(inserted[0].id);
        sandbox.videos.push({
          platform: 'tiktok',
          id: remoteId,
          account: sandboxAccount,
          title: '',
          description: '',
          tags: [],
          bytes: 0,
          sha256: '',
          createdAt: clock.now - post.sandboxAgeSeconds * 1000,
          url: '',
        });
      }
      return { idUpload: rows[0].id_upload as string, ids };
    }

    async function sync(accountId: number) {
      await env().db.sql(`UPDATE video_posts SET stats_due_at = NULL WHERE account_id = $1`, [accountId]);
      const result = await syncProfileStats({ accountId, platform: 'tiktok' }, testJobContext(env()));
      expect(result.failed).toBe(0);
    }

    async function summaryOf(owner: TestUser, accountId: number) {
      const response = await env().app.inject({ method: 'GET', url: '/api/accounts?page=1', headers: owner.headers });
      return response.json<Paged<AccountSummary>>().data.find((row) => row.id === accountId)!;
    }

    async function setPage(owner: TestUser, idUpload: string) {
      const response = await env().app.inject({ method: 'GET', url: `/api/upload-video/${idUpload}`, headers: owner.headers });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<UploadDetail>();
    }

    /** Five settled posts that drew almost nothing, then `history` settled posts three days in the sandbox. */
    const dropAfter = (history: number): SeededPost[] => [
      ...Array.from({ length: 5 }, (_, index) => ({ liveHoursAgo: 50 + index, sandboxAgeSeconds: 10 })),
      ...Array.from({ length: history }, (_, index) => ({ liveHoursAgo: 60 + index, sandboxAgeSeconds: 3 * 86_400 })),
    ];

    it("marks a profile whose last 5 posts each drew under 10 % of the median of the 30 before 'Можливе обмеження показів', with the figures", async () => {
      const owner = await createUser(env(), 'owner');
      const { account, sandboxAccount } = await tiktokProfile(owner);
      const { idUpload, ids } = await seed(owner, account.id, sandboxAccount, dropAfter(30));
      await sync(account.id);

      const { rows } = await env().db.sql(`SELECT id, views FROM video_posts WHERE account_id = $1`, [account.id]);
      const views = new Map(rows.map((row) => [row.id as number, row.views as number]));
      const history = ids
        .slice(5)
        .map((id) => views.get(id)!)
        .sort((a, b) => a - b);
      const median = Math.round((history[14]! + history[15]!) / 2);
      const recent = ids.slice(0, 5).map((id) => views.get(id)!);
      expect(recent.every((value) => value < median / 10)).toBe(true);

      expect((await summaryOf(owner, account.id)).reach).toEqual([
        { platform: 'tiktok', views: recent, medianViews: median, historyPosts: 30, markedAt: expect.any(String) },
      ]);
      const page = await setPage(owner, idUpload);
      expect(page.video.slice(0, 6).map((video) => video.reach)).toEqual([
        ...recent.map((value) => [{ platform: 'tiktok', mark: 'limited', views: value, medianViews: median, hoursLive: null }]),
        [],
      ]);
    });

    it('marks nothing without enough history, nor when one of the last posts drew as usual, and lifts a mark that no longer holds', async () => {
      const owner = await createUser(env(), 'owner');
      const young = await tiktokProfile(owner);
      await seed(owner, young.account.id, young.sandboxAccount, dropAfter(29));
      await sync(young.account.id);
      expect((await summaryOf(owner, young.account.id)).reach).toEqual([]);

      const steady = await tiktokProfile(owner);
      const posts = dropAfter(30);
      posts[2] = { liveHoursAgo: 52, sandboxAgeSeconds: 3 * 86_400 };
      await seed(owner, steady.account.id, steady.sandboxAccount, posts);
      await sync(steady.account.id);
      expect((await summaryOf(owner, steady.account.id)).reach).toEqual([]);

      const dropped = await tiktokProfile(owner);
      await seed(owner, dropped.account.id, dropped.sandboxAccount, dropAfter(30));
      await sync(dropped.account.id);
      expect((await summaryOf(owner, dropped.account.id)).reach).toHaveLength(1);
      // The next post settles and draws as the earlier ones did: the last five no longer all fall short.
      await seed(owner, dropped.account.id, dropped.sandboxAccount, [{ liveHoursAgo: 49, sandboxAgeSeconds: 3 * 86_400 }]);
      await sync(dropped.account.id);
      expect((await summaryOf(owner, dropped.account.id)).reach).toEqual([]);
    });

    it('judges only settled posts: five that went live within 48 hours are not held against the others', async () => {
      const owner = await createUser(env(), 'owner');
      const { account, sandboxAccount } = await tiktokProfile(owner);
      const posts = dropAfter(30).map((post, index) => (index < 5 ? { ...post, liveHoursAgo: 40 + index } : post));
      await seed(owner, account.id, sandboxAccount, posts);
      await sync(account.id);
      expect((await summaryOf(owner, account.id)).reach).toEqual([]);
      const settings = { ...testJobContext(env()).engine.reach, settledHours: 24 };
      expect(await judgeReach(env().db, account.id, 'tiktok', settings, Date.now())).toBe(true);
    });

    it('marks a post with no views 48 hours after it went live, not one younger, and lifts the mark once it has views', async () => {
      const owner = await createUser(env(), 'owner');
      const { account, sandboxAccount } = await tiktokProfile(owner);
      const { idUpload } = await seed(owner, account.id, sandboxAccount, [
        { liveHoursAgo: 49.5, sandboxAgeSeconds: 0 },
        { liveHoursAgo: 47, sandboxAgeSeconds: 0 },
        { liveHoursAgo: 49.5, sandboxAgeSeconds: 600 },
      ]);
      await sync(account.id);
      const page = await setPage(owner, idUpload);
      expect(page.video.map((video) => video.reach)).toEqual([
        [{ platform: 'tiktok', mark: 'unseen', views: 0, medianViews: null, hoursLive: 49 }],
        [],
        [],
      ]);

      for (const video of sandbox.videos) video.createdAt -= 3600_000;
      await sync(account.id);
      expect((await setPage(owner, idUpload)).video.map((video) => video.reach)).toEqual([[], [], []]);
    });
  },
  { sandbox, queue: 'send' },
);

describe('reach settings', () => {
  it('reads REACH_* from the environment, with the issue’s defaults, and refuses a ratio that is no share', () => {
    expect(engineSettings().reach).toEqual({ recentPosts: 5, historyPosts: 30, ratio: 0.1, settledHours: 48 });
    expect(
      engineSettings({ REACH_RECENT_POSTS: '3', REACH_HISTORY_POSTS: '20', REACH_RATIO: '0.2', REACH_SETTLED_HOURS: '24' }).reach,
    ).toEqual({
      recentPosts: 3,
      historyPosts: 20,
      ratio: 0.2,
      settledHours: 24,
    });
    expect(() => engineSettings({ REACH_RATIO: '1.5' })).toThrow('REACH_RATIO must be a share between 0 and 1, such as 0.1, got "1.5"');
  });
});
