import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../server/clock';
import { PlatformNetworkError, type PlatformNetwork } from '../../server/net/http';
import { withRetry } from '../../server/net/retry';
import { platformEndpoints } from '../../server/platforms/endpoints';
import { PostingCapError, ProfileAuthError, quotaRetryMs } from '../../server/platforms/errors';
import { facebookPlatform } from '../../server/platforms/facebook';
import { facebook, type FacebookCredentials } from '../../server/platforms/facebook/connector';
import { facebookLink } from '../../server/platforms/facebook/oauth';
import { OAuthGrantError, type GrantedTokens, type LinkEndpoints } from '../../server/platforms/oauth-links';
import { memoryProgressStore } from '../../server/platforms/progress';
import { publishKey, type ConnectorContext, type PublishProgressStore, type VideoUpload } from '../../server/platforms/types';
import { facebookPagesOf } from '../../server/sandbox/facebook/pages';
import { accountOfLogin } from '../../server/sandbox/consent';
import { startLoopbackProxy, type LoopbackProxy } from '../../server/sandbox/loopback-proxy';
import { makeClip, testTools } from '../fixtures/media';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';
import { testNetwork } from './helpers';
import { useSandbox } from './sandbox-helpers';

const app = { id: 'sandbox-facebook', secret: 'sandbox-facebook-secret' };
const redirectUri = 'https://office.example/api/oauth/facebook/callback';

let mediaDir: string;
let clip: { path: string; size: number; sha256: string };
beforeAll(async () => {
  mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platforms-facebook-'));
  const file = path.join(mediaDir, 'reel.mp4');
  // A Reel as Meta's specification has it: 9:16, at least 540 × 960, 3 to 90 seconds, 24 to 60 frames a second.
  await makeClip(testTools(), file, { size: '540x960', rate: 30, seconds: 3.5 });
  const bytes = fs.readFileSync(file);
  clip = { path: file, size: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
});
afterAll(() => fs.rmSync(mediaDir, { recursive: true, force: true }));

const reel = (videoId: number): VideoUpload => ({
  path: clip.path,
  size: clip.size,
  contentType: 'video/mp4',
  title: 'Ранкова пробіжка',
  description: 'Опис відео для перевірки',
  tags: ['біг', 'ранок'],
  publishKey: publishKey(videoId, 'facebook'),
  options: {},
});

/** The network a profile's calls take, noting the offset and length of every upload request. */
function recordingNetwork() {
  const network = testNetwork();
  const uploads: { offset: string; length: string }[] = [];
  const recording: PlatformNetwork = {
    ...network,
    fetch: (proxy, url, init) => {
      if (url.includes('/rupload.facebook.com/')) {
        const headers = init?.headers as Record<string, string>;
        uploads.push({ offset: headers.offset!, length: headers['content-length']! });
      }
      return network.fetch(proxy, url, init);
    },
  };
  return { uploads, network: recording };
}

describe('Facebook Reels connector and consent link against the sandbox', () => {
  const env = useSandbox();
  let proxy: LoopbackProxy;
  const proxyUrl = () => `http://operator:${encodeURIComponent('p@ss:w0rd')}@127.0.0.1:${proxy.port}`;
  const origin = () => env().base.replace(/\/sandbox$/, '');
  const linkEndpoints = (): LinkEndpoints => ({ mode: 'sandbox', publicUrl: origin(), platformsOrigin: origin(), network: testNetwork() });

  beforeAll(async () => {
    proxy = await startLoopbackProxy({ username: 'operator', password: 'p@ss:w0rd' });
  });
  afterAll(async () => {
    await proxy.close();
  });
  beforeEach(() => {
    env().state.faults.splice(0);
    env().state.requests.splice(0);
    env().state.videos.splice(0);
    proxy.traffic.splice(0);
  });

  /** Meta's dialog answered as the person would: signed in as `person`, `page` alone ticked, or every Page when absent. */
  async function link(person: string, page?: string): Promise<GrantedTokens> {
    const consent = facebookLink.consentUrl(linkEndpoints(), app, redirectUri, 'flow-state', 'unused-challenge');
    const chosen: Record<string, string> = page ? { page_choice: '1', page } : {};
    const back = new URL(
      (await answerSandboxConsent(consent, 'allow', 'manual', { username: person, ...chosen })).headers.get('location')!,
    );
    expect(back.searchParams.get('state')).toBe('flow-state');
    return facebookLink.exchange(linkEndpoints(), proxyUrl(), app, back.searchParams.get('code')!, redirectUri, null);
  }

  function contextOf(
    tokens: GrantedTokens,
    {
      progress = memoryProgressStore(),
      network = testNetwork(),
      renewRejectedToken,
    }: {
      progress?: PublishProgressStore;
      network?: PlatformNetwork;
      renewRejectedToken?: () => Promise<string>;
    } = {},
  ): ConnectorContext<FacebookCredentials> {
    const base = {
      proxy: proxyUrl(),
      network,
      endpoints: platformEndpoints('sandbox', origin()),
      progress,
      pollIntervalMs: 5,
      clock: systemClock,
    };
    return facebookPlatform.credentials.linked(
      base,
      { accessToken: tokens.accessToken, renewRejectedToken },
      { method: 'oauth', remoteId: tokens.remoteId, remoteName: null },
      { mode: 'sandbox', sandboxOrigin: origin() },
    );
  }

  /** Every request the sandbox answered arrived through the loopback proxy, and nothing else did, but the dialog the browser answers. */
  function expectEveryRequestProxied() {
    const proxied = proxy.traffic.map((entry) => {
      const url = new URL(entry.url);
      return `${entry.method} ${url.pathname}${url.search}`;
    });
    const answered = env().state.requests.filter((entry) => !entry.url.startsWith('/sandbox/www.facebook.com/'));
    expect(answered.length).toBeGreaterThan(0);
    expect(proxied).toEqual(answered.map((entry) => `${entry.method} ${entry.url}`));
  }

  const requestsTo = (method: string, pattern: RegExp) =>
    env().state.requests.filter((entry) => entry.method === method && pattern.test(entry.url)).length;
  const starts = /\/graph\.facebook\.com\/v22\.0\/\d+\/video_reels$/;
  const uploads = /\/rupload\.facebook\.com\/video-upload\//;

  it('links the one Page chosen in Meta’s dialog: its Page token, which never ends, and its id, through the profile proxy', async () => {
    const [page] = facebookPagesOf(accountOfLogin('olena')!);
    const consent = new URL(facebookLink.consentUrl(linkEndpoints(), app, redirectUri, 'flow-state', 'unused-challenge'));
    expect(`${consent.origin}${consent.pathname}`).toBe(`${origin()}/sandbox/www.facebook.com/v22.0/dialog/oauth`);
    expect(Object.fromEntries(consent.searchParams)).toEqual({
      client_id: app.id,
      redirect_uri: redirectUri,
      state: 'flow-state',
      response_type: 'code',
      scope: 'pages_show_list,pages_read_engagement,pages_manage_posts',
    });

    const tokens = await link('olena', page!.id);
    expect(tokens).toEqual({
      accessToken: expect.stringMatching(/^sandbox-fb-/),
      accessExpiresIn: expect.any(Number),
      refreshToken: null,
      refreshExpiresIn: null,
      remoteId: page!.id,
    });
    expect(tokens.accessExpiresIn).toBeGreaterThan(50 * 365 * 24 * 3600);
    // The browser's answer to the dialog; then the code, its long-lived exchange and the Pages, each once, through the profile's proxy.
    expect(env().state.requests.map((entry) => `${entry.method} ${entry.url.split('?')[0]}`)).toEqual([
      'POST /sandbox/www.facebook.com/v22.0/dialog/oauth',
      'GET /sandbox/graph.facebook.com/v22.0/oauth/access_token',
      'GET /sandbox/graph.facebook.com/v22.0/oauth/access_token',
      'GET /sandbox/graph.facebook.com/v22.0/me/accounts',
    ]);
    expectEveryRequestProxied();

    const info = await facebookPlatform.whoAmI(contextOf(tokens));
    expect(info).toEqual({ id: page!.id, name: 'Сторінка olena 1', description: '', url: 'https://www.facebook.com/olena-page-1' });
    expect(facebookPlatform.accountName(info)).toBe('Сторінка olena 1');
    // Renewing asks whether Meta still honours the token, and keeps it.
    expect(await facebookLink.renewGrant(linkEndpoints(), proxyUrl(), app, { ...tokens, refreshToken: null })).toEqual(tokens);
  });

  it('keeps, of the Pages granted, the one the person may post to; none of them is refused with no_page', async () => {
    const [postable, readOnly] = facebookPagesOf(accountOfLogin('taras')!);
    expect((await link('taras')).remoteId).toBe(postable!.id);

    const refused = await link('taras', readOnly!.id).catch((error) => error);
    expect(refused).toBeInstanceOf(OAuthGrantError);
    expect(refused).toMatchObject({ platform: 'facebook', code: 'no_page' });
    expect(refused.message).toBe('no_page: Сторінка taras 2');
  });

  it('publishes a Reel through the profile proxy: start, upload, finish with the description and its key, then the status', async () => {
    const tokens = await link('olena');
    const video = reel(41);
    const result = await facebook.publish(contextOf(tokens), video);

    const [stored] = env().state.videos;
    expect(result).toEqual({ remoteId: stored!.id, url: `https://www.facebook.com/reel/${stored!.id}` });
    expect(stored).toMatchObject({ platform: 'facebook', bytes: clip.size, sha256: clip.sha256, url: result.url });
    expect(stored!.description).toBe('Ранкова пробіжка\n\nОпис відео для перевірки\n\n#біг #ранок\n\nvideo-41-facebook');
    expect(stored!.options).toMatchObject({ video_state: 'PUBLISHED', page_id: tokens.remoteId });
    expect(requestsTo('POST', starts)).toBe(2);
    expect(requestsTo('POST', uploads)).toBe(1);
    expectEveryRequestProxied();
  });

  it('resumes a dropped upload where Meta’s status says it stopped: the bytes go up once, into one Reel', async () => {
    const tokens = await link('olena');
    const video = reel(42);
    const half = Math.floor(clip.size / 2);
    env().state.faults.push({ platform: 'facebook', step: 'upload', kind: 'drop-connection', afterBytes: half });
    const { uploads: sent, network } = recordingNetwork();
    const progress = memoryProgressStore();
    const pauses: number[] = [];
    await withRetry(() => facebook.publish(contextOf(tokens, { progress, network }), video), { sleep: async (ms) => void pauses.push(ms) });

    expect(pauses).toHaveLength(1);
    expect(sent).toEqual([
      { offset: '0', length: String(clip.size) },
      { offset: String(half), length: String(clip.size - half) },
    ]);
    expect(requestsTo('POST', starts)).toBe(2);
    expect(env().state.videos).toEqual([expect.objectContaining({ bytes: clip.size, sha256: clip.sha256 })]);
  });

  it('a second publish of the same key, its progress lost, finds the first Reel on the Page instead of posting again', async () => {
    const tokens = await link('olena');
    const video = reel(43);
    const first = await facebook.publish(contextOf(tokens), video);
    const again = await facebook.publish(contextOf(tokens), video);
    expect(again).toEqual(first);
    expect(env().state.videos).toHaveLength(1);
    expect(requestsTo('POST', starts)).toBe(2);
    expect(requestsTo('POST', uploads)).toBe(1);
  });

  it('a finish whose answer was lost is not sent again: the next worker finds the Reel and waits for it', async () => {
    const tokens = await link('olena');
    const video = reel(44);
    const progress = memoryProgressStore();
    env().state.faults.push({ platform: 'facebook', step: 'publish', kind: 'drop-response' });
    await expect(facebook.publish(contextOf(tokens, { progress }), video)).rejects.toBeInstanceOf(PlatformNetworkError);
    expect(env().state.videos).toHaveLength(1);

    const resumed = await facebook.publish(contextOf(tokens, { progress }), video);
    expect(resumed).toEqual({ remoteId: env().state.videos[0]!.id, url: env().state.videos[0]!.url });
    expect(requestsTo('POST', starts)).toBe(2);
  });

  it('a Page token Meta refuses once is renewed by asking whether it still works, then the publish goes on', async () => {
    const tokens = await link('olena');
    env().state.faults.push({ platform: 'facebook', step: 'list', kind: 'unauthorized' });
    const renewRejectedToken = vi.fn(async () => (await facebookLink.renewGrant(linkEndpoints(), proxyUrl(), app, tokens)).accessToken);
    await facebook.publish(contextOf(tokens, { renewRejectedToken }), reel(45));
    expect(renewRejectedToken).toHaveBeenCalledTimes(1);
    expect(env().state.videos).toHaveLength(1);
  });

  it('a person who removed the app: the publish meets ProfileAuthError, and the renewal finds the grant dead', async () => {
    const tokens = await link('revoked.person');
    env().state.revoke('facebook', accountOfLogin('revoked.person')!);
    const error = await facebook.publish(contextOf(tokens), reel(46)).catch((caught) => caught);
    expect(error).toBeInstanceOf(ProfileAuthError);
    expect(error.detail).toBe('Error validating access token: The user has not authorized application.');

    const renewal = await facebookLink.renewGrant(linkEndpoints(), proxyUrl(), app, tokens).catch((caught) => caught);
    expect(renewal).toBeInstanceOf(OAuthGrantError);
    expect(renewal).toMatchObject({ code: 'OAuthException 190', dead: true });
  });

  it('the 31st Reel within 24 hours is held by the Page’s cap (code 32 at the start), and the cap is 30 a moving day', async () => {
    const tokens = await link('busy.page');
    for (let number = 1; number <= 30; number++) await facebook.publish(contextOf(tokens), reel(100 + number));
    const error = await facebook.publish(contextOf(tokens), reel(131)).catch((caught) => caught);
    expect(error).toBeInstanceOf(PostingCapError);
    expect(error.retryAfterMs).toBe(quotaRetryMs);
    expect(error.detail).toBe('The Page has reached the limit of 30 API-published reels in 24 hours');
    expect(env().state.videos).toHaveLength(30);

    expect(facebookPlatform.cap({ id: 7, youtubeClientId: null }, { tiktokDailyPosts: 15, youtubeDailyUploads: 100 }, null)).toEqual({
      limit: 30,
      windowMs: 24 * 3600_000,
      scope: { accountId: 7 },
    });
  });

  it('reads plays, reactions and comments of up to 50 Reels in one Graph batch; a Reel gone from the Page is left out', async () => {
    const tokens = await link('olena');
    const ctx = contextOf(tokens);
    const first = await facebook.publish(ctx, reel(47));
    const second = await facebook.publish(ctx, reel(48));
    env().clock.now += 2 * 3600_000;
    const expected = (remoteId: string) => {
      const stats = env().state.statsOf(env().state.findVideo('facebook', remoteId)!);
      return { views: stats.views, likes: stats.likes, comments: stats.comments };
    };
    expect(expected(first.remoteId).views).toBeGreaterThan(0);

    env().state.requests.splice(0);
    const found = await facebook.fetchStatsOf(ctx, [first.remoteId, '1999999999999999', second.remoteId]);
    expect(found).toEqual(
      new Map([
        [first.remoteId, expected(first.remoteId)],
        [second.remoteId, expected(second.remoteId)],
      ]),
    );
    expect(env().state.requests.filter((entry) => entry.url === '/sandbox/graph.facebook.com/')).toHaveLength(1);
    expect(await facebook.fetchStats(ctx, second.remoteId)).toEqual(expected(second.remoteId));
    expect(facebookPlatform.statsReadUnits(3)).toBe(3);
  });
});
