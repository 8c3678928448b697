import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { youtube } from '@googleapis/youtube';
import bizSdk from 'facebook-nodejs-business-sdk';
import { CodeChallengeMethod, OAuth2Client } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip, testTools } from '../fixtures/media';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';
import { control, jsonPost, useSandbox } from './sandbox-helpers';

const { AdVideo, FacebookAdsApi, IGUser, IGMedia, Page, User } = bizSdk;
const hour = 3600_000;
const redirectUri = 'https://office.example/api/oauth/youtube/callback';

let clipDir: string;
let clip: string;
beforeAll(async () => {
  clipDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-compat-'));
  clip = path.join(clipDir, 'clip.mp4');
  await makeClip(testTools(), clip, { size: '180x320', seconds: 1 });
});
afterAll(() => fs.rmSync(clipDir, { recursive: true, force: true }));

describe('Google’s own client against the sandbox', () => {
  const env = useSandbox();

  it('OAuth code exchange and refresh, channels.list, videos.insert and videos.list through google-auth-library and @googleapis/youtube', async () => {
    const auth = new OAuth2Client({
      clientId: 'sdk-client.apps.googleusercontent.com',
      clientSecret: 'sdk-secret',
      redirectUri,
      endpoints: {
        oauth2AuthBaseUrl: `${env().base}/accounts.google.com/o/oauth2/v2/auth`,
        oauth2TokenUrl: `${env().base}/oauth2.googleapis.com/token`,
      },
      // The sandbox's clock is the test's, so the client cannot know a token died: a 401 must make it refresh.
      forceRefreshOnFailure: true,
    });
    const consent = auth.generateAuthUrl({
      access_type: 'offline',
      scope: ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.readonly'],
      state: 'st',
    });
    const back = new URL((await answerSandboxConsent(consent, 'allow', 'manual')).headers.get('location')!);
    expect(back.searchParams.get('state')).toBe('st');
    const { tokens } = await auth.getToken(back.searchParams.get('code')!);
    expect(tokens).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      expiry_date: expect.any(Number),
    });
    auth.setCredentials(tokens);

    const api = youtube({ version: 'v3', auth });
    // The client's global rootUrl keeps only a host (it resolves each absolute path against it);
    // a method's own rootUrl is prefixed, so it reaches the mirror under /sandbox/www.googleapis.com.
    const sandboxRoot = { rootUrl: `${env().base}/www.googleapis.com/` };
    const channels = await api.channels.list({ part: ['snippet', 'contentDetails'], mine: true }, sandboxRoot);
    const channel = channels.data.items![0];
    expect(channel.id).toMatch(/^UC/);
    expect(channel.contentDetails?.relatedPlaylists?.uploads).toBe(`UU${channel.id!.slice(2)}`);

    const inserted = await api.videos.insert(
      {
        part: ['snippet', 'status'],
        requestBody: {
          snippet: { title: 'SDK clip', description: 'through googleapis', tags: ['sdk'], categoryId: '22' },
          status: { privacyStatus: 'private', selfDeclaredMadeForKids: false },
        },
        media: { mimeType: 'video/mp4', body: fs.createReadStream(clip) },
      },
      sandboxRoot,
    );
    const videoId = inserted.data.id!;
    expect(inserted.data).toMatchObject({ kind: 'youtube#video', snippet: { title: 'SDK clip', channelId: channel.id } });
    const { posts } = await (await control(env(), '/_posts')).json();
    expect(posts.youtube).toEqual([
      expect.objectContaining({
        id: videoId,
        received: {
          snippet: { title: 'SDK clip', description: 'through googleapis', tags: ['sdk'], categoryId: '22' },
          status: { privacyStatus: 'private', selfDeclaredMadeForKids: false },
        },
      }),
    ]);
    const stored = env().state.findVideo('youtube', videoId)!;
    expect(stored.bytes).toBe(fs.statSync(clip).size);

    env().clock.now += hour;
    const stats = await api.videos.list({ part: ['statistics', 'status'], id: [videoId] }, sandboxRoot);
    expect(auth.credentials.access_token).not.toBe(tokens.access_token);
    expect(auth.credentials.refresh_token).toBe(tokens.refresh_token);
    expect(stats.data.items).toEqual([
      expect.objectContaining({
        id: videoId,
        statistics: {
          viewCount: expect.stringMatching(/^\d+$/),
          likeCount: expect.stringMatching(/^\d+$/),
          favoriteCount: '0',
          commentCount: expect.stringMatching(/^\d+$/),
        },
        status: { uploadStatus: 'processed', privacyStatus: 'private', madeForKids: false, selfDeclaredMadeForKids: false },
      }),
    ]);
  });

  it("google-auth-library's own PKCE: its S256 challenge and verifier redeem the code, another verifier is refused", async () => {
    const auth = new OAuth2Client({
      clientId: 'sdk-pkce.apps.googleusercontent.com',
      clientSecret: 'sdk-secret',
      redirectUri,
      endpoints: {
        oauth2AuthBaseUrl: `${env().base}/accounts.google.com/o/oauth2/v2/auth`,
        oauth2TokenUrl: `${env().base}/oauth2.googleapis.com/token`,
      },
    });
    const { codeVerifier, codeChallenge } = await auth.generateCodeVerifierAsync();
    const consent = auth.generateAuthUrl({
      access_type: 'offline',
      scope: ['https://www.googleapis.com/auth/youtube.readonly'],
      code_challenge: codeChallenge,
      code_challenge_method: CodeChallengeMethod.S256,
    });
    const code = new URL((await answerSandboxConsent(consent, 'allow', 'manual')).headers.get('location')!).searchParams.get('code')!;
    const other = await auth.generateCodeVerifierAsync();
    await expect(auth.getToken({ code, codeVerifier: other.codeVerifier })).rejects.toThrow('invalid_grant');
    const { tokens } = await auth.getToken({ code, codeVerifier });
    expect(tokens).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });
  });
});

/**
 * Meta's SDK builds every URL from `FacebookAdsApi.GRAPH`, a fixed getter; its `call()` takes a
 * `urlOverride` for the host, which this API object passes on each call, so the SDK's own objects
 * (IGUser, IGMedia) reach the sandbox's mirror of the host unchanged. Crash reports are off: the
 * SDK would otherwise send uncaught errors to Meta.
 */
class SandboxGraphApi extends FacebookAdsApi {
  constructor(
    accessToken: string,
    private readonly host: string,
  ) {
    super(accessToken, 'en_US', false);
  }

  call<T>(
    method: string,
    path: string | string[],
    params?: Record<string, unknown>,
    files?: Record<string, unknown>,
    multipart?: boolean,
    urlOverride?: string,
  ): Promise<T> {
    return super.call<T>(method, path, params, files, multipart, urlOverride || this.host);
  }
}

describe('Meta’s Business SDK against the sandbox', () => {
  const env = useSandbox();

  it('reads the IG user, creates a Reels container, publishes it and reads its insights through IGUser and IGMedia', async () => {
    const login = await (await fetch(`${env().base}/_instagram/login`, jsonPost({ login: 'meta.sdk', password: 'pw' }))).json();
    const api = new SandboxGraphApi(login.access_token, `${env().base}/graph.facebook.com`);
    const user = new IGUser(login.ig_user_id, {}, null, api);

    await user.read(['id', 'username', 'media_count']);
    expect(user.exportAllData()).toEqual({ id: login.ig_user_id, username: 'meta.sdk', media_count: 0 });

    const container = await user.createMedia([], {
      media_type: 'REELS',
      upload_type: 'resumable',
      caption: 'Reel through the SDK #sdk',
      share_to_feed: true,
      thumb_offset: 500,
    });
    const bytes = fs.readFileSync(clip);
    // The upload goes to rupload.facebook.com, which the SDK does not speak: a plain POST, as Meta documents it.
    const upload = await fetch(container.exportAllData().uri, {
      method: 'POST',
      headers: { authorization: `OAuth ${login.access_token}`, offset: '0', file_size: String(bytes.length) },
      body: bytes,
    });
    expect(await upload.json()).toEqual({ success: true, message: 'Upload successful.' });

    const status = () => new IGMedia(container.id, {}, null, api).read(['status_code']);
    await expect.poll(async () => (await status()).status_code).toBe('FINISHED');

    const media = await user.createMediaPublish([], { creation_id: container.id });
    expect(media.id).toMatch(/^\d{17}$/);
    const { posts } = await (await control(env(), '/_posts')).json();
    expect(posts.instagram).toEqual([
      expect.objectContaining({
        id: media.id,
        received: {
          media_type: 'REELS',
          upload_type: 'resumable',
          caption: 'Reel through the SDK #sdk',
          share_to_feed: true,
          thumb_offset: 500,
        },
      }),
    ]);

    const insights = await new IGMedia(media.id, {}, null, api).getInsights([], { metric: 'views,likes,comments' });
    expect(insights.map((entry) => entry.name)).toEqual(['views', 'likes', 'comments']);
    expect(insights[0].values[0].value).toEqual(expect.any(Number));
  });

  it('links a Page through Facebook Login, then starts, uploads and finishes a Reel through Page.createVideoReel and reads its status', async () => {
    const redirect = 'https://office.example/api/oauth/facebook/callback';
    const consent = new URL(`${env().base}/www.facebook.com/v22.0/dialog/oauth`);
    consent.search = new URLSearchParams({
      client_id: 'fb-app',
      redirect_uri: redirect,
      response_type: 'code',
      scope: 'pages_show_list,pages_read_engagement,pages_manage_posts',
    }).toString();
    const back = new URL(
      (await answerSandboxConsent(consent.toString(), 'allow', 'manual', { username: 'meta.pages' })).headers.get('location')!,
    );
    const tokenUrl = (params: Record<string, string>) =>
      `${env().base}/graph.facebook.com/v22.0/oauth/access_token?${new URLSearchParams({ client_id: 'fb-app', client_secret: 'fb-secret', ...params })}`;
    const short = await (await fetch(tokenUrl({ redirect_uri: redirect, code: back.searchParams.get('code')! }))).json();
    const long = await (await fetch(tokenUrl({ grant_type: 'fb_exchange_token', fb_exchange_token: short.access_token }))).json();
    expect(long).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 60 * 24 * 3600 });

    const userApi = new SandboxGraphApi(long.access_token, `${env().base}/graph.facebook.com`);
    const accounts = await new User('me', {}, null, userApi).getAccounts(['id', 'name', 'access_token', 'tasks']);
    const granted = accounts.map((account) => account.exportAllData());
    const postable = granted.filter((account) => account.tasks.includes('CREATE_CONTENT'));
    expect(postable).toHaveLength(1);
    const { id: pageId, access_token: pageToken } = postable[0]!;

    const api = new SandboxGraphApi(pageToken, `${env().base}/graph.facebook.com`);
    const page = new Page(pageId, {}, null, api);
    const started = (await page.createVideoReel([], { upload_phase: 'start' })).exportAllData();
    expect(started).toEqual({
      video_id: expect.stringMatching(/^\d+$/),
      upload_url: expect.stringContaining('/rupload.facebook.com/video-upload/'),
    });
    const bytes = fs.readFileSync(clip);
    const half = Math.floor(bytes.length / 2);
    // rupload.facebook.com, which the SDK does not speak: plain POSTs with offset and file_size, as Meta documents them, in two pieces.
    const upload = (from: number, to: number) =>
      fetch(started.upload_url, {
        method: 'POST',
        headers: { authorization: `OAuth ${pageToken}`, offset: String(from), file_size: String(bytes.length) },
        body: bytes.subarray(from, to),
      });
    expect(await (await upload(0, half)).json()).toEqual({ success: true });
    const status = async () => (await new AdVideo(started.video_id, {}, null, api).read(['status'])).status;
    expect((await status()).uploading_phase).toEqual({ status: 'in_progress', bytes_transferred: half });
    expect(await (await upload(half, bytes.length)).json()).toEqual({ success: true });

    const finished = await page.createVideoReel([], {
      upload_phase: 'finish',
      video_id: started.video_id,
      video_state: 'PUBLISHED',
      description: 'Reel through the SDK #sdk',
    });
    expect(finished.exportAllData()).toMatchObject({ success: true });
    await expect.poll(async () => (await status()).publishing_phase.status).toBe('complete');

    const reels = await page.getVideoReels(['id', 'description']);
    expect(reels.map((entry) => entry.exportAllData())).toEqual([{ id: started.video_id, description: 'Reel through the SDK #sdk' }]);
    const stored = env().state.findVideo('facebook', started.video_id)!;
    expect(stored).toMatchObject({ bytes: bytes.length, url: `https://www.facebook.com/reel/${started.video_id}` });
  });

  it('reads the account behind an Instagram Login token at graph.instagram.com', async () => {
    const consent = new URL(`${env().base}/www.instagram.com/oauth/authorize`);
    consent.search = new URLSearchParams({
      client_id: 'ig-app',
      redirect_uri: 'https://office.example/api/oauth/instagram/callback',
      response_type: 'code',
      scope: 'instagram_business_basic,instagram_business_content_publish',
    }).toString();
    const back = new URL(
      (await answerSandboxConsent(consent.toString(), 'allow', 'manual', { username: 'meta.login' })).headers.get('location')!,
    );
    const exchange = await fetch(`${env().base}/api.instagram.com/oauth/access_token`, {
      method: 'POST',
      body: new URLSearchParams({
        client_id: 'ig-app',
        client_secret: 'ig-secret',
        grant_type: 'authorization_code',
        redirect_uri: 'https://office.example/api/oauth/instagram/callback',
        code: back.searchParams.get('code')!,
      }),
    });
    const [{ access_token: token, user_id: userId }] = (await exchange.json()).data;
    const api = new SandboxGraphApi(token, `${env().base}/graph.instagram.com`);
    const me = await new IGUser('me', {}, null, api).read(['id', 'username']);
    expect(me.exportAllData()).toEqual({ id: userId, username: 'meta.login' });
  });
});
