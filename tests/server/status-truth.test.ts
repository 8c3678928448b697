import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import type { CreationRequestRow, Paged, UploadDetail, UploadRow, VideoSummary } from '../../src/lib/contract';
import { publishPost } from '../../server/jobs/publish';
import { syncProfileStats } from '../../server/jobs/sync-stats';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, storedPosts, testJobContext, withSandboxServer } from './helpers';
import { publishPayload, renderedRequest, type RenderedRequest } from './publishing-fixtures';

const clock = { now: Date.now() };
const sandbox = new SandboxState({ now: () => clock.now });

describeEachDatabase(
  'One status and one set of figures per platform, on every list',
  (env) => {
    const network = withSandboxServer(env);

    const context = testJobContext;

    const unique = (name: string) => `${name}-${env().kind}-${crypto.randomUUID().slice(0, 8)}`;
    const tiktokProfile = (user: TestUser) =>
      createAccount(env(), user, {
        proxy: network().proxy.url,
        isActiveTikTok: true,
        TikTiokAuthStr: issueSandboxToken('tiktok', `${unique('truth')}@tiktok`),
      });
    const instagramProfile = (user: TestUser) =>
      createAccount(env(), user, {
        proxy: network().proxy.url,
        isActiveInstagram: true,
        InstagramLogin: `${unique('truth')}.insta`,
        InstagramPassword: 'instagram-password',
      });

    async function get<T>(user: TestUser, url: string): Promise<T> {
      const response = await env().app.inject({ url, headers: user.headers });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<T>();
    }

    /** Publishes the request's first video only, at once, through one profile on the flagged platforms; the rest stays rendered. */
    async function publishFirst(user: TestUser, request: RenderedRequest, accountId: number, flags: object) {
      const payload = publishPayload(request, [accountId], { inYouTube: false, inTikTok: false, inInstagram: false, ...flags });
      const response = await env().app.inject({
        method: 'POST',
        url: `/api/upload-video/${request.idUpload}`,
        headers: user.headers,
        payload: { ...payload, video: payload.video.slice(0, 1) },
      });
      expect(response.statusCode, response.body).toBe(200);
    }

    async function runPosts(videoId: number) {
      for (const post of await storedPosts(env(), { videoId }, 'p.id, p.job_token'))
        await publishPost({ postId: post.id, token: post.job_token }, context(env()));
      return postsOf(videoId);
    }

    async function postsOf(videoId: number) {
      return (await storedPosts(env(), { videoId }, 'p.status, p.views')) as { status: string; views: number | null }[];
    }

    const statusOf = (page: Paged<{ id: number; status: string }>, id: number) => page.data.find((row) => row.id === id)?.status;

    it('never calls a rendered video published: not in a user’s videos, a profile’s videos, nor any set list', async () => {
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const owner = await createUser(env(), 'owner');
      const profile = await tiktokProfile(owner);
      const request = await renderedRequest(env(), owner.id, 2);
      const [sent, kept] = request.videos;
      const mine = () => get<Paged<VideoSummary>>(admin, `/api/users/${owner.id}/video`);

      // Rendered, nothing published yet: the request list offers it to publish, no video is 'success'.
      expect((await mine()).data.map((video) => video.status)).toEqual(['noactive', 'noactive']);

      await publishFirst(owner, request, profile.id, { inTikTok: true });
      const pending = await mine();
      expect(statusOf(pending, sent!.id)).toBe('publication');
      expect(statusOf(pending, kept!.id)).toBe('noactive');
      expect(statusOf(await get(owner, '/api/upload-video'), request.id)).toBe('publication');
      expect((await get<Paged<CreationRequestRow>>(owner, '/api/create-video')).data[0]).toMatchObject({
        id: request.id,
        status: 'published',
        publicationStatus: 'publication',
      });

      expect((await runPosts(sent!.id)).map((post) => post.status)).toEqual(['done']);
      const out = await mine();
      expect(statusOf(out, sent!.id)).toBe('success');
      expect(statusOf(out, kept!.id)).toBe('noactive');
      const profileVideos = await get<Paged<VideoSummary>>(owner, `/api/accounts/${profile.id}/video`);
      expect(profileVideos.data.map((video) => [video.id, video.status])).toEqual([[sent!.id, 'success']]);
      // The set is out once each of its posts is; the video left out of the publication counts for nothing.
      expect(statusOf(await get(owner, '/api/upload-video'), request.id)).toBe('success');
      expect((await get<Paged<UploadRow>>(owner, '/api/upload-video?status=success')).data.map((row) => row.id)).toEqual([request.id]);
      expect((await get<Paged<CreationRequestRow>>(owner, '/api/create-video')).data[0]).toMatchObject({ publicationStatus: 'success' });
      const detail = await get<UploadDetail>(owner, `/api/upload-video/${request.idUpload}`);
      expect(detail.status).toBe('success');
      expect(detail.video.map((video) => video.id)).toEqual([sent!.id]);
    });

    it('a set is published only when each of its posts is out', async () => {
      const owner = await createUser(env(), 'owner');
      const tiktok = await tiktokProfile(owner);
      const request = await renderedRequest(env(), owner.id, 2);
      const response = await env().app.inject({
        method: 'POST',
        url: `/api/upload-video/${request.idUpload}`,
        headers: owner.headers,
        payload: publishPayload(request, [tiktok.id], { inYouTube: false, inTikTok: true }),
      });
      expect(response.statusCode, response.body).toBe(200);
      await runPosts(request.videos[0]!.id);
      // One video out, one still on its way: the set is still being published.
      expect(statusOf(await get(owner, '/api/upload-video'), request.id)).toBe('publication');
      expect((await get<Paged<UploadRow>>(owner, '/api/upload-video?status=success')).data).toEqual([]);
      await runPosts(request.videos[1]!.id);
      expect(statusOf(await get(owner, '/api/upload-video'), request.id)).toBe('success');
    });

    it('gives a TikTok post’s figures in viewsTikTok, and an Instagram post’s in viewsInstagram, never in YouTube’s', async () => {
      const owner = await createUser(env(), 'owner');
      const tiktok = await tiktokProfile(owner);
      const instagram = await instagramProfile(owner);
      const onTiktok = await renderedRequest(env(), owner.id, 1);
      const onInstagram = await renderedRequest(env(), owner.id, 1);
      await publishFirst(owner, onTiktok, tiktok.id, { inTikTok: true });
      await publishFirst(owner, onInstagram, instagram.id, { inInstagram: true });
      await runPosts(onTiktok.videos[0]!.id);
      await runPosts(onInstagram.videos[0]!.id);
      clock.now += 3 * 3_600_000;
      expect(await syncProfileStats({ accountId: tiktok.id, platform: 'tiktok' }, context(env()))).toEqual({ updated: 1, failed: 0 });
      expect(await syncProfileStats({ accountId: instagram.id, platform: 'instagram' }, context(env()))).toMatchObject({ updated: 1 });
      const [tiktokPost] = await postsOf(onTiktok.videos[0]!.id);
      const [instagramPost] = await postsOf(onInstagram.videos[0]!.id);
      expect(tiktokPost!.views).toBeGreaterThan(0);
      expect(instagramPost!.views).toBeGreaterThan(0);

      const [tiktokVideo] = (await get<Paged<VideoSummary>>(owner, `/api/accounts/${tiktok.id}/video`)).data;
      expect(tiktokVideo).toMatchObject({
        status: 'success',
        viewsTikTok: tiktokPost!.views,
        views: 0,
        likes: 0,
        comments: 0,
        urlYouTube: null,
      });
      expect(tiktokVideo!.urlTiktok).toEqual(expect.any(String));
      const [instagramVideo] = (await get<Paged<VideoSummary>>(owner, `/api/accounts/${instagram.id}/video`)).data;
      expect(instagramVideo).toMatchObject({
        status: 'success',
        viewsInstagram: instagramPost!.views,
        views: 0,
        viewsTikTok: 0,
        urlYouTube: null,
        urlTiktok: null,
      });
      // The user's list and the set's detail say the same.
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const mine = await get<Paged<VideoSummary>>(admin, `/api/users/${owner.id}/video`);
      expect(mine.data.find((video) => video.id === tiktokVideo!.id)).toMatchObject({ viewsTikTok: tiktokPost!.views, views: 0 });
      const detail = await get<UploadDetail>(owner, `/api/upload-video/${onTiktok.idUpload}`);
      expect(detail.video[0]).toMatchObject({ viewsTikTok: tiktokPost!.views, views: 0 });
    });
  },
  { queue: 'send', sandbox },
);
