import { expect, it } from 'vitest';
import type { AccountDetail, CalendarRange, HomeSummary, SpreadProposal, UploadDetail } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { waitText, type CapDetail } from '../../src/lib/post-waits';
import { publishPost } from '../../server/jobs/publish';
import { SandboxState } from '../../server/sandbox/index';
import { accountOfLogin } from '../../server/sandbox/consent';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, storedPosts, testJobContext, withSandboxServer } from './helpers';
import { ManualClock } from './manual-clock';
import { kyivDay, publishPayload, renderedRequest, type RenderedRequest } from './publishing-fixtures';
import { syncEverything } from './stats-sync-fixtures';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';

const hour = 3_600_000;
const clock = new ManualClock(Date.parse('2026-12-07T08:00:00Z'));
const sandbox = new SandboxState({ now: clock.now });

/** Issue 41: a profile's Facebook Page publishes Reels as its other platforms publish, through its proxy. */
describeEachDatabase(
  'Facebook Reels',
  (env) => {
    const network = withSandboxServer(env);

    async function connectedProfile(user: TestUser, login: string): Promise<AccountDetail> {
      const account = await createAccount(env(), user, { proxy: network().proxy.url, comments: login, isActiveFacebook: true });
      const link = await fetch(`${network().baseUrl}/api/accounts/connect-facebook/${account.id}`, {
        method: 'POST',
        headers: user.headers,
      });
      expect(link.status, await link.clone().text()).toBe(200);
      // The sandbox's dialog grants the person's Pages; only the first lets them post.
      const followed = await answerSandboxConsent(link, 'allow', 'follow', { username: login });
      expect(new URL(followed.url).search).toBe('?facebook=connected');
      const detail = await env().app.inject({ url: `/api/accounts/${account.id}`, headers: user.headers });
      return detail.json();
    }

    async function publish(user: TestUser, request: RenderedRequest, accountId: number, flags: object = {}) {
      return env().app.inject({
        method: 'POST',
        url: `/api/upload-video/${request.idUpload}`,
        headers: user.headers,
        payload: publishPayload(request, [accountId], { inYouTube: false, inFacebook: true, ...flags }),
      });
    }

    const posts = (request: RenderedRequest) =>
      storedPosts(
        env(),
        { requestId: request.id },
        'p.id, p.platform, p.status, p.job_token, p.wait_kind, p.wait_detail, p.next_attempt_at',
      );

    async function runPosts(request: RenderedRequest) {
      for (const post of await posts(request)) {
        await clock.flowing(() => publishPost({ postId: post.id, token: post.job_token }, testJobContext(env())));
      }
    }

    it('connects a Page through the consent dialog and publishes a Reel through the profile’s proxy, its link and figures in the set, /stats and the CSV', async () => {
      const user = await createUser(env(), 'operator');
      const login = `page-owner-${env().kind}`;
      const account = await connectedProfile(user, login);
      expect(account).toMatchObject({
        isActiveFacebook: true,
        inFacebook: true,
        status: 'success',
        connections: [{ platform: 'facebook', method: 'oauth', state: 'connected' }],
      });

      const request = await renderedRequest(env(), user.id, 1);
      const proxied = network().proxy.traffic.length;
      const answer = await publish(user, request, account.id);
      expect(answer.statusCode, answer.body).toBe(200);
      await runPosts(request);
      // The start, the upload and the finish all went out through the profile's proxy.
      const through = network()
        .proxy.traffic.slice(proxied)
        .map((call) => call.url);
      expect(through.some((url) => url.includes('/video_reels'))).toBe(true);
      expect(through.some((url) => url.includes('rupload.facebook.com/video-upload/'))).toBe(true);

      const set = (await env().app.inject({ url: `/api/upload-video/${request.idUpload}`, headers: user.headers })).json<UploadDetail>();
      const reel = sandbox.videos.filter((video) => video.platform === 'facebook').at(-1)!;
      expect(reel.description).toContain(`video-${request.videos[0]!.id}-facebook`);
      expect(set.video[0]).toMatchObject({ status: 'success', urlFacebook: `https://www.facebook.com/reel/${reel.id}` });

      await clock.advance(10 * 60_000);
      await clock.flowing(() => syncEverything(testJobContext(env())));
      const synced = (await env().app.inject({ url: `/api/upload-video/${request.idUpload}`, headers: user.headers })).json<UploadDetail>();
      expect(synced.video[0]!.viewsFacebook).toBeGreaterThan(0);
      const day = kyivDay(0, '12:00', clock.now()).wall.slice(0, 10);
      const top = await env().app.inject({ url: `/api/stats/top?from=${day}&to=${day}&accountId=${account.id}`, headers: user.headers });
      expect(top.body).toContain(String(synced.video[0]!.viewsFacebook));
      const csv = await env().app.inject({
        url: `/api/stats/export.csv?from=${day}&to=${day}&accountId=${account.id}`,
        headers: user.headers,
      });
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toContain('Facebook');
      expect(csv.body).toContain(String(synced.video[0]!.viewsFacebook));
    });

    it('holds the 31st Reel within 24 hours with its reason, and lets it out once the window allows', { timeout: 120_000 }, async () => {
      const user = await createUser(env(), 'operator');
      const account = await connectedProfile(user, `busy-page-${env().kind}`);
      const request = await renderedRequest(env(), user.id, 31, 2_000);
      expect((await publish(user, request, account.id)).statusCode).toBe(200);
      await runPosts(request);

      const stored = await posts(request);
      expect(stored.filter((post) => post.status === 'done')).toHaveLength(30);
      const held = stored.find((post) => post.status !== 'done')!;
      expect(held).toMatchObject({ status: 'pending', wait_kind: 'cap', wait_detail: { limit: 30, windowHours: 24 } });
      expect(waitText('facebook', { kind: 'cap', detail: held.wait_detail as CapDetail })).toBe(
        'Ліміт Facebook: 30 публікацій за 24 год вичерпано',
      );

      await clock.advance(24 * hour);
      await clock.flowing(() => publishPost({ postId: held.id, token: held.job_token }, testJobContext(env())));
      expect((await posts(request)).every((post) => post.status === 'done')).toBe(true);
    });

    it('spreads a set over a Page’s free hours, shows its Reels on the calendar and on home, and names its fields in the API document', async () => {
      const user = await createUser(env(), 'operator');
      const account = await connectedProfile(user, `spread-page-${env().kind}`);
      const request = await renderedRequest(env(), user.id, 3);
      const send = (method: 'GET' | 'POST', url: string, payload?: object) =>
        env().app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });

      const spread = await send('POST', `/api/upload-video/${request.idUpload}/spread`, {
        from: kyivDay(0, '00:00', clock.now()).wall.slice(0, 10),
        to: kyivDay(1, '00:00', clock.now()).wall.slice(0, 10),
        accounts: [{ id: account.id }],
        inYouTube: false,
        inTikTok: false,
        inInstagram: false,
        inFacebook: true,
        video: request.videos.map((video) => ({ id: video.id })),
      });
      expect(spread.statusCode, spread.body).toBe(200);
      const proposal = spread.json<SpreadProposal>();
      expect(proposal.unplaced).toEqual([]);
      expect(proposal.data.map((item) => item.accountId)).toEqual([account.id, account.id, account.id]);
      const payload = publishPayload(request, [account.id], { inYouTube: false, inFacebook: true });
      for (const [index, video] of payload.video.entries()) video.date = proposal.data[index]!.date;
      expect((await send('POST', `/api/upload-video/${request.idUpload}`, payload)).statusCode).toBe(200);

      const range = `from=${new Date(clock.now() - 24 * hour).toISOString()}&to=${new Date(clock.now() + 72 * hour).toISOString()}`;
      const calendar = await send('GET', `/api/calendar?${range}`);
      expect(calendar.statusCode, calendar.body).toBe(200);
      const shown = calendar.json<CalendarRange>().posts.filter((post) => post.idUpload === request.idUpload);
      expect(shown.map((post) => [post.platform, post.state, post.scheduledAt])).toEqual(
        proposal.data.map((item) => ['facebook', 'scheduled', new Date(item.date).toISOString()]),
      );

      const day = kyivDay(0, '12:00', clock.now()).wall.slice(0, 10);
      const today = proposal.data.filter((item) => item.date.startsWith(day)).length;
      const home = await send('GET', '/api/home');
      expect(home.json<HomeSummary>().posts.scheduled).toBe(today);

      const document = await send('GET', '/api/docs');
      for (const field of ['isActiveFacebook', 'inFacebook', 'urlFacebook', 'viewsFacebook', 'errorFacebook']) {
        expect(document.body).toContain(`"${field}"`);
      }
    });

    it('turns the connection down when the Page’s grant is revoked, and its posts wait for a reconnect', async () => {
      const user = await createUser(env(), 'operator');
      const login = `revoked-page-${env().kind}`;
      const account = await connectedProfile(user, login);
      sandbox.revoke('facebook', accountOfLogin(login)!);

      const request = await renderedRequest(env(), user.id, 1);
      expect((await publish(user, request, account.id)).statusCode).toBe(200);
      await runPosts(request);
      expect((await posts(request))[0]).toMatchObject({ status: 'pending', wait_kind: 'reconnect' });
      const profile = await env().app.inject({ url: `/api/accounts/${account.id}`, headers: user.headers });
      expect(profile.json()).toMatchObject({ status: 'error', connections: [{ platform: 'facebook', state: 'down', kind: 'revoked' }] });
    });

    it('refuses a variant of 2 s, at 15 frames a second, or of a 16:9 frame, with the reason in Ukrainian', async () => {
      const user = await createUser(env(), 'operator');
      const account = await connectedProfile(user, `short-page-${env().kind}`);
      const request = await renderedRequest(env(), user.id, 1);
      await env().db.sql(`UPDATE videos SET duration_seconds = 2, frame_rate = 30 WHERE request_id = $1`, [request.id]);
      const short = await publish(user, request, account.id);
      expect(short.statusCode).toBe(400);
      expect(short.json().message).toBe(t.postingRules.tooShort('Facebook Reels', 1, 2, 3));

      await env().db.sql(`UPDATE videos SET duration_seconds = 10, frame_rate = 15 WHERE request_id = $1`, [request.id]);
      const slow = await publish(user, request, account.id);
      expect(slow.statusCode).toBe(400);
      expect(slow.json().message).toBe(t.postingRules.frameRate('Facebook Reels', 1, 15, 24, 60));

      // A variant is rendered 1080 × 1920 whatever its source; one stored 16:9 is refused all the same.
      await env().db.sql(`UPDATE videos SET frame_rate = 30, width = 1920, height = 1080 WHERE request_id = $1`, [request.id]);
      const wide = await publish(user, request, account.id);
      expect(wide.statusCode).toBe(400);
      expect(wide.json().message).toBe('Facebook Reels: відео 1 має кадр 1920×1080, а приймається кадр 9:16 щонайменше 540×960');
      expect(await posts(request)).toEqual([]);
    });
  },
  { sandbox, clock, queue: 'send' },
);
