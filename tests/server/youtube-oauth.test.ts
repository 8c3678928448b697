import { expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { t } from '../../server/messages';
import { buildApp } from '../../server/app';
import { decryptSecret } from '../../server/auth/secrets';
import { googleOAuthEndpoints, redeemRefreshToken } from '../../server/platforms/youtube/oauth';
import { verifySandboxAccessToken } from '../../server/sandbox/youtube/oauth';
import { buildLiveApp, createUser, describeEachDatabase, testNetwork, withSandboxServer } from './helpers';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { answerSandboxConsent, openConsentLink, type ConsentFlow } from '../fixtures/sandbox-consent';
import { systemClock } from '../../server/clock';

describeEachDatabase('YouTube OAuth with the Google sandbox', (env) => {
  const network = withSandboxServer(env);

  async function youtubeAccount(user: TestUser, proxyUrl = network().proxy.url) {
    return createAccount(env(), user, {
      proxy: proxyUrl,
      isActiveYouTube: true,
      YouTubeAuthClientId: 'client-123.apps.googleusercontent.com',
      YouTubeAuthClientSecret: 'client-secret-123',
    });
  }

  async function consentLink(user: TestUser, accountId: number): Promise<string> {
    const response = await fetch(`${network().baseUrl}/api/accounts/connect-youtube/${accountId}`, {
      method: 'POST',
      headers: user.headers,
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { url: string }).url;
  }

  /** The link opened in a browser, which it binds the flow to: Google's consent page, and the cookie. */
  async function opened(user: TestUser, accountId: number): Promise<ConsentFlow> {
    return openConsentLink(await consentLink(user, accountId));
  }

  /** Where the sandbox consent page sends the browser: the callback URL with code and state, and the browser's cookie. */
  async function approve(flow: ConsentFlow): Promise<{ url: URL; cookie: string }> {
    const page = await fetch(flow.url);
    expect(await page.text()).toContain('Дозволити');
    const consent = await answerSandboxConsent(flow, 'allow', 'manual');
    expect(consent.status).toBe(302);
    return { url: new URL(consent.headers.get('location')!), cookie: flow.cookie };
  }

  /** The callback in the browser that opened the link. */
  async function callback({ url, cookie }: { url: URL | string; cookie: string }) {
    const response = await fetch(url, { headers: { cookie }, redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!, network().baseUrl);
    return { path: location.pathname, params: Object.fromEntries(location.searchParams) };
  }

  it('connects when the link is followed: code exchanged through the profile proxy, refresh token stored encrypted', async () => {
    const user = await createUser(env(), 'operator');
    const account = await youtubeAccount(user);
    expect(account.status).toBe('loading');
    const link = await consentLink(user, account.id);
    // This server's step first, which binds the browser opening the link, then Google's page.
    expect(link.startsWith(`${network().baseUrl}/api/oauth/youtube/start?`)).toBe(true);
    expect((await openConsentLink(link)).url.startsWith(`${network().baseUrl}/sandbox/accounts.google.com/o/oauth2/v2/auth?`)).toBe(true);

    // Following every redirect, as `curl -L` would, ends on the profile's page.
    network().proxy.traffic.length = 0;
    const followed = await answerSandboxConsent(link);
    expect(new URL(followed.url).pathname + new URL(followed.url).search).toBe(`/accounts/${account.id}?youtube=connected`);
    // The code's exchange, then the channel's name for "підключено як …" with the access token the
    // exchange gave (no second token request), all through the profile's proxy.
    expect(network().proxy.traffic.map(({ method, url }) => `${method} ${url.split('?')[0]}`)).toEqual([
      `POST ${network().baseUrl}/sandbox/oauth2.googleapis.com/token`,
      `GET ${network().baseUrl}/sandbox/www.googleapis.com/youtube/v3/channels`,
    ]);

    const { rows: profile } = await env().db.sql('SELECT in_youtube, youtube_refresh_token FROM accounts WHERE id = $1', [account.id]);
    expect(profile[0]).toEqual({ in_youtube: true, youtube_refresh_token: null });
    const { rows } = await env().db.sql(
      `SELECT refresh_token, access_token, access_expires_at, refresh_expires_at, checked_name FROM account_connections
        WHERE account_id = $1 AND platform = 'youtube'`,
      [account.id],
    );
    expect(rows[0].refresh_token).toMatch(/^v1\./);
    expect(rows[0].access_token).toMatch(/^v1\./);
    // Google's hour (3599 s answered), and no end for a published app's refresh token.
    expect(new Date(rows[0].access_expires_at).getTime() - Date.now()).toBeGreaterThan(3500_000);
    expect(rows[0].refresh_expires_at).toBeNull();
    expect(rows[0].checked_name).toBeTruthy();
    const refreshToken = decryptSecret(
      env().tokenSettings.keys.secretsAtRest,
      { table: 'account_connections', rowId: account.id, column: 'youtube_refresh_token' },
      rows[0].refresh_token,
    );
    const detail = await env().app.inject({ url: `/api/accounts/${account.id}`, headers: user.headers });
    expect(detail.json()).toMatchObject({ inYouTube: true, status: 'success' });
    expect(detail.body).not.toContain(refreshToken);

    // The stored token is one the token endpoint honours for a fresh access token.
    const tokens = await redeemRefreshToken(
      {
        network: testNetwork(),
        proxy: network().proxy.url,
        tokenUrl: googleOAuthEndpoints('sandbox', network().baseUrl).token,
        clientId: 'client-123.apps.googleusercontent.com',
        clientSecret: 'client-secret-123',
      },
      refreshToken,
    );
    expect(tokens).toMatchObject({ expiresIn: 3599, tokenType: 'Bearer', refreshToken: undefined });
    expect(await verifySandboxAccessToken(env().tokenSettings.keys.sandboxGoogle, tokens.accessToken)).toEqual({
      clientId: 'client-123.apps.googleusercontent.com',
      scope:
        'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl',
    });
  });

  it("follows Google's token endpoint contract", async () => {
    const user = await createUser(env(), 'operator');
    const account = await youtubeAccount(user);
    const { url: callbackUrl } = await approve(await opened(user, account.id));
    const code = callbackUrl.searchParams.get('code')!;
    const redirectUri = `${callbackUrl.origin}${callbackUrl.pathname}`;
    const token = async (form: Record<string, string>) => {
      const response = await fetch(`${network().baseUrl}/sandbox/oauth2.googleapis.com/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const client = { client_id: 'client-123.apps.googleusercontent.com', client_secret: 'client-secret-123' };

    expect(await token({ ...client, grant_type: 'password' })).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    expect(await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect(await token({ ...client, client_id: 'other', grant_type: 'authorization_code', code, redirect_uri: redirectUri })).toMatchObject(
      {
        status: 401,
        body: { error: 'invalid_client' },
      },
    );
    expect(await token({ ...client, grant_type: 'authorization_code', code, redirect_uri: 'http://evil.example/cb' })).toMatchObject({
      status: 400,
      body: { error: 'redirect_uri_mismatch' },
    });
    expect(await token({ ...client, grant_type: 'authorization_code', code: 'made-up', redirect_uri: redirectUri })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });

    // The link asked with a PKCE challenge: the code needs its verifier, kept with the state, and a
    // missing or wrong one leaves the code for the right one.
    const { rows } = await env().db.sql(`SELECT code_verifier FROM oauth_states WHERE account_id = $1`, [account.id]);
    const verifier = rows[0].code_verifier as string;
    expect(await token({ ...client, grant_type: 'authorization_code', code, redirect_uri: redirectUri })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Missing code verifier.' },
    });
    expect(
      await token({ ...client, grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: `${verifier}x` }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid code verifier.' } });

    const granted = await token({ ...client, grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier });
    expect(granted.status).toBe(200);
    expect(Object.keys(granted.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(await token({ ...client, grant_type: 'authorization_code', code, redirect_uri: redirectUri })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });

    const refreshToken = granted.body.refresh_token as string;
    const refreshed = await token({ ...client, grant_type: 'refresh_token', refresh_token: refreshToken });
    expect(refreshed.status).toBe(200);
    expect(Object.keys(refreshed.body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(await token({ ...client, client_secret: 'wrong', grant_type: 'refresh_token', refresh_token: refreshToken })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect(await token({ ...client, grant_type: 'refresh_token', refresh_token: granted.body.access_token as string })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });

  it('refuses a consent request without the parameters Google requires', async () => {
    const response = await fetch(
      `${network().baseUrl}/sandbox/accounts.google.com/o/oauth2/v2/auth?client_id=x&redirect_uri=http://a.example/cb&scope=s`,
      {
        redirect: 'manual',
      },
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('invalid_request');
  });

  it("shows a consent page, and 'Скасувати' brings the operator back to the profile unconnected", async () => {
    const user = await createUser(env(), 'operator');
    const account = await youtubeAccount(user);
    const flow = await opened(user, account.id);
    const page = await fetch(flow.url);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('client-123.apps.googleusercontent.com');
    expect(html).toContain('https://www.googleapis.com/auth/youtube');
    expect(html).toContain('Скасувати');

    const declined = await answerSandboxConsent(flow, 'deny', 'manual');
    const callbackUrl = new URL(declined.headers.get('location')!);
    expect(callbackUrl.searchParams.get('error')).toBe('access_denied');
    expect(callbackUrl.searchParams.has('code')).toBe(false);
    expect(await callback({ url: callbackUrl, cookie: flow.cookie })).toEqual({
      path: `/accounts/${account.id}`,
      params: { youtubeError: t.youtubeOauth.denied },
    });
    const { rows } = await env().db.sql('SELECT in_youtube FROM accounts WHERE id = $1', [account.id]);
    expect(rows[0].in_youtube).toBe(false);
  });

  it('sends a forged or expired link back to the profile list with a Ukrainian error', async () => {
    const forged = await callback({ url: `${network().baseUrl}/api/oauth/youtube/callback?code=x&state=forged`, cookie: '' });
    expect(forged).toEqual({ path: '/accounts/list', params: { youtubeError: t.youtubeOauth.linkExpired } });

    const user = await createUser(env(), 'operator');
    const account = await youtubeAccount(user);
    const back = await approve(await opened(user, account.id));
    await env().db.sql(`UPDATE oauth_states SET expires_at = now() - interval '1 second'`, []);
    expect(await callback(back)).toEqual({ path: '/accounts/list', params: { youtubeError: t.youtubeOauth.linkExpired } });
  });

  it('refuses a replayed state: a consent link connects once', async () => {
    const user = await createUser(env(), 'operator');
    const account = await youtubeAccount(user);
    const back = await approve(await opened(user, account.id));
    expect(await callback(back)).toEqual({ path: `/accounts/${account.id}`, params: { youtube: 'connected' } });
    expect(await callback(back)).toEqual({ path: '/accounts/list', params: { youtubeError: t.youtubeOauth.linkExpired } });
    // Two callbacks racing with one state: only one spends it.
    const raced = await approve(await opened(user, account.id));
    const results = await Promise.all([callback(raced), callback(raced)]);
    expect(results.filter((result) => result.params.youtube === 'connected')).toHaveLength(1);
  });

  it('binds the state to the user who asked: it fails once that user can no longer see the profile', async () => {
    const owner = await createUser(env(), 'operator');
    const admin = await createUser(env(), 'chief', { role: 'admin' });
    const account = await youtubeAccount(owner);
    const asked = await approve(await opened(admin, account.id));
    await env().db.sql(`UPDATE users SET role = 'user' WHERE id = $1`, [admin.id]);
    expect(await callback(asked)).toEqual({ path: '/accounts/list', params: { youtubeError: t.server.notFound } });
    const { rows } = await env().db.sql('SELECT in_youtube FROM accounts WHERE id = $1', [account.id]);
    expect(rows[0].in_youtube).toBe(false);
  });

  it('builds nothing from the Host header: a forged Host on the callback sends nothing anywhere but the configured endpoint', async () => {
    const evilRequests: string[] = [];
    const evil = http.createServer((request, response) => {
      evilRequests.push(`${request.method} ${request.url}`);
      response.end('{}');
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    const evilHost = `127.0.0.1:${(evil.address() as AddressInfo).port}`;
    try {
      const user = await createUser(env(), 'operator');
      const account = await youtubeAccount(user);
      const link = await fetch(`${network().baseUrl}/api/accounts/connect-youtube/${account.id}`, {
        method: 'POST',
        headers: { ...user.headers, host: evilHost, 'x-forwarded-host': evilHost },
      });
      const consentUrl = ((await link.json()) as { url: string }).url;
      expect(consentUrl).not.toContain(evilHost);
      const flow = await openConsentLink(consentUrl);
      expect(flow.url).not.toContain(evilHost);
      expect(new URL(flow.url).searchParams.get('redirect_uri')).toBe(`${network().baseUrl}/api/oauth/youtube/callback`);

      const { url: callbackUrl } = await approve(flow);
      network().proxy.traffic.length = 0;
      const landed = await env().app.inject({
        url: `${callbackUrl.pathname}${callbackUrl.search}`,
        headers: { host: evilHost, 'x-forwarded-host': evilHost, 'x-forwarded-proto': 'http', cookie: flow.cookie },
      });
      expect(landed.headers.location).toBe(`/accounts/${account.id}?youtube=connected`);
      expect(network().proxy.traffic.every(({ url }) => url.startsWith(`${network().baseUrl}/sandbox/`))).toBe(true);
      expect(network().proxy.traffic[0]).toMatchObject({ method: 'POST', url: `${network().baseUrl}/sandbox/oauth2.googleapis.com/token` });
      expect(evilRequests).toEqual([]);
    } finally {
      await new Promise((resolve) => evil.close(resolve));
    }
  });

  it('reports a refused consent on the profile page', async () => {
    const user = await createUser(env(), 'operator');
    const account = await youtubeAccount(user);
    const back = await approve(await opened(user, account.id));
    back.url.searchParams.delete('code');
    back.url.searchParams.set('error', 'access_denied');
    expect(await callback(back)).toEqual({ path: `/accounts/${account.id}`, params: { youtubeError: t.youtubeOauth.denied } });
  });

  it('fails the connection with a clear Ukrainian error when the profile proxy does not answer', async () => {
    const user = await createUser(env(), 'operator');
    const account = await youtubeAccount(user, '127.0.0.1:1');
    const result = await callback(await approve(await opened(user, account.id)));
    expect(result.path).toBe(`/accounts/${account.id}`);
    expect(result.params.youtubeError).toBe(t.platform.proxyUnreachable);
    const { rows } = await env().db.sql('SELECT in_youtube FROM accounts WHERE id = $1', [account.id]);
    expect(rows[0]).toEqual({ in_youtube: false });
    expect((await env().db.sql('SELECT 1 FROM account_connections WHERE account_id = $1', [account.id])).rows).toEqual([]);
  });

  it('uses the real Google endpoints and PUBLIC_URL in live mode, and mounts no sandbox', async () => {
    const live = await buildLiveApp(env(), 'https://office.example');
    try {
      const user = await createUser(env(), 'operator');
      const account = await youtubeAccount(user);
      const response = await live.inject({ method: 'POST', url: `/api/accounts/connect-youtube/${account.id}`, headers: user.headers });
      const link = new URL(response.json().url);
      expect(`${link.origin}${link.pathname}`).toBe('https://office.example/api/oauth/youtube/start');
      const opened = await live.inject({ url: `${link.pathname}${link.search}` });
      expect(opened.headers['set-cookie']).toMatch(/; Path=\/api\/oauth\/youtube\/callback; HttpOnly; Secure; SameSite=Lax$/);
      const url = new URL(opened.headers.location as string);
      expect(`${url.origin}${url.pathname}`).toBe('https://accounts.google.com/o/oauth2/v2/auth');
      expect(url.searchParams.get('redirect_uri')).toBe('https://office.example/api/oauth/youtube/callback');
      expect((await live.inject({ url: '/sandbox/accounts.google.com/o/oauth2/v2/auth' })).statusCode).toBe(404);
      expect(googleOAuthEndpoints('live', 'https://office.example').token).toBe('https://oauth2.googleapis.com/token');
    } finally {
      await live.close();
    }
    const { keys } = env().tokenSettings;
    await expect(
      buildApp({
        clock: systemClock,
        db: env().db,
        keys,
        tokenSettings: env().tokenSettings,
        queue: null,
        media: env().media,
        platforms: 'live',
      }),
    ).rejects.toThrow('PUBLIC_URL is required');
  });
});
