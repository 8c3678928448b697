import { expect, it } from 'vitest';
import { t } from '../../server/messages';
import { pkceChallenge } from '../../server/platforms/oauth-state';
import { answerSandboxConsent, openConsentLink, type ConsentFlow } from '../fixtures/sandbox-consent';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, withSandboxServer } from './helpers';

/**
 * Issue 29.2: a code is redeemed only by the consent flow that asked for it. The adversary held
 * another user's TikTok code and finished his own flow with it (his own state, her code); PKCE's
 * verifier, kept with each flow's state, now makes the platform refuse the exchange.
 */
describeEachDatabase('PKCE binds each consent code to its flow', (env) => {
  const network = withSandboxServer(env);

  /**
   * A profile of its own user. Both YouTube profiles share one Google client, as an agency may
   * reuse one: the client then tells their codes apart no more than TikTok's one app does.
   */
  async function profile(name: string, platform: 'tiktok' | 'youtube') {
    const user = await createUser(env(), `${name}-${platform}`);
    const youtube = {
      isActiveYouTube: true,
      YouTubeAuthClientId: 'shared.apps.googleusercontent.com',
      YouTubeAuthClientSecret: 'shared-secret',
    };
    const account = await createAccount(env(), user, { proxy: network().proxy.url, ...(platform === 'youtube' ? youtube : {}) });
    return { user, account };
  }

  /** The user's consent flow in their own browser: its consent page and the cookie that binds it there. */
  async function consentFlow(user: TestUser, accountId: number, platform: 'tiktok' | 'youtube') {
    const response = await fetch(`${network().baseUrl}/api/accounts/connect-${platform}/${accountId}`, {
      method: 'POST',
      headers: user.headers,
    });
    expect(response.status).toBe(200);
    return openConsentLink(response);
  }

  /** The callback the consent page sends the browser to, with the flow's code and state, not yet followed. */
  async function approved(link: string | ConsentFlow, login: string) {
    const consent = await answerSandboxConsent(link, 'allow', 'manual', { username: login });
    expect(consent.status).toBe(302);
    return new URL(consent.headers.get('location')!);
  }

  /** The callback in the browser holding `cookie`: each user brings the code to their own browser's callback. */
  async function callback(url: URL, cookie: string) {
    const response = await fetch(url, { headers: { cookie }, redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!, network().baseUrl);
    return { path: location.pathname, params: Object.fromEntries(location.searchParams) };
  }

  async function connections(accountId: number) {
    const { rows } = await env().db.sql(`SELECT platform, method FROM account_connections WHERE account_id = $1`, [accountId]);
    return rows;
  }

  for (const platform of ['tiktok', 'youtube'] as const) {
    it(`${platform}: a code replayed into another user's flow is refused, and the flow it belongs to still connects`, async () => {
      const alice = await profile('alice', platform);
      const mallory = await profile('mallory', platform);

      const aliceFlow = await consentFlow(alice.user, alice.account.id, platform);
      const asked = new URL(aliceFlow.url).searchParams;
      expect(asked.get('code_challenge_method')).toBe('S256');
      expect(asked.get('code_challenge')).toMatch(/^[\w-]{43}$/);
      // The verifier stays on the server: the link carries only its hash.
      const { rows } = await env().db.sql(`SELECT code_verifier FROM oauth_states WHERE account_id = $1`, [alice.account.id]);
      expect(rows[0].code_verifier).toMatch(/^[\w-]{43,128}$/);
      expect(pkceChallenge(rows[0].code_verifier)).toBe(asked.get('code_challenge'));
      expect(aliceFlow.url).not.toContain(rows[0].code_verifier);
      const aliceBack = await approved(aliceFlow, `alice-${env().kind}`);

      // Mallory starts his own flow and brings Alice's code to his own callback, with his own state,
      // in his own browser: the cookie lets it through, PKCE refuses it.
      const malloryFlow = await consentFlow(mallory.user, mallory.account.id, platform);
      const malloryBack = await approved(malloryFlow, `mallory-${env().kind}`);
      const replay = new URL(malloryBack);
      replay.searchParams.set('code', aliceBack.searchParams.get('code')!);
      const refused = await callback(replay, malloryFlow.cookie);
      expect(refused.path).toBe(`/accounts/${mallory.account.id}`);
      const errorParam = platform === 'tiktok' ? 'tiktokError' : 'youtubeError';
      const failed = platform === 'tiktok' ? t.connections.exchangeFailed('TikTok') : t.youtubeOauth.exchangeFailed;
      expect(refused.params[errorParam]).toMatch(new RegExp(`^${failed}: invalid_(request|grant)`));
      expect(await connections(mallory.account.id)).toEqual([]);

      // Alice's flow, whose verifier matches her code, connects her profile.
      const connected = await callback(aliceBack, aliceFlow.cookie);
      expect(connected).toEqual({ path: `/accounts/${alice.account.id}`, params: { [platform]: 'connected' } });
      expect(await connections(alice.account.id)).toEqual([{ platform, method: 'oauth' }]);
      expect(await connections(mallory.account.id)).toEqual([]);
    });
  }

  it("TikTok's token endpoint refuses a missing or wrong verifier and keeps the code for the right one", async () => {
    const verifier = 'v'.repeat(43);
    const redirectUri = 'http://127.0.0.1:9/callback';
    const authorize = `${network().baseUrl}/sandbox/www.tiktok.com/v2/auth/authorize/?${new URLSearchParams({
      client_key: 'pkce-app',
      scope: 'user.info.basic',
      response_type: 'code',
      redirect_uri: redirectUri,
      state: 's',
      code_challenge: pkceChallenge(verifier),
      code_challenge_method: 'S256',
    })}`;
    const code = (await approved(authorize, 'pkce-tester')).searchParams.get('code')!;
    const token = async (extra: Record<string, string>) => {
      const response = await fetch(`${network().baseUrl}/sandbox/open.tiktokapis.com/v2/oauth/token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_key: 'pkce-app',
          client_secret: 'secret',
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          ...extra,
        }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const invalid = { status: 400, body: { error: 'invalid_request', error_description: 'Code verifier or code challenge is invalid.' } };
    expect(await token({})).toMatchObject(invalid);
    expect(await token({ code_verifier: 'w'.repeat(43) })).toMatchObject(invalid);
    expect(await token({ code_verifier: verifier })).toMatchObject({ status: 200, body: { token_type: 'Bearer' } });
    expect(await token({ code_verifier: verifier })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const plain = await answerSandboxConsent(
      authorize.replace('code_challenge_method=S256', 'code_challenge_method=plain'),
      'allow',
      'manual',
      {
        username: 'pkce-tester',
      },
    );
    expect(plain.status).toBe(400);
  });
});
