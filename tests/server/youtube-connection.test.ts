import crypto from 'node:crypto';
import { beforeEach, expect, it, vi } from 'vitest';
import { t } from '../../server/messages';
import { decryptSecret, secretsOfRow } from '../../server/auth/secrets';
import { syncProfileStats } from '../../server/jobs/sync-stats';
import { moveLegacyYouTubeTokens, notifyEndingGrants } from '../../server/platforms/connections';
import { profileContext } from '../../server/platforms/profile-context';
import { memoryProgressStore } from '../../server/platforms/progress';
import { SandboxState } from '../../server/sandbox/index';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, type TestEnv, testJobContext, withSandboxServer } from './helpers';
import { publishPayload, renderedRequest } from './publishing-fixtures';

const day = 24 * 3600_000;
const tokenRoute = 'POST /oauth2.googleapis.com/token';
/** The sandbox's YouTube account of a profile: its own OAuth client's channel. */
const channelOf = (clientId: string) => Buffer.from(clientId).toString('base64url');

/** The suite's shared pieces: a listening app whose sandbox counts every Google token request. */
function useYouTubeProfiles(env: () => TestEnv, sandbox: SandboxState) {
  const network = withSandboxServer(env);
  beforeEach(() => {
    sandbox.faults.splice(0);
    sandbox.resetCalls();
  });

  const tokenRequests = () => sandbox.calls.youtube[tokenRoute] ?? 0;

  async function connect(user: TestUser, accountId: number) {
    const link = await fetch(`${network().baseUrl}/api/accounts/connect-youtube/${accountId}`, { method: 'POST', headers: user.headers });
    const followed = await answerSandboxConsent(link);
    expect(new URL(followed.url).search).toBe('?youtube=connected');
  }

  async function connectedProfile(user: TestUser, name: string) {
    const clientId = `${name}-${env().kind}-${crypto.randomUUID().slice(0, 6)}.apps.googleusercontent.com`;
    const account = await createAccount(env(), user, {
      proxy: network().proxy.url,
      comments: name,
      isActiveYouTube: true,
      YouTubeAuthClientId: clientId,
      YouTubeAuthClientSecret: 'client-secret',
    });
    await connect(user, account.id);
    return { account, clientId };
  }

  async function publishOne(user: TestUser, accountId: number) {
    const request = await renderedRequest(env(), user.id, 1);
    const response = await env().app.inject({
      method: 'POST',
      url: `/api/upload-video/${request.idUpload}`,
      headers: user.headers,
      payload: publishPayload(request, [accountId]),
    });
    expect(response.statusCode, response.body).toBe(200);
    const videoId = request.videos[0]!.id;
    return async () =>
      (await env().db.sql(`SELECT status, wait_kind, next_attempt_at, failure FROM video_posts WHERE video_id = $1`, [videoId])).rows[0];
  }

  /** Makes the stored access token one that ended a second ago, after its hour. */
  const expireStoredToken = (accountId: number) =>
    env().db.sql(
      `UPDATE account_connections SET access_expires_at = now() - interval '1 second', updated_at = now() - interval '1 hour'
        WHERE account_id = $1 AND platform = 'youtube'`,
      [accountId],
    );

  /** The YouTube context a publish or a stats sync of the profile builds, optionally through another proxy. */
  async function contextOf(accountId: number, proxy?: string) {
    const row = (await env().db.sql(`SELECT * FROM accounts WHERE id = $1`, [accountId])).rows[0];
    const credentials = {
      id: row.id,
      proxy: proxy ?? row.proxy,
      proxyPassword: proxy ? null : row.proxy_password,
      inYouTube: row.in_youtube,
      youtubeClientId: row.youtube_client_id,
      instagramLogin: null,
      instagramUserId: null,
    };
    return profileContext(credentials, 'youtube', {
      db: env().db,
      secretsKey: env().tokenSettings.keys.secretsAtRest,
      settings: env().platforms,
      progress: memoryProgressStore(),
    });
  }

  return { tokenRequests, connect, connectedProfile, publishOne, expireStoredToken, contextOf };
}

const sandbox = new SandboxState();

describeEachDatabase(
  'YouTube’s link in account_connections',
  (env) => {
    const profiles = useYouTubeProfiles(env, sandbox);

    const jobContext = () => testJobContext(env());

    it('a publish and a stats sync reuse the access token the consent gave, asking Google for none', { timeout: 60_000 }, async () => {
      const user = await createUser(env(), 'operator');
      const { account } = await profiles.connectedProfile(user, 'reuse');
      sandbox.resetCalls();

      const post = await profiles.publishOne(user, account.id);
      await vi.waitFor(async () => expect(await post()).toMatchObject({ status: 'done' }), { timeout: 30_000, interval: 250 });
      const result = await syncProfileStats({ accountId: account.id, platform: 'youtube' }, jobContext());
      expect(result).toMatchObject({ updated: 1 });
      expect(profiles.tokenRequests()).toBe(0);

      // Past its hour, the next use asks once and stores the new token for the ones after.
      await profiles.expireStoredToken(account.id);
      await syncProfileStats({ accountId: account.id, platform: 'youtube' }, jobContext());
      await syncProfileStats({ accountId: account.id, platform: 'youtube' }, jobContext());
      expect(profiles.tokenRequests()).toBe(1);
    });

    it('ten publishes meeting the end of the access token cause exactly one refresh', async () => {
      const user = await createUser(env(), 'operator');
      const { account } = await profiles.connectedProfile(user, 'ten');
      await profiles.expireStoredToken(account.id);
      sandbox.resetCalls();

      const contexts = await Promise.all(Array.from({ length: 10 }, () => profiles.contextOf(account.id)));
      expect(profiles.tokenRequests()).toBe(1);
      expect(new Set(contexts.map((context) => context.credentials.accessToken)).size).toBe(1);
    });

    it(
      'a grant revoked at Google marks the profile and notifies its owner; its posts wait, and go out once it is connected again',
      { timeout: 90_000 },
      async () => {
        const user = await createUser(env(), 'operator');
        const { account, clientId } = await profiles.connectedProfile(user, 'revoked');
        sandbox.revoke('youtube', channelOf(clientId));

        // The stored access token dies with the grant: the upload's 401 asks for a new one, and Google answers invalid_grant.
        const post = await profiles.publishOne(user, account.id);
        await vi.waitFor(async () => expect(await post()).toMatchObject({ status: 'pending', wait_kind: 'reconnect' }), {
          timeout: 30_000,
          interval: 250,
        });
        expect((await post()).next_attempt_at).toBeNull();
        const profile = await env().app.inject({ method: 'GET', url: `/api/accounts/${account.id}`, headers: user.headers });
        expect(profile.json()).toMatchObject({
          status: 'error',
          error: expect.stringContaining(t.health.kinds.revoked),
          health: { youtube: { state: 'down', kind: 'revoked', source: 'publish' } },
          connections: [{ platform: 'youtube', method: 'oauth', state: 'down', kind: 'revoked' }],
        });
        const { rows: notices } = await env().db.sql(`SELECT kind, failure_code FROM notifications WHERE account_id = $1`, [account.id]);
        expect(notices).toEqual([{ kind: 'credentials_failed', failure_code: 'revoked' }]);

        await profiles.connect(user, account.id);
        await vi.waitFor(async () => expect(await post()).toMatchObject({ status: 'done', wait_kind: null }), {
          timeout: 30_000,
          interval: 250,
        });
        const after = await env().app.inject({ method: 'GET', url: `/api/accounts/${account.id}`, headers: user.headers });
        expect(after.json()).toMatchObject({ status: 'success', connections: [{ platform: 'youtube', state: 'connected' }] });
      },
    );

    it('an outage of Google’s token endpoint is retried, not taken for a revoked grant', { timeout: 60_000 }, async () => {
      const user = await createUser(env(), 'operator');
      const { account } = await profiles.connectedProfile(user, 'outage');
      await profiles.expireStoredToken(account.id);
      // A proxy that does not answer: the token request fails on the network, as in an outage.
      await expect(profiles.contextOf(account.id, '127.0.0.1:1')).rejects.toThrow(t.platform.proxyUnreachable);
      const { rows } = await env().db.sql(
        `SELECT c.state, s.state AS shown FROM account_connections AS c
           LEFT JOIN connection_states AS s ON s.account_id = c.account_id AND s.platform = c.platform WHERE c.account_id = $1`,
        [account.id],
      );
      expect(rows).toEqual([{ state: 'connected', shown: 'connected' }]);
    });

    it(
      'a refresh token stored the old way, in the profile’s row, is moved once at startup and publishes',
      { timeout: 60_000 },
      async () => {
        const user = await createUser(env(), 'operator');
        const { account } = await profiles.connectedProfile(user, 'legacy');
        const key = env().tokenSettings.keys.secretsAtRest;
        // What a connection made before YouTube's link moved left behind: the refresh token in accounts, no access token anywhere.
        const { rows } = await env().db.sql(`SELECT refresh_token FROM account_connections WHERE account_id = $1`, [account.id]);
        const refreshToken = decryptSecret(
          key,
          { table: 'account_connections', rowId: account.id, column: 'youtube_refresh_token' },
          rows[0].refresh_token,
        );
        await env().db.sql(`DELETE FROM account_connections WHERE account_id = $1`, [account.id]);
        await env().db.sql(`UPDATE accounts SET youtube_refresh_token = $2 WHERE id = $1`, [
          account.id,
          secretsOfRow(key, 'accounts', account.id).seal('youtube_refresh_token', refreshToken),
        ]);

        // Several processes starting at once move it once.
        const runs = await Promise.all([moveLegacyYouTubeTokens(env().db, key), moveLegacyYouTubeTokens(env().db, key)]);
        expect(runs.reduce((sum, run) => sum + run.moved, 0)).toBe(1);
        expect(await moveLegacyYouTubeTokens(env().db, key)).toEqual({ moved: 0, unreadable: 0 });
        const { rows: profile } = await env().db.sql(`SELECT youtube_refresh_token FROM accounts WHERE id = $1`, [account.id]);
        expect(profile[0].youtube_refresh_token).toBeNull();

        sandbox.resetCalls();
        const post = await profiles.publishOne(user, account.id);
        await vi.waitFor(async () => expect(await post()).toMatchObject({ status: 'done' }), { timeout: 30_000, interval: 250 });
        expect(profiles.tokenRequests()).toBe(1);
      },
    );
  },
  { queue: 'work', sandbox },
);

const testingClock = { now: Date.now() };
const testingSandbox = new SandboxState({ youtubeAppInTesting: true, now: () => testingClock.now });

describeEachDatabase(
  'YouTube’s link of an app in testing (YOUTUBE_APP_IN_TESTING=1)',
  (env) => {
    const profiles = useYouTubeProfiles(env, testingSandbox);

    it('records the refresh token’s 7-day end, warns 2 days ahead, and a token past it waits for a new consent', async () => {
      const user = await createUser(env(), 'operator');
      const { account } = await profiles.connectedProfile(user, 'testing');
      const ends = async () =>
        (
          await env().db.sql(`SELECT refresh_expires_at, state FROM account_connections WHERE account_id = $1 AND platform = 'youtube'`, [
            account.id,
          ])
        ).rows[0];
      expect(Math.abs(new Date((await ends()).refresh_expires_at).getTime() - (Date.now() + 7 * day))).toBeLessThan(60_000);

      const notices = async () =>
        (await env().db.sql(`SELECT kind, message FROM notifications WHERE account_id = $1 ORDER BY id`, [account.id])).rows;
      // Four days in: nothing yet.
      const age = (hours: number) =>
        env().db.sql(
          `UPDATE account_connections SET granted_at = granted_at - make_interval(hours => $2),
                  refresh_expires_at = refresh_expires_at - make_interval(hours => $2) WHERE account_id = $1`,
          [account.id, hours],
        );
      await age(4 * 24);
      await notifyEndingGrants(env().db, new Date());
      expect(await notices()).toEqual([]);
      // Five and a half days in: under two days left, told once.
      await age(36);
      await notifyEndingGrants(env().db, new Date());
      await notifyEndingGrants(env().db, new Date());
      expect(await notices()).toEqual([{ kind: 'credentials_ending', message: `YouTube: ${t.connections.ending('YouTube', 2)}` }]);

      // Google's side: past 7 days the refresh token is refused, and the link is marked for a new consent.
      testingClock.now += 7 * day;
      await profiles.expireStoredToken(account.id);
      await expect(profiles.contextOf(account.id)).rejects.toThrow(t.connections.revoked('YouTube'));
      expect((await ends()).state).toBe('revoked');
    });
  },
  { sandbox: testingSandbox, youtubeAppInTesting: true },
);
