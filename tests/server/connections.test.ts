import { expect, it } from 'vitest';
import type { AccountDetail, NotificationList } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { decryptSecret } from '../../server/auth/secrets';
import { ProfileAuthError } from '../../server/platforms/errors';
import { freshAccessToken, refreshDueConnections } from '../../server/platforms/connections';
import { SandboxState } from '../../server/sandbox/index';
import { accountOfLogin } from '../../server/sandbox/consent';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { buildLiveApp, createUser, describeEachDatabase, sandboxControl, withSandboxServer } from './helpers';
import { answerSandboxConsent, openConsentLink } from '../fixtures/sandbox-consent';
import { testNetwork } from './helpers';
import { systemClock } from '../../server/clock';

const clock = { now: Date.now() };
const sandbox = new SandboxState({ now: () => clock.now, tokenTtlSeconds: 20 });

describeEachDatabase(
  'Connecting TikTok and Instagram through their consent pages',
  (env) => {
    const network = withSandboxServer(env);

    const settings = () => ({ mode: 'sandbox' as const, platformsOrigin: network().baseUrl, network: testNetwork(), clock: systemClock });

    async function connect(user: TestUser, accountId: number, platform: 'tiktok' | 'instagram', login: string) {
      const link = await fetch(`${network().baseUrl}/api/accounts/connect-${platform}/${accountId}`, {
        method: 'POST',
        headers: user.headers,
      });
      expect(link.status).toBe(200);
      const flow = await openConsentLink(link);
      const host = platform === 'tiktok' ? 'www.tiktok.com/v2/auth/authorize/' : 'www.instagram.com/oauth/authorize';
      expect(flow.url.startsWith(`${network().baseUrl}/sandbox/${host}?`)).toBe(true);
      const followed = await answerSandboxConsent(flow, 'allow', 'follow', { username: login });
      const landed = new URL(followed.url);
      return landed.pathname + landed.search;
    }

    async function detail(user: TestUser, id: number) {
      const response = await env().app.inject({ method: 'GET', url: `/api/accounts/${id}`, headers: user.headers });
      return response.json<AccountDetail>();
    }

    async function linkedProfile(user: TestUser, name: string) {
      const label = `${name}-${env().kind}`;
      const account = await createAccount(env(), user, { proxy: network().proxy.url, comments: label });
      expect(await connect(user, account.id, 'tiktok', `${label}@tiktok`)).toBe(`/accounts/${account.id}?tiktok=connected`);
      expect(await connect(user, account.id, 'instagram', `${label}.insta`)).toBe(`/accounts/${account.id}?instagram=connected`);
      return { account, tiktokKey: accountOfLogin(`${label}@tiktok`)!, label };
    }

    it('connects both platforms with nothing typed: tokens sealed, whom they reach shown, the platforms switched on', async () => {
      const user = await createUser(env(), 'operator');
      const { account, label } = await linkedProfile(user, 'linked');

      const shown = await detail(user, account.id);
      expect(shown).toMatchObject({
        status: 'success',
        isActiveTikTok: true,
        inTikTok: true,
        isActiveInstagram: true,
        inInstagram: true,
        TikTiokAuthStr: '',
        InstagramPassword: '',
      });
      const list = await env().app.inject({ method: 'GET', url: '/api/accounts', headers: user.headers });
      expect(list.json().data[0]).toMatchObject({ id: account.id, status: 'success', inTikTok: true, inInstagram: true });
      expect(shown.connections.map(({ platform, method, state }) => ({ platform, method, state }))).toEqual([
        { platform: 'tiktok', method: 'oauth', state: 'connected' },
        { platform: 'instagram', method: 'oauth', state: 'connected' },
      ]);
      expect(shown.connections.every((connection) => connection.name)).toBe(true);
      expect(JSON.stringify(shown)).not.toMatch(/sandbox-(tt|ig)-/);

      const { rows } = await env().db.sql(`SELECT * FROM account_connections WHERE account_id = $1 AND platform = 'tiktok'`, [account.id]);
      expect(rows[0].refresh_token).toMatch(/^v1\./);
      const slot = { table: 'account_connections', rowId: account.id, column: 'tiktok_refresh_token' };
      expect(decryptSecret(env().tokenSettings.keys.secretsAtRest, slot, rows[0].refresh_token)).toContain('.');

      // SPEC's rule: TikTok on needs its string, unless the profile is connected through the link.
      const saved = await env().app.inject({
        method: 'PATCH',
        url: `/api/accounts/${account.id}`,
        headers: user.headers,
        payload: { proxy: network().proxy.url, comments: `${label} renamed`, isActiveTikTok: true, isActiveInstagram: true },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const unlinked = await createAccount(env(), user, { proxy: network().proxy.url });
      const refused = await env().app.inject({
        method: 'PATCH',
        url: `/api/accounts/${unlinked.id}`,
        headers: user.headers,
        payload: { proxy: network().proxy.url, isActiveTikTok: true },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toContain(t.accountForm.tiktokRequired);
    });

    it('ten publishes meeting an expired token make exactly one refresh, and the rotated credential keeps working', async () => {
      const user = await createUser(env(), 'operator');
      const { account } = await linkedProfile(user, 'race');
      clock.now += 25_000;
      await env().db.sql(`UPDATE account_connections SET access_expires_at = now() - interval '1 second' WHERE account_id = $1`, [
        account.id,
      ]);
      await sandboxControl(env().app, { method: 'DELETE', url: '/sandbox/_calls' });

      const key = env().tokenSettings.keys.secretsAtRest;
      const tokens = await Promise.all(
        Array.from({ length: 10 }, () => freshAccessToken(env().db, key, settings(), network().proxy.url, account.id, 'tiktok')),
      );
      expect(new Set(tokens).size).toBe(1);
      const { calls } = (await sandboxControl(env().app, { url: '/sandbox/_calls' })).json<{
        calls: Record<string, Record<string, number>>;
      }>();
      expect(Object.entries(calls.tiktok).filter(([endpoint]) => endpoint.includes('oauth/token'))).toEqual([
        [expect.stringContaining('oauth/token'), 1],
      ]);

      // The stored refresh token is the rotated one: another refresh works.
      clock.now += 25_000;
      const again = await freshAccessToken(env().db, key, settings(), network().proxy.url, account.id, 'tiktok', { stale: tokens[0] });
      expect(again).not.toBe(tokens[0]);
    });

    it('the refresher renews Instagram before its token ends', async () => {
      const user = await createUser(env(), 'operator');
      const { account } = await linkedProfile(user, 'renew');
      const before = await env().db.sql(`SELECT access_token FROM account_connections WHERE account_id = $1 AND platform = 'instagram'`, [
        account.id,
      ]);
      // Half the token's life has passed for both the server and the sandbox.
      clock.now += 11_000;
      await env().db.sql(
        `UPDATE account_connections SET updated_at = updated_at - interval '11 seconds',
                access_expires_at = access_expires_at - interval '11 seconds' WHERE account_id = $1`,
        [account.id],
      );
      const failures: unknown[] = [];
      const renewed = await refreshDueConnections(env().db, env().tokenSettings.keys.secretsAtRest, settings(), (_id, _platform, error) =>
        failures.push(error),
      );
      expect(failures).toEqual([]);
      expect(renewed).toBeGreaterThanOrEqual(2);
      const after = await env().db.sql(`SELECT access_token FROM account_connections WHERE account_id = $1 AND platform = 'instagram'`, [
        account.id,
      ]);
      expect(after.rows[0].access_token).not.toBe(before.rows[0].access_token);
    });

    it('a revoked grant is told apart: the profile asks to reconnect, its owner is notified; reconnecting clears it', async () => {
      const user = await createUser(env(), 'operator');
      const { account, tiktokKey, label } = await linkedProfile(user, 'revoked');
      sandbox.revoke('tiktok', tiktokKey);
      clock.now += 25_000;
      await env().db.sql(`UPDATE account_connections SET access_expires_at = now() - interval '1 second' WHERE account_id = $1`, [
        account.id,
      ]);

      const key = env().tokenSettings.keys.secretsAtRest;
      const attempt = freshAccessToken(env().db, key, settings(), network().proxy.url, account.id, 'tiktok');
      await expect(attempt).rejects.toThrow(ProfileAuthError);
      await expect(attempt).rejects.toThrow(t.connections.revoked('TikTok'));

      const shown = await detail(user, account.id);
      expect(shown.status).toBe('error');
      expect(shown.error).toContain(t.health.kinds.revoked);
      expect(shown.connections.find((connection) => connection.platform === 'tiktok')).toMatchObject({ state: 'down', kind: 'revoked' });
      const bell = await env().app.inject({ method: 'GET', url: '/api/notifications', headers: user.headers });
      expect(bell.json<NotificationList>().items).toContainEqual(
        expect.objectContaining({ kind: 'credentials_failed', account: expect.objectContaining({ id: account.id }) }),
      );

      expect(await connect(user, account.id, 'tiktok', `${label}@tiktok`)).toBe(`/accounts/${account.id}?tiktok=connected`);
      const reconnected = await detail(user, account.id);
      expect(reconnected.error).toBeNull();
      expect(reconnected.connections.find((connection) => connection.platform === 'tiktok')?.state).toBe('connected');
      expect(await freshAccessToken(env().db, key, settings(), network().proxy.url, account.id, 'tiktok')).toContain('.');
    });

    it('tells the owner once when a TikTok refresh token has under 14 days left', async () => {
      const user = await createUser(env(), 'operator');
      const { account } = await linkedProfile(user, 'ending');
      const refresher = () => refreshDueConnections(env().db, env().tokenSettings.keys.secretsAtRest, settings(), () => undefined);
      await refresher();
      const ending = async () => {
        const bell = await env().app.inject({ method: 'GET', url: '/api/notifications', headers: user.headers });
        return bell.json<NotificationList>().items.filter((item) => item.kind === 'credentials_ending');
      };
      expect(await ending()).toEqual([]);

      // A grant given 170 days ago whose refresh token ends in 10 days (TikTok's 180).
      await env().db.sql(
        `UPDATE account_connections SET granted_at = now() - interval '170 days', refresh_expires_at = now() + interval '10 days'
          WHERE account_id = $1 AND platform = 'tiktok'`,
        [account.id],
      );
      await refresher();
      await refresher();
      const notices = await ending();
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({
        platform: 'tiktok',
        account: { id: account.id },
        message: `TikTok: ${t.connections.ending('TikTok', 10)}`,
      });
    });

    it('a state is single-use and bound to its platform; a denied consent says so', async () => {
      const user = await createUser(env(), 'operator');
      const account = await createAccount(env(), user, { proxy: network().proxy.url });
      const link = await fetch(`${network().baseUrl}/api/accounts/connect-tiktok/${account.id}`, { method: 'POST', headers: user.headers });
      const flow = await openConsentLink(link);
      const state = new URL(flow.url).searchParams.get('state')!;
      const elsewhere = await fetch(`${network().baseUrl}/api/oauth/instagram/callback?code=x&state=${state}`, {
        headers: { cookie: flow.cookie },
        redirect: 'manual',
      });
      expect(new URL(elsewhere.headers.get('location')!, network().baseUrl).pathname).toBe('/accounts/list');
      const denied = await answerSandboxConsent(flow, 'deny', 'follow');
      expect(new URL(denied.url).searchParams.get('tiktokError')).toBe(t.connections.denied('TikTok'));
    });

    it('live mode without the app credentials refuses the link in Ukrainian', async () => {
      const user = await createUser(env(), 'operator');
      const account = await createAccount(env(), user, { proxy: network().proxy.url });
      const live = await buildLiveApp(env());
      try {
        const response = await live.inject({ method: 'POST', url: `/api/accounts/connect-instagram/${account.id}`, headers: user.headers });
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toBe(t.connections.appMissing('Instagram', 'INSTAGRAM_APP_ID і INSTAGRAM_APP_SECRET'));
      } finally {
        await live.close();
      }
    });
  },
  { sandbox },
);
