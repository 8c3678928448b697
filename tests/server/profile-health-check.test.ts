import crypto from 'node:crypto';
import { beforeEach, expect, it, vi } from 'vitest';
import type { AccountDetail, AccountSummary, HealthCheckAnswer, Paged } from '../../src/lib/contract';
import { checkProfileHealth } from '../../server/jobs/health-check';
import { t } from '../../server/messages';
import { healthCheckGapMs } from '../../server/routes/accounts';
import { SandboxState } from '../../server/sandbox/index';
import { claimHealthCheck, healthCheckClaimMs, releaseHealthCheck } from '../../server/services/profiles/profile-health';
import { quotaAccount, quotaSpent, takeQuota } from '../../server/services/statistics/quota-ledger';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { startHoldingRelay } from './holding-relay';
import { createApiToken, createUser, describeEachDatabase, sandboxControl, testJobContext, withSandboxServer } from './helpers';
import { ManualClock } from './manual-clock';

const clock = new ManualClock();
const sandbox = new SandboxState({ now: clock.now });

/** POST /api/accounts/{id}/health-check: the check asked from a profile's page (issue 39.5), run within the request. */
describeEachDatabase(
  "A profile's health checked now, from its page",
  (env) => {
    const network = withSandboxServer(env);
    beforeEach(() => {
      sandbox.faults.splice(0);
      sandbox.resetCalls();
    });

    const checkNow = (accountId: number, headers: Record<string, string>) =>
      env().app.inject({ method: 'POST', url: `/api/accounts/${accountId}/health-check`, headers });

    const youtubeCalls = () => Object.values(sandbox.calls.youtube).reduce((sum, count) => sum + count, 0);

    /** A profile linked to YouTube through the sandbox's consent page, its channel reached through the suite's proxy. */
    async function youtubeProfile(owner: TestUser) {
      const account = await createAccount(env(), owner, {
        proxy: network().proxy.url,
        isActiveYouTube: true,
        YouTubeAuthClientId: `${crypto.randomUUID()}.apps.googleusercontent.com`,
        YouTubeAuthClientSecret: 'client-secret',
      });
      const link = await fetch(`${network().baseUrl}/api/accounts/connect-youtube/${account.id}`, {
        method: 'POST',
        headers: owner.headers,
      });
      await answerSandboxConsent(link);
      sandbox.resetCalls();
      return account;
    }

    it("turns a profile whose YouTube read fails 'не працює' within the request, as its page and the problem list then show", async () => {
      const owner = await createUser(env(), 'owner');
      const account = await youtubeProfile(owner);
      // Google refuses the channel read, and again after the token is renewed.
      const fault = await sandboxControl(env().app, {
        method: 'POST',
        url: '/sandbox/_faults',
        payload: { platform: 'youtube', step: 'profile', kind: 'unauthorized', times: 2 },
      });
      expect(fault.statusCode, fault.body).toBe(201);

      const response = await checkNow(account.id, owner.headers);
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json<HealthCheckAnswer>();
      const down = {
        state: 'down',
        kind: 'refused',
        source: 'health',
        detail: expect.any(String),
        at: new Date(clock.now()).toISOString(),
      };
      expect(answer.unread).toEqual([]);
      expect(answer.account).toMatchObject({ id: account.id, status: 'error', failedPlatforms: ['youtube'], health: { youtube: down } });

      const page = await env().app.inject({ method: 'GET', url: `/api/accounts/${account.id}`, headers: owner.headers });
      expect(page.json<AccountDetail>().health).toEqual(answer.account.health);
      const problems = await env().app.inject({ method: 'GET', url: '/api/accounts?page=1&health=problem', headers: owner.headers });
      expect(problems.json<Paged<AccountSummary>>().data.map((row) => [row.id, row.health])).toEqual([[account.id, answer.account.health]]);
    });

    it('answers 429 with Retry-After within a minute of the last check, reading nothing, and checks again after it', async () => {
      const owner = await createUser(env(), 'owner');
      const account = await youtubeProfile(owner);
      const first = await checkNow(account.id, owner.headers);
      expect(first.json<HealthCheckAnswer>().account.health.youtube).toMatchObject({ state: 'connected', source: 'health' });
      expect(youtubeCalls()).toBe(1);

      await clock.advance(healthCheckGapMs - 20_000);
      const again = await checkNow(account.id, owner.headers);
      expect([again.statusCode, again.headers['retry-after'], again.json().message]).toEqual([429, '20', t.health.checkedRecently(20)]);
      expect(youtubeCalls()).toBe(1);

      await clock.advance(20_000);
      expect((await checkNow(account.id, owner.headers)).statusCode).toBe(200);
      expect(youtubeCalls()).toBe(2);
    });

    it('refuses with 409 a check asked while one from the page is still waiting on the proxy, which then ends as usual', async () => {
      const owner = await createUser(env(), 'owner');
      const account = await youtubeProfile(owner);
      // The relay holds what the check sends through the proxy until the test lets it through.
      const relay = await startHoldingRelay(network().proxy.port, 0);
      await env().db.sql(`UPDATE accounts SET proxy = $2 WHERE id = $1`, [account.id, relay.url]);
      try {
        const first = checkNow(account.id, owner.headers);
        await vi.waitFor(() => expect(relay.held().some((bytes) => bytes > 0)).toBe(true));
        const second = await checkNow(account.id, owner.headers);
        expect([second.statusCode, second.json().message]).toEqual([409, t.health.checkRunning]);
        relay.release();
        const done = await first;
        expect(done.statusCode, done.body).toBe(200);
        expect(done.json<HealthCheckAnswer>().account.health.youtube).toMatchObject({ state: 'connected', source: 'health' });
        expect(youtubeCalls()).toBe(1);
      } finally {
        await relay.close();
      }
    });

    it('refuses with 409 while the job checks the profile, and the job skips one the page is running', async () => {
      const owner = await createUser(env(), 'owner');
      const account = await youtubeProfile(owner);
      const held = await claimHealthCheck(env().db, account.id, clock.now());
      expect(held.kind).toBe('claimed');

      const refused = await checkNow(account.id, owner.headers);
      expect([refused.statusCode, refused.json().message]).toEqual([409, t.health.checkRunning]);
      expect(await checkProfileHealth({ accountId: account.id }, testJobContext(env()))).toEqual({ kind: 'running' });
      expect(youtubeCalls()).toBe(0);

      if (held.kind === 'claimed') await releaseHealthCheck(env().db, account.id, held.at);
      expect((await checkNow(account.id, owner.headers)).statusCode).toBe(200);

      // A claim its process never gave back (it died mid-check) lapses once no check could still be running.
      await clock.advance(healthCheckGapMs);
      await claimHealthCheck(env().db, account.id, clock.now());
      await clock.advance(healthCheckClaimMs);
      expect((await checkNow(account.id, owner.headers)).statusCode).toBe(200);
    });

    it('leaves a platform the quota ledger has no read for as it was, and says it was not checked', async () => {
      const owner = await createUser(env(), 'owner');
      const account = await youtubeProfile(owner);
      const holder = { id: account.id, youtubeClientId: account.YouTubeAuthClientId, instagramUserId: null, instagramLogin: null };
      const quota = quotaAccount('youtube', holder, testJobContext(env()).engine.statsSync, new Date(clock.now()));
      expect(await takeQuota(env().db, quota, quota.limit - (await quotaSpent(env().db, quota)))).toBe(true);

      const response = await checkNow(account.id, owner.headers);
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json<HealthCheckAnswer>();
      expect(answer.unread).toEqual(['youtube']);
      // What the consent found stands.
      expect(answer.account.health.youtube).toMatchObject({ state: 'connected', source: 'consent' });
      expect(youtubeCalls()).toBe(0);
    });

    it("answers another user's profile 404 as its page does, lets an admin check it, and refuses a read-only API token", async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const admin = await createUser(env(), 'admin', { role: 'admin' });
      const account = await youtubeProfile(owner);

      const foreign = await checkNow(account.id, other.headers);
      expect([foreign.statusCode, foreign.json().message]).toEqual([404, t.server.notFound]);
      const readToken = await createApiToken(env(), owner, 'read');
      const readOnly = await checkNow(account.id, readToken.headers);
      expect([readOnly.statusCode, readOnly.json().message]).toEqual([403, t.server.apiTokenReadOnly]);
      expect(youtubeCalls()).toBe(0);

      expect((await checkNow(account.id, admin.headers)).statusCode).toBe(200);
      await clock.advance(healthCheckGapMs);
      const publishToken = await createApiToken(env(), owner, 'publish');
      expect((await checkNow(account.id, publishToken.headers)).statusCode).toBe(200);
    });
  },
  { sandbox, clock },
);
