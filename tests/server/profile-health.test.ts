import crypto from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type { AccountDetail, AccountSummary, NotificationList, Paged } from '../../src/lib/contract';
import { checkProfileHealth, checkProfileHealthJobName, planHealthChecks } from '../../server/jobs/health-check';
import { accountOfLogin } from '../../server/sandbox/consent';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import { startLoopbackProxy } from '../../server/sandbox/loopback-proxy';
import type { Platform } from '../../server/platforms/types';
import { quotaAccount, quotaSpent, takeQuota } from '../../server/services/statistics/quota-ledger';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, newSession, testJobContext, withSandboxServer } from './helpers';
import { ManualClock } from './manual-clock';

const clock = new ManualClock();
const sandbox = new SandboxState({ now: clock.now });
const hour = 3600_000;

describeEachDatabase(
  'Profile health, checked before it matters',
  (env) => {
    const network = withSandboxServer(env);
    beforeEach(() => {
      sandbox.faults.splice(0);
      sandbox.resetCalls();
    });

    const label = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}-${env().kind}`;
    async function check(accountId: number) {
      const checked = await checkProfileHealth({ accountId }, testJobContext(env()));
      if (checked.kind !== 'checked') throw new Error(`the check was not made: ${checked.kind}`);
      return checked;
    }

    function tiktokProfile(owner: TestUser, proxyUrl = network().proxy.url, name = label('tiktok')) {
      return createAccount(env(), owner, { proxy: proxyUrl, isActiveTikTok: true, TikTiokAuthStr: issueSandboxToken('tiktok', name) });
    }

    /** A profile linked to YouTube through the sandbox's consent page: Google's hour-long access token stored. */
    async function youtubeProfile(owner: TestUser) {
      const clientId = `${label('youtube')}.apps.googleusercontent.com`;
      const account = await createAccount(env(), owner, {
        proxy: network().proxy.url,
        isActiveYouTube: true,
        YouTubeAuthClientId: clientId,
        YouTubeAuthClientSecret: 'client-secret',
      });
      const link = await fetch(`${network().baseUrl}/api/accounts/connect-youtube/${account.id}`, {
        method: 'POST',
        headers: owner.headers,
      });
      await answerSandboxConsent(link);
      return { account, sandboxAccount: Buffer.from(clientId).toString('base64url') };
    }

    /** Links the profile to TikTok or Instagram through the platform's consent page. */
    async function linkThroughConsent(owner: TestUser, accountId: number, platform: 'tiktok' | 'instagram') {
      const link = await fetch(`${network().baseUrl}/api/accounts/connect-${platform}/${accountId}`, {
        method: 'POST',
        headers: owner.headers,
      });
      const login = platform === 'tiktok' ? `${label('linked')}@tiktok` : `${label('linked')}.insta`;
      await answerSandboxConsent(link, 'allow', 'follow', { username: login });
      return accountOfLogin(login)!;
    }

    /** A post of the profile on `platform`, pending, due `inHours` from the clock's now. */
    async function postDue(owner: TestUser, accountId: number, platform: Platform, inHours: number) {
      const { rows } = await env().db.sql(
        `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, published_at)
         VALUES (gen_random_uuid(), $1, 'published', 1, 'gone', now()) RETURNING id`,
        [owner.id],
      );
      await env().db.sql(
        `WITH v AS (INSERT INTO videos (request_id, user_id, account_id, position, status) VALUES ($1, $2, $3, 0, 'publication') RETURNING id)
         INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at) SELECT id, $4, $3, 'pending', $5 FROM v`,
        [rows[0].id, owner.id, accountId, platform, new Date(clock.now() + inHours * hour)],
      );
    }

    // The checks move the clock by hours: each read signs the owner in anew, as a 15-minute access token would need.
    async function unhealthyNotices(owner: TestUser) {
      const { headers } = await newSession(env(), owner.id);
      const response = await env().app.inject({ method: 'GET', url: '/api/notifications', headers });
      return response.json<NotificationList>().items.filter((item) => item.kind === 'profile_unhealthy');
    }

    async function listed(owner: TestUser, query = '') {
      const { headers } = await newSession(env(), owner.id);
      const response = await env().app.inject({ method: 'GET', url: `/api/accounts?page=1${query}`, headers });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Paged<AccountSummary>>();
    }

    const calls = (platform: Platform) => Object.values(sandbox.calls[platform]).reduce((sum, count) => sum + count, 0);

    it("turns a profile behind a dead proxy 'не працює' within one check, tells its owner once, and again after it recovered and died again", async () => {
      const owner = await createUser(env(), 'owner');
      // The owner's webhook asks for 'profile.unhealthy': the notice is raised as an alert too (alerts/buckets.ts).
      await env().db.sql(`INSERT INTO webhooks (user_id, url, events, secret) VALUES ($1, 'https://hooks.example/in', $2, 'sealed')`, [
        owner.id,
        ['profile.unhealthy'],
      ]);
      const own = await startLoopbackProxy();
      const account = await tiktokProfile(owner, own.url);
      await postDue(owner, account.id, 'tiktok', 3);
      await own.close();
      sandbox.resetCalls();

      const first = await check(account.id);
      expect(first.findings).toEqual([{ platform: 'tiktok', state: 'down', kind: 'proxy_unreachable' }]);
      expect(calls('tiktok')).toBe(0);
      expect(await unhealthyNotices(owner)).toEqual([
        expect.objectContaining({ account: { id: account.id, name: `#${account.id}` }, platform: null, health: 'proxy_unreachable' }),
      ]);

      const alerts = async () => (await env().db.sql(`SELECT event, count, items FROM alert_buckets WHERE user_id = $1`, [owner.id])).rows;
      expect(await alerts()).toEqual([
        {
          event: 'profile.unhealthy',
          count: 1,
          items: [{ accountId: account.id, profile: `#${account.id}`, platform: null, state: 'down', reason: 'проксі не відповідає' }],
        },
      ]);

      await clock.advance(hour);
      expect((await check(account.id)).findings).toEqual([{ platform: 'tiktok', state: 'down', kind: 'proxy_unreachable' }]);
      expect(await unhealthyNotices(owner)).toHaveLength(1);
      expect((await alerts()).map((row) => row.count)).toEqual([1]);

      const back = await startLoopbackProxy({ port: own.port });
      await clock.advance(hour);
      expect((await check(account.id)).findings).toEqual([{ platform: 'tiktok', state: 'connected', kind: null }]);
      await back.close();
      await clock.advance(hour);
      expect((await check(account.id)).notified).not.toBeNull();
      expect(await unhealthyNotices(owner)).toHaveLength(2);
    });

    it('tells nothing of a profile that fails with no post due within a day, and tells it once a post falls due', async () => {
      const owner = await createUser(env(), 'owner');
      const own = await startLoopbackProxy();
      const account = await tiktokProfile(owner, own.url);
      await postDue(owner, account.id, 'tiktok', 30);
      await own.close();

      expect((await check(account.id)).notified).toBeNull();
      expect(await unhealthyNotices(owner)).toEqual([]);
      await clock.advance(7 * hour);
      const { notified } = await check(account.id);
      expect(notified).toMatchObject({ accountId: account.id, platforms: [{ platform: 'tiktok', kind: 'proxy_unreachable' }] });
      expect(await unhealthyNotices(owner)).toHaveLength(1);
    });

    it("turns a profile whose YouTube grant was revoked 'не працює' within one check and tells its owner once", async () => {
      const owner = await createUser(env(), 'owner');
      const { account, sandboxAccount } = await youtubeProfile(owner);
      await postDue(owner, account.id, 'youtube', 2);
      sandbox.revoke('youtube', sandboxAccount);

      expect((await check(account.id)).findings).toMatchObject([{ platform: 'youtube', state: 'down', kind: 'revoked' }]);
      const notices = await unhealthyNotices(owner);
      expect(notices).toEqual([expect.objectContaining({ platform: 'youtube', health: 'revoked' })]);

      sandbox.resetCalls();
      await clock.advance(hour);
      expect((await check(account.id)).findings).toMatchObject([{ platform: 'youtube', state: 'down', kind: 'revoked' }]);
      expect(calls('youtube')).toBe(0);
      expect(await unhealthyNotices(owner)).toHaveLength(1);
    });

    it("turns a profile whose TikTok string the platform refuses 'не працює', and renews nothing on the way", async () => {
      const owner = await createUser(env(), 'owner');
      const name = label('refused');
      const account = await tiktokProfile(owner, network().proxy.url, name);
      await postDue(owner, account.id, 'tiktok', 1);
      sandbox.revoke('tiktok', Buffer.from(name).toString('base64url'));
      sandbox.resetCalls();

      expect((await check(account.id)).findings).toMatchObject([{ platform: 'tiktok', state: 'down', kind: 'refused' }]);
      expect(sandbox.calls.tiktok).toEqual({ 'POST /open.tiktokapis.com/v2/post/publish/creator_info/query/': 1 });
      expect(await unhealthyNotices(owner)).toEqual([expect.objectContaining({ platform: 'tiktok', health: 'refused' })]);
    });

    it('makes at most one read per platform of a healthy profile per check, and never a token refresh', async () => {
      const owner = await createUser(env(), 'owner');
      const { account } = await youtubeProfile(owner);
      const saved = await env().app.inject({
        method: 'PATCH',
        url: `/api/accounts/${account.id}`,
        headers: owner.headers,
        payload: {
          proxy: network().proxy.url,
          isActiveYouTube: true,
          YouTubeAuthClientId: account.YouTubeAuthClientId,
          isActiveTikTok: true,
          isActiveInstagram: true,
          connectByConsent: ['tiktok', 'instagram'],
        },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      await linkThroughConsent(owner, account.id, 'tiktok');
      await linkThroughConsent(owner, account.id, 'instagram');
      await postDue(owner, account.id, 'youtube', 5);

      for (let round = 0; round < 2; round++) {
        sandbox.resetCalls();
        const { findings, notified } = await check(account.id);
        expect(findings).toEqual([
          { platform: 'youtube', state: 'connected', kind: null },
          { platform: 'tiktok', state: 'connected', kind: null },
          { platform: 'instagram', state: 'connected', kind: null },
        ]);
        expect(notified).toBeNull();
        expect(sandbox.calls).toEqual({
          youtube: { 'GET /www.googleapis.com/youtube/v3/channels': 1 },
          tiktok: { 'POST /open.tiktokapis.com/v2/post/publish/creator_info/query/': 1 },
          instagram: { 'GET /graph.instagram.com/:version/:id': 1 },
          facebook: {},
        });
        await clock.advance(10 * 60_000);
      }
      const shown = (await listed(owner)).data.find((row) => row.id === account.id)!;
      expect(shown.health).toEqual({
        youtube: { state: 'connected', kind: null, source: 'health', detail: null, at: expect.any(String) },
        tiktok: { state: 'connected', kind: null, source: 'health', detail: null, at: expect.any(String) },
        instagram: { state: 'connected', kind: null, source: 'health', detail: null, at: expect.any(String) },
      });
    });

    it("reports a TikTok token past its end 'увага' without refreshing it or reading with it", async () => {
      const owner = await createUser(env(), 'owner');
      const account = await createAccount(env(), owner, { proxy: network().proxy.url });
      await linkThroughConsent(owner, account.id, 'tiktok');
      await env().db.sql(
        `UPDATE account_connections SET access_expires_at = $2 WHERE account_id = $1 AND platform = 'tiktok' AND method = 'oauth'`,
        [account.id, new Date(clock.now() - 1000)],
      );
      const before = await env().db.sql(`SELECT access_token, refresh_token FROM account_connections WHERE account_id = $1`, [account.id]);
      sandbox.resetCalls();

      expect((await check(account.id)).findings).toEqual([{ platform: 'tiktok', state: 'attention', kind: 'token_expired' }]);
      expect(calls('tiktok')).toBe(0);
      const after = await env().db.sql(`SELECT access_token, refresh_token FROM account_connections WHERE account_id = $1`, [account.id]);
      expect(after.rows).toEqual(before.rows);
    });

    it("reports a platform answering 500 as 'увага', and leaves a platform whose quota is spent as it was", async () => {
      const owner = await createUser(env(), 'owner');
      const account = await tiktokProfile(owner);
      sandbox.faults.push({ platform: 'tiktok', step: 'profile', kind: 'status-500' });
      expect((await check(account.id)).findings).toEqual([{ platform: 'tiktok', state: 'attention', kind: 'platform_unavailable' }]);

      const holder = { id: account.id, youtubeClientId: null, instagramUserId: null, instagramLogin: null };
      const quota = quotaAccount('tiktok', holder, testJobContext(env()).engine.statsSync, new Date(clock.now()));
      expect(await takeQuota(env().db, quota, quota.limit - (await quotaSpent(env().db, quota)))).toBe(true);
      sandbox.resetCalls();
      expect(await check(account.id)).toMatchObject({ findings: [], unread: ['tiktok'] });
      expect(calls('tiktok')).toBe(0);
      expect((await listed(owner)).data[0]!.health.tiktok).toMatchObject({ state: 'attention', kind: 'platform_unavailable' });
    });

    it("lists the problem profiles alone with 'health=problem', each carrying its health per platform, on the list and the page", async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const healthy = await tiktokProfile(owner);
      const own = await startLoopbackProxy();
      const failing = await tiktokProfile(owner, own.url);
      const unchecked = await tiktokProfile(owner);
      const othersFailing = await tiktokProfile(other, own.url);
      await own.close();
      for (const account of [healthy, failing, othersFailing]) await check(account.id);

      const all = await listed(owner);
      expect(all.data.map((row) => row.id)).toEqual([unchecked.id, failing.id, healthy.id]);
      // Not checked yet, but its save asked TikTok, which answered.
      expect(all.data[0]!.health).toEqual({ tiktok: expect.objectContaining({ state: 'connected', source: 'reconnect' }) });
      const problems = await listed(owner, '&health=problem');
      expect(problems).toMatchObject({ total: 1, page: 1, totalPages: 1 });
      expect(problems.data).toEqual([
        expect.objectContaining({
          id: failing.id,
          health: {
            tiktok: { state: 'down', kind: 'proxy_unreachable', source: 'health', detail: null, at: new Date(clock.now()).toISOString() },
          },
        }),
      ]);
      const page = await env().app.inject({ method: 'GET', url: `/api/accounts/${failing.id}`, headers: owner.headers });
      expect(page.json<AccountDetail>().health).toEqual(problems.data[0]!.health);

      // A platform switched off shows no health and is no problem.
      await env().app.inject({
        method: 'PATCH',
        url: `/api/accounts/${failing.id}`,
        headers: owner.headers,
        payload: { proxy: own.url, isActiveTikTok: false },
      });
      expect((await listed(owner, '&health=problem')).data).toEqual([]);
      const refused = await env().app.inject({ method: 'GET', url: '/api/accounts?page=1&health=broken', headers: owner.headers });
      expect(refused.statusCode).toBe(400);
    });

    it('plans a check hourly for a profile with a post due within a day, daily for the others, one waiting check each', async () => {
      const owner = await createUser(env(), 'owner');
      const soon = await tiktokProfile(owner);
      const idle = await tiktokProfile(owner);
      await createAccount(env(), owner, { proxy: network().proxy.url });
      await postDue(owner, soon.id, 'tiktok', 20);
      const context = testJobContext(env());
      const planned = async () => {
        await planHealthChecks(context, clock.now());
        const { rows } = await env().db.sql(`SELECT (data->>'accountId')::int AS id FROM pgboss.job WHERE name = $1 ORDER BY 1`, [
          checkProfileHealthJobName,
        ]);
        await env().db.sql(`DELETE FROM pgboss.job WHERE name = $1`, [checkProfileHealthJobName]);
        return rows.map((row) => row.id);
      };

      await planHealthChecks(context, clock.now());
      expect(await planned()).toEqual([soon.id, idle.id]);
      await check(soon.id);
      await check(idle.id);
      expect(await planned()).toEqual([]);
      await clock.advance(50 * 60_000);
      expect(await planned()).toEqual([]);
      await clock.advance(5 * 60_000);
      expect(await planned()).toEqual([soon.id]);
      await check(soon.id);
      await clock.advance(23 * hour);
      expect(await planned()).toEqual([soon.id, idle.id]);
    });
  },
  { sandbox, clock, queue: 'send' },
);
