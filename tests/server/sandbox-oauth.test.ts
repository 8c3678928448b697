import { describe, expect, it } from 'vitest';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';
import { bearer, control, form, jsonPost, useSandbox, type SandboxEnv } from './sandbox-helpers';

const accountKey = (login: string) => Buffer.from(login).toString('base64url');
const redirectUri = 'https://app.example/callback';
const hour = 3600_000;
const day = 24 * hour;

async function tiktokCode(env: SandboxEnv, login: string) {
  const consent = new URL(`${env.base}/www.tiktok.com/v2/auth/authorize/`);
  consent.search = new URLSearchParams({
    client_key: 'sandbox-client',
    scope: 'user.info.basic,video.publish',
    redirect_uri: redirectUri,
    state: 'st-1',
    response_type: 'code',
  }).toString();
  const page = await fetch(consent);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('Дозволити');
  expect(html).toContain('Скасувати');
  const answer = await answerSandboxConsent(consent.toString(), 'allow', 'manual', { username: login });
  expect(answer.status).toBe(302);
  const back = new URL(answer.headers.get('location')!);
  expect(back.origin + back.pathname).toBe(redirectUri);
  expect(back.searchParams.get('state')).toBe('st-1');
  expect(back.searchParams.get('scopes')).toBe('user.info.basic,video.publish');
  return back.searchParams.get('code')!;
}

const tiktokToken = (env: SandboxEnv, fields: Record<string, string>) =>
  fetch(`${env.base}/open.tiktokapis.com/v2/oauth/token/`, form({ client_key: 'sandbox-client', client_secret: 'secret', ...fields }));

async function tiktokTokens(env: SandboxEnv, login: string) {
  const code = await tiktokCode(env, login);
  const response = await tiktokToken(env, { grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, any>;
}

const creatorInfo = (env: SandboxEnv, token: string) =>
  fetch(`${env.base}/open.tiktokapis.com/v2/post/publish/creator_info/query/`, jsonPost({}, token));

describe('TikTok Login Kit in the sandbox, at the platform’s own lifetimes', () => {
  const env = useSandbox();

  it('consent → code → tokens with TikTok’s lifetimes; the code works once; a declined consent redirects with access_denied', async () => {
    const code = await tiktokCode(env(), 'alice');
    const first = await tiktokToken(env(), { grant_type: 'authorization_code', code, redirect_uri: redirectUri });
    const tokens = (await first.json()) as Record<string, any>;
    expect(tokens).toMatchObject({
      expires_in: 7200,
      refresh_expires_in: 180 * 24 * 3600,
      scope: 'user.info.basic,video.publish',
      token_type: 'Bearer',
      open_id: expect.any(String),
    });
    expect((await (await creatorInfo(env(), tokens.access_token)).json()).data.creator_nickname).toBe('alice');

    const again = await tiktokToken(env(), { grant_type: 'authorization_code', code, redirect_uri: redirectUri });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.any(String), log_id: expect.any(String) });

    const consent = `${env().base}/www.tiktok.com/v2/auth/authorize/?client_key=c&scope=video.publish&redirect_uri=${encodeURIComponent(redirectUri)}&state=s&response_type=code`;
    const declined = await answerSandboxConsent(consent, 'deny', 'manual');
    const back = new URL(declined.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
    expect(back.searchParams.get('state')).toBe('s');
  });

  it('refuses a consent request without a valid redirect_uri instead of showing the page', async () => {
    const response = await fetch(
      `${env().base}/www.tiktok.com/v2/auth/authorize/?client_key=c&scope=x&redirect_uri=nowhere&response_type=code`,
    );
    expect(response.status).toBe(400);
  });

  it('an access token expires after 2 hours; a refresh rotates the refresh token, and the used one is refused', async () => {
    const tokens = await tiktokTokens(env(), 'bob');
    env().clock.now += 2 * hour;
    const expired = await creatorInfo(env(), tokens.access_token);
    expect(expired.status).toBe(401);
    expect((await expired.json()).error.code).toBe('access_token_invalid');

    const refreshed = await tiktokToken(env(), { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as Record<string, any>;
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect((await creatorInfo(env(), next.access_token)).status).toBe(200);

    const reused = await tiktokToken(env(), { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(reused.status).toBe(400);
    expect((await reused.json()).error).toBe('invalid_grant');

    const wrongSecret = await tiktokToken(env(), {
      grant_type: 'refresh_token',
      refresh_token: next.refresh_token,
      client_secret: 'other',
    });
    expect((await wrongSecret.json()).error).toBe('invalid_client');
  });

  it('a refresh token expires after 180 days', async () => {
    const tokens = await tiktokTokens(env(), 'carol');
    env().clock.now += 180 * day;
    const late = await tiktokToken(env(), { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect((await late.json()).error).toBe('invalid_grant');
  });

  it('a revoked grant refuses its access and refresh tokens; a new consent works again', async () => {
    const tokens = await tiktokTokens(env(), 'dave');
    const revoke = await control(env(), '/_revoke', jsonPost({ platform: 'tiktok', account: accountKey('dave') }));
    expect(revoke.status).toBe(204);
    expect((await creatorInfo(env(), tokens.access_token)).status).toBe(401);
    const refresh = await tiktokToken(env(), { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect((await refresh.json()).error).toBe('invalid_grant');

    const again = await tiktokTokens(env(), 'dave');
    expect((await creatorInfo(env(), again.access_token)).status).toBe(200);
  });

  it('SPEC’s pasted access string ages from its first use, for the life of the grant behind it (180 days)', async () => {
    const pasted = 'sandbox-tt-pasted';
    expect((await creatorInfo(env(), pasted)).status).toBe(200);
    env().clock.now += 179 * day;
    expect((await creatorInfo(env(), pasted)).status).toBe(200);
    env().clock.now += day;
    expect((await creatorInfo(env(), pasted)).status).toBe(401);
  });
});

describe('SANDBOX_TOKEN_TTL_SECONDS shortens every access token', () => {
  const env = useSandbox({ tokenTtlSeconds: 60 });

  it('TikTok tokens from the consent, pasted strings and Google’s access tokens all die after 60 s', async () => {
    const tokens = await tiktokTokens(env(), 'erin');
    expect(tokens.expires_in).toBe(60);
    const pasted = 'sandbox-tt-erin';
    expect((await creatorInfo(env(), pasted)).status).toBe(200);

    const consent = `${env().base}/accounts.google.com/o/oauth2/v2/auth?client_id=yt-client&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code&scope=youtube&access_type=offline`;
    const back = new URL((await answerSandboxConsent(consent, 'allow', 'manual')).headers.get('location')!);
    const google = await fetch(
      `${env().base}/oauth2.googleapis.com/token`,
      form({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: redirectUri,
        client_id: 'yt-client',
        client_secret: 'yt-secret',
      }),
    );
    const googleTokens = (await google.json()) as Record<string, any>;
    expect(googleTokens.expires_in).toBe(59);
    const channels = () =>
      fetch(`${env().base}/www.googleapis.com/youtube/v3/channels?part=snippet&mine=true`, bearer(googleTokens.access_token));
    expect((await channels()).status).toBe(200);

    env().clock.now += 60_000;
    expect((await creatorInfo(env(), tokens.access_token)).status).toBe(401);
    expect((await creatorInfo(env(), pasted)).status).toBe(401);
    const expired = await channels();
    expect(expired.status).toBe(401);
    expect((await expired.json()).error.errors[0].reason).toBe('authError');

    const refreshed = await fetch(
      `${env().base}/oauth2.googleapis.com/token`,
      form({ grant_type: 'refresh_token', refresh_token: googleTokens.refresh_token, client_id: 'yt-client', client_secret: 'yt-secret' }),
    );
    const fresh = (await refreshed.json()) as Record<string, any>;
    expect(
      (await fetch(`${env().base}/www.googleapis.com/youtube/v3/channels?part=snippet&mine=true`, bearer(fresh.access_token))).status,
    ).toBe(200);
  });
});

async function instagramCode(env: SandboxEnv, login: string) {
  const consent = new URL(`${env.base}/www.instagram.com/oauth/authorize`);
  consent.search = new URLSearchParams({
    client_id: 'ig-app',
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'instagram_business_basic,instagram_business_content_publish',
    state: 'ig-state',
  }).toString();
  const html = await (await fetch(consent)).text();
  expect(html).toContain('Дозволити');
  const answer = await answerSandboxConsent(consent.toString(), 'allow', 'manual', { username: login });
  const back = new URL(answer.headers.get('location')!);
  expect(back.hash).toBe('#_');
  expect(back.searchParams.get('state')).toBe('ig-state');
  return back.searchParams.get('code')!;
}

describe('Instagram API with Instagram Login in the sandbox', () => {
  const env = useSandbox();
  const graph = (path: string) => fetch(`${env().base}/graph.instagram.com${path}`);

  it('code → short-lived token (1 h) → long-lived token (60 days) → refreshed once 24 h old', async () => {
    const code = await instagramCode(env(), 'ivy');
    const exchange = () =>
      fetch(
        `${env().base}/api.instagram.com/oauth/access_token`,
        form({ client_id: 'ig-app', client_secret: 'ig-secret', grant_type: 'authorization_code', redirect_uri: redirectUri, code }),
      );
    const short = (await (await exchange()).json()) as { data: { access_token: string; user_id: string; permissions: string }[] };
    const [{ access_token: shortToken, user_id: userId }] = short.data;
    expect(short.data[0].permissions).toBe('instagram_business_basic,instagram_business_content_publish');
    const me = (await (await graph(`/v21.0/me?fields=id,username&access_token=${shortToken}`)).json()) as Record<string, string>;
    expect(me).toEqual({ id: userId, username: 'ivy' });
    const reused = await exchange();
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error_type: 'OAuthException', code: 400 });

    const long = await (
      await graph(`/access_token?grant_type=ig_exchange_token&client_secret=ig-secret&access_token=${shortToken}`)
    ).json();
    expect(long).toMatchObject({ token_type: 'bearer', expires_in: 60 * 24 * 3600 });

    const tooEarly = await graph(`/refresh_access_token?grant_type=ig_refresh_token&access_token=${long.access_token}`);
    expect(tooEarly.status).toBe(400);

    env().clock.now += hour;
    const expiredShort = await graph(`/v21.0/me?access_token=${shortToken}`);
    expect((await expiredShort.json()).error).toMatchObject({ code: 190, error_subcode: 463, type: 'OAuthException' });
    env().clock.now += day;
    const renewed = await (await graph(`/refresh_access_token?grant_type=ig_refresh_token&access_token=${long.access_token}`)).json();
    expect(renewed).toMatchObject({ token_type: 'bearer', expires_in: 60 * 24 * 3600 });

    env().clock.now += 59 * day;
    expect((await graph(`/v21.0/me?access_token=${long.access_token}`)).status).toBe(400);
    expect((await graph(`/v21.0/me?access_token=${renewed.access_token}`)).status).toBe(200);
  });

  it('a revoked Instagram grant refuses its tokens with error 190', async () => {
    const code = await instagramCode(env(), 'jay');
    const short = await (
      await fetch(
        `${env().base}/api.instagram.com/oauth/access_token`,
        form({ client_id: 'ig-app', client_secret: 'ig-secret', grant_type: 'authorization_code', redirect_uri: redirectUri, code }),
      )
    ).json();
    await control(env(), '/_revoke', jsonPost({ platform: 'instagram', account: accountKey('jay') }));
    const refused = await graph(`/v21.0/me?access_token=${short.data[0].access_token}`);
    expect((await refused.json()).error).toMatchObject({ code: 190 });
  });
});

describe('Google’s sandbox refresh tokens, of an app in testing (YOUTUBE_APP_IN_TESTING=1)', () => {
  const env = useSandbox({ youtubeAppInTesting: true });

  async function googleTokens(clientId: string) {
    const consent = `${env().base}/accounts.google.com/o/oauth2/v2/auth?client_id=${clientId}&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code&scope=youtube&access_type=offline`;
    const back = new URL((await answerSandboxConsent(consent, 'allow', 'manual')).headers.get('location')!);
    const response = await fetch(
      `${env().base}/oauth2.googleapis.com/token`,
      form({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: redirectUri,
        client_id: clientId,
        client_secret: 's',
      }),
    );
    return (await response.json()) as Record<string, any>;
  }
  const refresh = (clientId: string, refreshToken: string) =>
    fetch(
      `${env().base}/oauth2.googleapis.com/token`,
      form({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, client_secret: 's' }),
    );

  it('expire after 7 days (an app in testing) with invalid_grant', async () => {
    const tokens = await googleTokens('client-a');
    expect(tokens.expires_in).toBe(3599);
    env().clock.now += 7 * day - 1000;
    expect((await refresh('client-a', tokens.refresh_token)).status).toBe(200);
    env().clock.now += 1000;
    const late = await refresh('client-a', tokens.refresh_token);
    expect(await late.json()).toEqual({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
  });

  it('die with a revoked grant, and a new consent works again; the calls are counted', async () => {
    const tokens = await googleTokens('client-b');
    await control(env(), '/_revoke', jsonPost({ platform: 'youtube', account: accountKey('client-b') }));
    expect((await refresh('client-b', tokens.refresh_token)).status).toBe(400);
    const channels = (token: string) => fetch(`${env().base}/www.googleapis.com/youtube/v3/channels?part=id&mine=true`, bearer(token));
    expect((await channels(tokens.access_token)).status).toBe(401);

    const again = await googleTokens('client-b');
    expect((await refresh('client-b', again.refresh_token)).status).toBe(200);
    expect((await channels(again.access_token)).status).toBe(200);

    const { calls } = await (await control(env(), '/_calls')).json();
    expect(calls.youtube['POST /oauth2.googleapis.com/token']).toBeGreaterThanOrEqual(7);
    expect(calls.youtube['POST /accounts.google.com/o/oauth2/v2/auth']).toBe(3);
  });
});

describe('Google’s sandbox refresh tokens, of a published app', () => {
  const env = useSandbox();

  it('keep working past 7 days, and the token answer names no end', async () => {
    const consent = `${env().base}/accounts.google.com/o/oauth2/v2/auth?client_id=client-p&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code&scope=youtube&access_type=offline`;
    const back = new URL((await answerSandboxConsent(consent, 'allow', 'manual')).headers.get('location')!);
    const token = (fields: Record<string, string>) =>
      fetch(`${env().base}/oauth2.googleapis.com/token`, form({ client_id: 'client-p', client_secret: 's', ...fields }));
    const granted = await (
      await token({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: redirectUri })
    ).json();
    expect(granted).not.toHaveProperty('refresh_token_expires_in');
    env().clock.now += 30 * day;
    const late = await token({ grant_type: 'refresh_token', refresh_token: granted.refresh_token });
    expect(late.status).toBe(200);
  });
});
