import crypto from 'node:crypto';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { engineSettings, statsSyncSettings } from '../../server/config';
import type { Database } from '../../server/db/connect';
import { startQueue } from '../../server/jobs/queue';
import { planStatsSyncs, syncProfileStats, syncProfileStatsJobName } from '../../server/jobs/sync-stats';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import type { Platform } from '../../server/platforms/types';
import { quotaAccount, quotaSpent, recordQuota, takeQuota, type QuotaAccount } from '../../server/services/statistics/quota-ledger';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { startDelayingRelay, type DelayingRelay } from './delaying-relay';
import { createUser, describeEachDatabase, freshDatabase, testJobContext, withSandboxServer } from './helpers';

const clock = { now: Date.now() };
const sandbox = new SandboxState({ now: () => clock.now });
const key = (label: string) => Buffer.from(label).toString('base64url');

/** The sandbox routes that read figures, per platform; token and login calls are not counted. */
const statsRoute: Record<Platform, RegExp> = {
  youtube: /^GET \/www\.googleapis\.com\/youtube\/v3\/videos$/,
  tiktok: /^POST \/open\.tiktokapis\.com\/v2\/video\/query\/$/,
  instagram: /^POST \/graph\.facebook\.com\/?$/,
  facebook: /^GET \/graph\.facebook\.com\/:version\/:videoId\/video_insights$/,
};
const statsCalls = (platform: Platform) =>
  Object.entries(sandbox.calls[platform])
    .filter(([route]) => statsRoute[platform].test(route))
    .reduce((sum, [, count]) => sum + count, 0);

describeEachDatabase(
  'Statistics sync per profile and platform',
  (env) => {
    const network = withSandboxServer(env);
    let slow: DelayingRelay;

    beforeAll(async () => {
      slow = await startDelayingRelay(network().proxy.port, 400);
    });
    afterAll(async () => {
      await slow?.close();
    });
    beforeEach(() => {
      sandbox.videos.splice(0);
      sandbox.faults.splice(0);
      sandbox.resetCalls();
    });

    const jobContext = (signal?: AbortSignal) => testJobContext(env(), signal);

    /** A profile on `platform` behind `proxyUrl`, and the sandbox account its credentials reach. */
    async function profile(owner: TestUser, platform: Platform, proxyUrl = network().proxy.url) {
      const label = `${platform}-${crypto.randomUUID().slice(0, 8)}-${env().kind}`;
      if (platform === 'tiktok') {
        const account = await createAccount(env(), owner, {
          proxy: proxyUrl,
          isActiveTikTok: true,
          TikTiokAuthStr: issueSandboxToken('tiktok', label),
        });
        return { account, sandboxAccount: key(label) };
      }
      if (platform === 'instagram') {
        const account = await createAccount(env(), owner, {
          proxy: proxyUrl,
          isActiveInstagram: true,
          InstagramLogin: label,
          InstagramPassword: 'secret',
        });
        return { account, sandboxAccount: key(label) };
      }
      const clientId = `${label}.apps.googleusercontent.com`;
      const account = await createAccount(env(), owner, {
        proxy: proxyUrl,
        isActiveYouTube: true,
        YouTubeAuthClientId: clientId,
        YouTubeAuthClientSecret: 'client-secret',
      });
      const link = await fetch(`${network().baseUrl}/api/accounts/connect-youtube/${account.id}`, {
        method: 'POST',
        headers: owner.headers,
      });
      await answerSandboxConsent(link);
      return { account, sandboxAccount: key(clientId) };
    }

    /** `count` published posts of the profile on `platform`, `ageHours` old, known to the sandbox. */
    async function seedPosts(owner: TestUser, accountId: number, platform: Platform, sandboxAccount: string, count: number, ageHours = 1) {
      const prefix = `${platform}${accountId}x${crypto.randomUUID().slice(0, 6)}x`;
      const { rows } = await env().db.sql(
        `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, published_at)
         VALUES (gen_random_uuid(), $1, 'published', $2, 'gone', now()) RETURNING id`,
        [owner.id, count],
      );
      await env().db.sql(
        `WITH v AS (INSERT INTO videos (request_id, user_id, account_id, position, status)
                    SELECT $1, $2, $3, g, 'success' FROM generate_series(0, $4::integer - 1) AS g RETURNING id, position)
         INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, remote_id)
         SELECT id, $5, $3, 'done', now() - make_interval(secs => 3600 * $6::float8), $7 || position FROM v`,
        [rows[0].id, owner.id, accountId, count, platform, ageHours, prefix],
      );
      for (let position = 0; position < count; position++) {
        sandbox.videos.push({
          platform,
          id: `${prefix}${position}`,
          account: sandboxAccount,
          title: '',
          description: '',
          tags: [],
          bytes: 0,
          sha256: '',
          createdAt: clock.now - ageHours * 3600_000,
          url: '',
        });
      }
    }

    const due = async (accountId: number) =>
      (await env().db.sql(`SELECT count(*)::int AS n FROM video_posts WHERE account_id = $1 AND stats_due_at IS NULL`, [accountId])).rows[0]
        .n;

    const boundaries: [Platform, number, number][] = [
      ['youtube', 1, 1],
      ['youtube', 50, 1],
      ['youtube', 51, 2],
      ['tiktok', 20, 1],
      ['tiktok', 21, 2],
      ['instagram', 50, 1],
      ['instagram', 51, 2],
    ];
    for (const [platform, count, calls] of boundaries) {
      it(`reads ${count} ${platform} posts in ${calls} call(s), every post's figures stored`, async () => {
        const owner = await createUser(env(), 'owner');
        const { account, sandboxAccount } = await profile(owner, platform);
        await seedPosts(owner, account.id, platform, sandboxAccount, count, 5);
        sandbox.resetCalls();
        expect(await syncProfileStats({ accountId: account.id, platform }, jobContext())).toEqual({ updated: count, failed: 0 });
        expect(statsCalls(platform)).toBe(calls);
        const { rows } = await env().db.sql(`SELECT remote_id, views FROM video_posts WHERE account_id = $1 ORDER BY id`, [account.id]);
        const expected = rows.map((row) => sandbox.statsOf(sandbox.videos.find((video) => video.id === row.remote_id)!).views);
        expect(rows.map((row) => row.views)).toEqual(expected);
        expect(expected.every((views) => views > 0)).toBe(true);
      });
    }

    it('has the sandbox refuse more ids than each platform takes in one call, as the platforms do', async () => {
      const ids = (count: number) => Array.from({ length: count }, (_, index) => `v${index}`);
      const youtube = (count: number) =>
        fetch(`${network().baseUrl}/sandbox/www.googleapis.com/youtube/v3/videos?part=statistics&id=${ids(count).join(',')}`, {
          headers: { authorization: `Bearer ${issueSandboxToken('youtube', 'channel')}` },
        });
      expect((await youtube(50)).status).toBe(200);
      const refused = await youtube(51);
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.errors[0].reason).toBe('badRequest');

      const tiktok = (count: number) =>
        fetch(`${network().baseUrl}/sandbox/open.tiktokapis.com/v2/video/query/?fields=id`, {
          method: 'POST',
          headers: { authorization: `Bearer ${issueSandboxToken('tiktok', 'creator')}`, 'content-type': 'application/json' },
          body: JSON.stringify({ filters: { video_ids: ids(count) } }),
        });
      expect((await tiktok(20)).status).toBe(200);
      const tooMany = await tiktok(21);
      expect(tooMany.status).toBe(400);
      expect((await tooMany.json()).error.code).toBe('invalid_params');

      const batch = (count: number) =>
        fetch(`${network().baseUrl}/sandbox/graph.facebook.com/`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${issueSandboxToken('instagram', 'reels')}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({
            batch: JSON.stringify(ids(count).map((id) => ({ method: 'GET', relative_url: `v22.0/${id}/insights?metric=views` }))),
          }),
        });
      sandbox.resetCalls();
      const answered = await batch(50);
      expect(answered.status).toBe(200);
      // Read whole first: the sandbox counts a call once its answer has gone out, which may be after
      // its headers have come.
      const results = (await answered.json()) as { code: number; body: string }[];
      // One HTTP request in the sandbox's count of calls, however many operations it carried.
      expect(sandbox.calls.instagram).toEqual({ [Object.keys(sandbox.calls.instagram)[0]!]: 1 });
      expect(statsCalls('instagram')).toBe(1);
      // Each operation answers as its own call would: these media do not exist.
      expect(results).toHaveLength(50);
      expect(results.every((result) => result.code === 400 && JSON.parse(result.body).error.code === 100)).toBe(true);
      const overBatch = await batch(51);
      expect(overBatch.status).toBe(400);
      expect((await overBatch.json()).error.message).toMatch(/Maximum batch size is 50/);
    });

    it('writes each video its TikTok figures into the TikTok columns, leaving YouTube’s alone', async () => {
      const owner = await createUser(env(), 'owner');
      const { account, sandboxAccount } = await profile(owner, 'tiktok');
      await seedPosts(owner, account.id, 'tiktok', sandboxAccount, 3);
      const { rows: posts } = await env().db.sql(`SELECT video_id, remote_id FROM video_posts WHERE account_id = $1 ORDER BY id`, [
        account.id,
      ]);
      // The first video is also on YouTube: its views, likes and comments are YouTube's, not TikTok's.
      await env().db.sql(
        `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at) VALUES ($1, 'youtube', $2, 'done', now())`,
        [posts[0].video_id, account.id],
      );
      expect(await syncProfileStats({ accountId: account.id, platform: 'tiktok' }, jobContext())).toEqual({ updated: 3, failed: 0 });
      const { rows: columns } = await env().db.sql(
        `SELECT views, likes, comments, views_instagram, views_tiktok, likes_tiktok, comments_tiktok
           FROM videos WHERE id = ANY($1::integer[]) ORDER BY id`,
        [posts.map((post) => post.video_id)],
      );
      const figures = posts.map((post) => sandbox.statsOf(sandbox.videos.find((video) => video.id === post.remote_id)!));
      expect(columns).toEqual(
        figures.map((read) => ({
          views: 0,
          likes: 0,
          comments: 0,
          views_instagram: 0,
          views_tiktok: read.views,
          likes_tiktok: read.likes,
          comments_tiktok: read.comments,
        })),
      );
    });

    it('sets when each post is next due by its age: 15 minutes up to 48 h, 6 hours up to 30 days, then a day', async () => {
      const owner = await createUser(env(), 'owner');
      const { account, sandboxAccount } = await profile(owner, 'tiktok');
      await seedPosts(owner, account.id, 'tiktok', sandboxAccount, 1, 47);
      await seedPosts(owner, account.id, 'tiktok', sandboxAccount, 1, 49);
      await seedPosts(owner, account.id, 'tiktok', sandboxAccount, 1, 29 * 24);
      await seedPosts(owner, account.id, 'tiktok', sandboxAccount, 1, 31 * 24);
      expect(await syncProfileStats({ accountId: account.id, platform: 'tiktok' }, jobContext())).toEqual({ updated: 4, failed: 0 });
      const { rows } = await env().db.sql(
        `SELECT round(extract(epoch FROM stats_due_at - now()) / 60)::int AS minutes FROM video_posts WHERE account_id = $1 ORDER BY scheduled_at DESC`,
        [account.id],
      );
      expect(rows.map((row) => row.minutes)).toEqual([15, 360, 360, 1440]);
      // Nothing is due now: the planner enqueues nothing for the profile, and a sync reads nothing.
      sandbox.resetCalls();
      expect(await planStatsSyncs(jobContext(), env().platforms.clock.now())).toBe(0);
      expect(await syncProfileStats({ accountId: account.id, platform: 'tiktok' }, jobContext())).toEqual({ updated: 0, failed: 0 });
      expect(statsCalls('tiktok')).toBe(0);
      // Once the fresh tier falls due, only its post is read.
      await env().db.sql(`UPDATE video_posts SET stats_due_at = stats_due_at - interval '16 minutes' WHERE account_id = $1`, [account.id]);
      expect(await syncProfileStats({ accountId: account.id, platform: 'tiktok' }, jobContext())).toEqual({ updated: 1, failed: 0 });
    });

    it('lets a slow proxy delay only its own profile’s figures', async () => {
      const owner = await createUser(env(), 'owner');
      const fast = await profile(owner, 'tiktok');
      const slowProfile = await profile(owner, 'tiktok', slow.url);
      await seedPosts(owner, fast.account.id, 'tiktok', fast.sandboxAccount, 60);
      await seedPosts(owner, slowProfile.account.id, 'tiktok', slowProfile.sandboxAccount, 60);
      const started = Date.now();
      const finished: Record<string, number> = {};
      await Promise.all(
        [fast, slowProfile].map(async ({ account }) => {
          await syncProfileStats({ accountId: account.id, platform: 'tiktok' }, jobContext());
          finished[account.id] = Date.now() - started;
        }),
      );
      // Three calls through a relay adding 400 ms each; the other profile's three take no such wait.
      expect(finished[slowProfile.account.id]).toBeGreaterThanOrEqual(1200);
      expect(finished[fast.account.id]).toBeLessThan(finished[slowProfile.account.id]! - 800);
      expect(await due(fast.account.id)).toBe(0);
      expect(await due(slowProfile.account.id)).toBe(0);
    });

    it('stops at its abort signal between calls, leaving the unread posts due', async () => {
      const owner = await createUser(env(), 'owner');
      const { account, sandboxAccount } = await profile(owner, 'tiktok', slow.url);
      await seedPosts(owner, account.id, 'tiktok', sandboxAccount, 100);
      const controller = new AbortController();
      sandbox.resetCalls();
      // The job's time runs out once the platform has been asked for a first page of figures.
      const expired = vi
        .waitFor(() => expect(statsCalls('tiktok')).toBeGreaterThan(0), { timeout: 10_000, interval: 10 })
        .then(() => controller.abort(new Error('expired')));
      const started = Date.now();
      const result = await syncProfileStats({ accountId: account.id, platform: 'tiktok' }, jobContext(controller.signal));
      await expired;
      expect(result.stoppedBy).toBe('signal');
      expect(Date.now() - started).toBeLessThan(1500);
      expect(result.updated).toBeLessThan(100);
      expect(await due(account.id)).toBe(100 - result.updated);
    });

    it('never runs twice at once for the same profile and platform', async () => {
      const owner = await createUser(env(), 'owner');
      const { account, sandboxAccount } = await profile(owner, 'tiktok', slow.url);
      await seedPosts(owner, account.id, 'tiktok', sandboxAccount, 40);
      sandbox.resetCalls();
      const results = await Promise.all([
        syncProfileStats({ accountId: account.id, platform: 'tiktok' }, jobContext()),
        syncProfileStats({ accountId: account.id, platform: 'tiktok' }, jobContext()),
      ]);
      expect(results.map((result) => result.stoppedBy ?? 'read').sort()).toEqual(['read', 'running']);
      expect(results.reduce((sum, result) => sum + result.updated, 0)).toBe(40);
      expect(statsCalls('tiktok')).toBe(2);
    });

    it('keeps one waiting sync per profile and platform however many ticks pass, beside one running', async () => {
      const owner = await createUser(env(), 'owner');
      const first = await profile(owner, 'tiktok');
      const second = await profile(owner, 'instagram');
      await seedPosts(owner, first.account.id, 'tiktok', first.sandboxAccount, 3);
      await seedPosts(owner, second.account.id, 'instagram', second.sandboxAccount, 3);
      const jobs = async () =>
        (
          await env().db.sql(
            `SELECT state, data->>'accountId' AS account, data->>'platform' AS platform FROM pgboss.job WHERE name = $1 ORDER BY 2, 3, 1`,
            [syncProfileStatsJobName],
          )
        ).rows;
      expect(await planStatsSyncs(jobContext(), env().platforms.clock.now())).toBe(2);
      expect(await planStatsSyncs(jobContext(), env().platforms.clock.now())).toBe(0);
      expect(await planStatsSyncs(jobContext(), env().platforms.clock.now())).toBe(0);
      expect(await jobs()).toEqual(
        [
          { state: 'created', account: String(first.account.id), platform: 'tiktok' },
          { state: 'created', account: String(second.account.id), platform: 'instagram' },
        ].sort((a, b) => a.account.localeCompare(b.account)),
      );
      // A worker takes them (still running): the next ticks queue one behind each, and no more.
      const taken = await env().queue!.fetch(syncProfileStatsJobName, { batchSize: 10 });
      expect(taken).toHaveLength(2);
      for (let tick = 0; tick < 3; tick++) await planStatsSyncs(jobContext(), env().platforms.clock.now());
      expect((await jobs()).map((job) => job.state)).toEqual(['created', 'active', 'created', 'active']);
    });

    // Last in the suite: stopping a second queue in this process unregisters the process's row.
    it('stops at the worker’s shutdown without waiting out the grace, keeping the figures it read', async () => {
      const owner = await createUser(env(), 'owner');
      const { account, sandboxAccount } = await profile(owner, 'tiktok', slow.url);
      await seedPosts(owner, account.id, 'tiktok', sandboxAccount, 200);
      const worker = await startQueue({
        db: env().db,
        log: pino({ level: 'silent' }),
        work: true,
        context: { db: env().db, media: env().media, keys: env().tokenSettings.keys, platforms: env().platforms },
        engine: engineSettings(),
      });
      await planStatsSyncs({ db: env().db, queue: worker }, env().platforms.clock.now());
      worker.nudge(syncProfileStatsJobName);
      await vi.waitFor(async () => expect(await due(account.id)).toBeLessThan(200), { timeout: 15_000, interval: 50 });
      const stopping = Date.now();
      await worker.stop({ graceful: true, timeout: 30_000, wait: true });
      // Ten calls of 400 ms were left at most; the sync stopped at the next one instead.
      expect(Date.now() - stopping).toBeLessThan(2000);
      expect(await due(account.id)).toBeGreaterThan(0);
      const { rows } = await env().db.sql(`SELECT state FROM pgboss.job WHERE name = $1`, [syncProfileStatsJobName]);
      expect(rows).toEqual([{ state: 'completed' }]);
    });
  },
  { queue: 'send', sandbox },
);

describe('Quota ledger', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const fresh = await freshDatabase(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
    db = fresh.db;
    drop = fresh.drop;
  });
  afterAll(async () => drop());

  it('never lets reads spend past a holder’s limit, however they interleave', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ holder: fc.constantFrom('a', 'b', 'c'), units: fc.integer({ min: 1, max: 60 }) }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 300 }),
        async (plan, limit) => {
          const period = crypto.randomUUID();
          const account = (holder: string): QuotaAccount => ({ holder, period, limit, at: new Date() });
          const granted = await Promise.all(plan.map((read) => takeQuota(db, account(read.holder), read.units)));
          for (const holder of ['a', 'b', 'c']) {
            const spent = await quotaSpent(db, account(holder));
            const grantedUnits = plan.reduce((sum, read, index) => sum + (read.holder === holder && granted[index] ? read.units : 0), 0);
            expect(spent).toBe(grantedUnits);
            expect(spent).toBeLessThanOrEqual(limit);
            // A refusal only ever comes when the read would not have fitted.
            plan.forEach((read, index) => {
              if (read.holder === holder && !granted[index]) expect(read.units).toBeGreaterThan(limit - spent);
            });
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('records every unit publishing spends and leaves reads only what is left: publishing comes first', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ by: fc.constantFrom('read', 'publishing'), units: fc.integer({ min: 1, max: 80 }) }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 300 }),
        async (plan, limit) => {
          const quota: QuotaAccount = { holder: 'youtube:project', period: crypto.randomUUID(), limit, at: new Date() };
          let read = 0;
          let published = 0;
          for (const step of plan) {
            if (step.by === 'publishing') {
              await recordQuota(db, quota, step.units);
              published += step.units;
            } else {
              const granted = await takeQuota(db, quota, step.units);
              // A read is granted exactly when it fits beside everything spent so far, publishing's included.
              expect(granted).toBe(read + published + step.units <= limit);
              if (granted) read += step.units;
            }
            expect(await quotaSpent(db, quota)).toBe(read + published);
          }
          // Reads never take a unit past the limit, so the day's units above it stay publishing's.
          expect(read).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('counts YouTube units per Google project and Pacific day, less the reserve publishing keeps', () => {
    const settings = statsSyncSettings({ STATS_YOUTUBE_DAILY_UNITS: '10000', STATS_YOUTUBE_PUBLISH_RESERVE: '4000' });
    const profile = { id: 7, youtubeClientId: 'shared.apps.googleusercontent.com', instagramUserId: null, instagramLogin: null };
    // 23:30 and 00:30 Pacific Time (PST, UTC−8) fall on two quota days.
    expect(quotaAccount('youtube', profile, settings, new Date('2026-11-26T07:30:00Z'))).toEqual({
      holder: 'youtube:shared.apps.googleusercontent.com',
      period: '2026-11-25',
      limit: 6000,
      at: new Date('2026-11-26T07:30:00Z'),
    });
    expect(quotaAccount('youtube', { ...profile, id: 8 }, settings, new Date('2026-11-26T08:30:00Z')).period).toBe('2026-11-26');
    expect(() => statsSyncSettings({ STATS_YOUTUBE_PUBLISH_RESERVE: '10000' })).toThrow(/STATS_YOUTUBE_PUBLISH_RESERVE/);
  });
});
