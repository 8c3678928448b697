import crypto from 'node:crypto';
import { expect, it, vi } from 'vitest';
import type { AccountDetail, NotificationList, StatsReport, UploadDetail } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { syncEverything } from './stats-sync-fixtures';
import { SandboxState } from '../../server/sandbox/index';
import { connectedProfile, createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, newSession, testJobContext, withSandboxServer } from './helpers';
import { ManualClock } from './manual-clock';
import { publishPayload, renderedRequest } from './publishing-fixtures';

const clock = new ManualClock();
const sandbox = new SandboxState({ now: clock.now });
const hour = 3600_000;

describeEachDatabase(
  'Statistics history through the stats sync',
  (env) => {
    const network = withSandboxServer(env);

    /** A profile on YouTube and TikTok behind the loopback proxy, with one video published on both. */
    async function publishedOnBoth(owner: TestUser, name: string) {
      const account = await connectedProfile(env(), network(), owner, name, { platforms: ['youtube', 'tiktok'] });
      const request = await renderedRequest(env(), owner.id, 1);
      const published = await env().app.inject({
        method: 'POST',
        url: `/api/upload-video/${request.idUpload}`,
        headers: owner.headers,
        payload: publishPayload(request, [account.id], { inYouTube: true, inTikTok: true, inInstagram: false }),
      });
      expect(published.statusCode, published.body).toBe(200);
      await clock.flowing(() =>
        vi.waitFor(
          async () => {
            const detail = (
              await env().app.inject({ method: 'GET', url: `/api/upload-video/${request.idUpload}`, headers: owner.headers })
            ).json<UploadDetail>();
            expect(detail.video[0]!.status).toBe('success');
          },
          { timeout: 30_000, interval: 250 },
        ),
      );
      return { account, request };
    }

    const points = async () =>
      (
        await env().db.sql(
          `SELECT p.platform, s.views, s.likes, s.comments FROM stats_points AS s JOIN video_posts AS p ON p.id = s.post_id
            ORDER BY s.at, p.platform`,
          [],
        )
      ).rows;

    it('stores a point per post and hour from the syncs that read new figures, and none when nothing changed', async () => {
      const owner = await createUser(env(), 'owner');
      const { account, request } = await publishedOnBoth(owner, 'history');
      const { rows: remote } = await env().db.sql('SELECT platform, remote_id FROM video_posts', []);
      const figuresOf = (platform: string) => {
        const remoteId = remote.find((post) => post.platform === platform)!.remote_id;
        return sandbox.statsOf(sandbox.videos.find((video) => video.platform === platform && video.id === remoteId)!);
      };

      // A minute into the clock hour after next: an hour's views at least, and the next syncs in the same hour.
      await clock.leap((Math.floor(clock.now() / hour) + 2) * hour + 60_000 - clock.now());
      expect(await syncEverything(testJobContext(env()))).toEqual({ updated: 2, failed: 0 });
      const first = await points();
      expect(first).toEqual([
        { platform: 'tiktok', ...figuresOf('tiktok') },
        { platform: 'youtube', ...figuresOf('youtube') },
      ]);
      expect(first.every((point) => point.views > 0)).toBe(true);

      // The platforms' clock stood still: the same figures, no new rows.
      await syncEverything(testJobContext(env()));
      expect(await points()).toHaveLength(2);

      // New figures within the same clock hour replace that hour's point.
      await clock.leap(30 * 60_000);
      await syncEverything(testJobContext(env()));
      expect(await points()).toEqual([
        { platform: 'tiktok', ...figuresOf('tiktok') },
        { platform: 'youtube', ...figuresOf('youtube') },
      ]);

      // An hour later they add a point.
      const before = await points();
      await clock.leap(hour);
      await syncEverything(testJobContext(env()));
      const third = await points();
      expect(third).toHaveLength(4);
      expect(third.slice(0, 2)).toEqual(before);
      expect(third.slice(2)).toEqual([
        { platform: 'tiktok', ...figuresOf('tiktok') },
        { platform: 'youtube', ...figuresOf('youtube') },
      ]);

      const { rows: latest } = await env().db.sql('SELECT platform, views FROM video_posts ORDER BY platform', []);
      expect(latest).toEqual([
        { platform: 'tiktok', views: figuresOf('tiktok').views },
        { platform: 'youtube', views: figuresOf('youtube').views },
      ]);

      // The owner's session of two hours ago has ended: a new one reads the report.
      const { headers } = await newSession(env(), owner.id);
      const report = (
        await env().app.inject({ method: 'GET', url: `/api/stats/video/${request.idUpload}?days=1`, headers })
      ).json<StatsReport>();
      expect(report.byPlatform.map(({ platform, views, posts }) => ({ platform, views, posts }))).toEqual([
        { platform: 'youtube', views: figuresOf('youtube').views, posts: 1 },
        { platform: 'tiktok', views: figuresOf('tiktok').views, posts: 1 },
      ]);
      expect(report.byProfile).toEqual([
        {
          account: { id: account.id, title: `#${account.id} history-${env().kind}` },
          posts: 2,
          views: figuresOf('youtube').views + figuresOf('tiktok').views,
          likes: figuresOf('youtube').likes + figuresOf('tiktok').likes,
          comments: figuresOf('youtube').comments + figuresOf('tiktok').comments,
        },
      ]);
      expect(report.views.map((series) => [series.platform, series.values.at(-1)])).toEqual([
        ['youtube', figuresOf('youtube').views],
        ['tiktok', figuresOf('tiktok').views],
      ]);
    });

    it('marks a profile whose grant was revoked during a sync, notifies its owner only, and clears it once figures come again', async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const { account } = await publishedOnBoth(owner, 'revoked');
      // TikTok refuses the profile's token on the next two syncs, then takes it again.
      sandbox.faults.push({ platform: 'tiktok', step: 'stats', kind: 'unauthorized', times: 2 });

      await clock.leap(600_000);
      expect(await syncEverything(testJobContext(env()))).toEqual({ updated: 1, failed: 1 });
      const marked = (
        await env().app.inject({ method: 'GET', url: `/api/accounts/${account.id}`, headers: owner.headers })
      ).json<AccountDetail>();
      expect(marked).toMatchObject({ status: 'error' });
      expect(marked.error).toMatch(
        new RegExp(`^${t.health.platformState('TikTok', t.health.stateWithReason(t.health.states.down, t.health.kinds.refused))} \\(`),
      );

      const list = (await env().app.inject({ method: 'GET', url: '/api/notifications', headers: owner.headers })).json<NotificationList>();
      expect(list.items.filter((item) => item.kind === 'credentials_failed')).toEqual([
        expect.objectContaining({
          account: { id: account.id, name: `#${account.id} revoked-${env().kind}` },
          platform: 'tiktok',
          failure: 'refused',
          read: false,
        }),
      ]);
      const othersList = (
        await env().app.inject({ method: 'GET', url: '/api/notifications', headers: other.headers })
      ).json<NotificationList>();
      expect(othersList).toEqual({ items: [], unread: 0 });

      // A second failing sync repeats the same reason: no second notification.
      await syncEverything(testJobContext(env()));
      const again = (await env().app.inject({ method: 'GET', url: '/api/notifications', headers: owner.headers })).json<NotificationList>();
      expect(again.items.filter((item) => item.kind === 'credentials_failed')).toHaveLength(1);

      await syncEverything(testJobContext(env()));
      const healed = (
        await env().app.inject({ method: 'GET', url: `/api/accounts/${account.id}`, headers: owner.headers })
      ).json<AccountDetail>();
      expect(healed).toMatchObject({ status: 'success', error: null });
    });
  },
  { queue: 'work', sandbox, clock },
);

describeEachDatabase('Statistics series and totals routes', (env) => {
  /** A published set of `userId` with one done post per platform through `accountId`, and its points. */
  async function publishedSet(userId: number, accountId: number, history: Record<string, [Date, number][]>) {
    const idUpload = crypto.randomUUID();
    const { rows } = await env().db.sql(
      `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, published_at)
       VALUES ($1, $2, 'published', 1, 'gone', now()) RETURNING id`,
      [idUpload, userId],
    );
    const { rows: video } = await env().db.sql(
      `INSERT INTO videos (request_id, user_id, account_id, position, status) VALUES ($1, $2, $3, 0, 'success') RETURNING id`,
      [rows[0].id, userId, accountId],
    );
    for (const [platform, points] of Object.entries(history)) {
      const last = points.at(-1)?.[1] ?? null;
      const { rows: post } = await env().db.sql(
        `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, remote_id, views, likes, comments, stats_synced_at)
         VALUES ($1, $2, $3, 'done', now(), 'remote', $4, $5, $6, $7) RETURNING id`,
        [
          video[0].id,
          platform,
          accountId,
          last,
          last === null ? null : Math.floor(last / 10),
          last === null ? null : 1,
          points.at(-1)?.[0] ?? null,
        ],
      );
      for (const [at, views] of points) {
        await env().db.sql('INSERT INTO stats_points (post_id, at, views, likes, comments) VALUES ($1, $2, $3, $4, 1)', [
          post[0].id,
          at,
          views,
          Math.floor(views / 10),
        ]);
      }
    }
    return idUpload;
  }

  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);
  const get = (user: TestUser, url: string) => env().app.inject({ method: 'GET', url, headers: user.headers });

  it('sums each moment from the last point at or before it, per platform, over the set and over the profile', async () => {
    const owner = await createUser(env(), 'owner');
    const first = await createAccount(env(), owner, { comments: 'Перший' });
    const second = await createAccount(env(), owner, { comments: 'Другий' });
    const set = await publishedSet(owner.id, first.id, {
      youtube: [
        [hoursAgo(20.5), 100],
        [hoursAgo(10.5), 300],
      ],
      instagram: [[hoursAgo(5.5), 40]],
    });
    await publishedSet(owner.id, second.id, { youtube: [[hoursAgo(2.5), 1000]] });

    const report = (await get(owner, `/api/stats/video/${set}?days=1`)).json<StatsReport>();
    expect(report.days).toBe(1);
    expect(report.at).toHaveLength(25);
    expect(report.at[24]! - report.at[0]!).toBe(24 * 3600);
    const youtube = report.views.find((series) => series.platform === 'youtube')!.values;
    const instagram = report.views.find((series) => series.platform === 'instagram')!.values;
    // Moments are an hour apart, the last one now: 20.5 h ago falls between moments 3 and 4.
    expect(youtube.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect(youtube.slice(4, 14)).toEqual(Array(10).fill(100));
    expect(youtube.slice(14)).toEqual(Array(11).fill(300));
    expect(instagram.slice(18, 20)).toEqual([0, 40]);
    expect(report.byPlatform).toEqual([
      { platform: 'youtube', posts: 1, views: 300, likes: 30, comments: 1 },
      { platform: 'instagram', posts: 1, views: 40, likes: 4, comments: 1 },
    ]);
    expect(report.byProfile).toEqual([
      { account: { id: first.id, title: `#${first.id} Перший` }, posts: 2, views: 340, likes: 34, comments: 2 },
    ]);

    const profile = (await get(owner, `/api/stats/accounts/${second.id}`)).json<StatsReport>();
    expect(profile.days).toBe(7);
    expect(profile.at).toHaveLength(29);
    expect(profile.byPlatform).toEqual([{ platform: 'youtube', posts: 1, views: 1000, likes: 100, comments: 1 }]);
    expect(profile.views[0]!.values.at(-1)).toBe(1000);
  });

  it('answers an empty report before the first sync, and refuses a period it does not offer', async () => {
    const owner = await createUser(env(), 'owner');
    const account = await createAccount(env(), owner);
    const set = await publishedSet(owner.id, account.id, {});
    const empty = (await get(owner, `/api/stats/video/${set}?days=30`)).json<StatsReport>();
    expect(empty).toMatchObject({ days: 30, views: [], byPlatform: [], byProfile: [], syncedAt: null });
    expect(empty.at).toHaveLength(31);

    const refused = await get(owner, `/api/stats/accounts/${account.id}?days=5`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toEqual([t.validation.invalidValue('days')]);
  });

  it("refuses another operator's set and profile as not found, and lets an admin read both", async () => {
    const owner = await createUser(env(), 'owner');
    const other = await createUser(env(), 'other');
    const admin = await createUser(env(), 'root', { role: 'admin' });
    const account = await createAccount(env(), owner);
    const set = await publishedSet(owner.id, account.id, { youtube: [[hoursAgo(1), 7]] });

    for (const url of [`/api/stats/video/${set}`, `/api/stats/accounts/${account.id}`]) {
      const refused = await get(other, url);
      expect(refused.statusCode, url).toBe(404);
      expect(refused.json().message).toBe(t.server.notFound);
      const read = await get(admin, url);
      expect(read.statusCode, url).toBe(200);
      expect(read.json<StatsReport>().byPlatform[0]!.views).toBe(7);
    }
    expect((await env().app.inject({ method: 'GET', url: `/api/stats/video/${set}` })).statusCode).toBe(401);
    // A request that is not published has no statistics page.
    const { rows } = await env().db.sql(
      `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key) VALUES (gen_random_uuid(), $1, 'success', 1, 'gone') RETURNING id_upload`,
      [owner.id],
    );
    expect((await get(owner, `/api/stats/video/${rows[0].id_upload}`)).statusCode).toBe(404);
  });
});
