import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import type {
  AccountDetail,
  CalendarRange,
  CreationRequestRow,
  HomeSummary,
  Paged,
  PostCounts,
  UploadDetail,
  UploadRow,
  UserDetail,
  VideoPost,
  VideoSummary,
} from '../../src/lib/contract';
import { postStateOf, postStates, setStatusOf, videoStatusOf } from '../../src/lib/post-states';
import { waitKinds } from '../../src/lib/contract/lists';
import { publishPost } from '../../server/jobs/publish';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, withSandboxServer, testJobContext } from './helpers';
import { kyivDay, publishPayload, renderedRequest } from './publishing-fixtures';

const sandbox = new SandboxState();

const counts = (some: Partial<PostCounts>): PostCounts => ({ published: 0, scheduled: 0, held: 0, failed: 0, cancelled: 0, ...some });

describeEachDatabase(
  'One state per post, and the set’s posts by state, on every answer that lists videos or sets',
  (env) => {
    const network = withSandboxServer(env);

    async function get<T>(user: TestUser, url: string): Promise<T> {
      const response = await env().app.inject({ url, headers: user.headers });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<T>();
    }

    /** A profile on TikTok (a pasted access string) and Instagram, through the sandbox. */
    const bothPlatforms = (user: TestUser) => {
      const name = `states-${env().kind}-${crypto.randomUUID().slice(0, 8)}`;
      return createAccount(env(), user, {
        proxy: network().proxy.url,
        isActiveTikTok: true,
        TikTiokAuthStr: issueSandboxToken('tiktok', `${name}@tiktok`),
        isActiveInstagram: true,
        InstagramLogin: `${name}.insta`,
        InstagramPassword: 'instagram-password',
      });
    };

    async function publish(user: TestUser, idUpload: string, payload: object) {
      const response = await env().app.inject({ method: 'POST', url: `/api/upload-video/${idUpload}`, headers: user.headers, payload });
      expect(response.statusCode, response.body).toBe(200);
    }

    it('a set out on Instagram and failed on TikTok says so in its detail and in every list that shows it', async () => {
      const owner = await createUser(env(), 'owner');
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const profile = await bothPlatforms(owner);
      const request = await renderedRequest(env(), owner.id, 1);
      const [video] = request.videos;
      await publish(
        owner,
        request.idUpload,
        publishPayload(request, [profile.id], { inYouTube: false, inTikTok: true, inInstagram: true }),
      );

      // TikTok refuses the pasted access string: the post fails; Instagram takes its post.
      sandbox.faults.push({ platform: 'tiktok', step: 'init', kind: 'unauthorized' });
      const { rows } = await env().db.sql(`SELECT id, job_token FROM video_posts WHERE video_id = $1 ORDER BY id`, [video!.id]);
      for (const post of rows) await publishPost({ postId: post.id, token: post.job_token }, testJobContext(env()));
      sandbox.faults.splice(0);

      const halfOut = counts({ published: 1, failed: 1 });
      const posts: VideoPost[] = [
        { platform: 'tiktok', state: 'failed', kind: expect.any(String), url: null, error: expect.any(String), date: expect.any(String) },
        { platform: 'instagram', state: 'published', kind: null, url: expect.any(String), error: null, date: expect.any(String) },
      ];
      // SPEC's status stays: a video with a failed post is in error, so its retry is offered.
      const shown = { id: video!.id, status: 'error', posts };
      const ofVideo = (page: Paged<VideoSummary>) => page.data.find((row) => row.id === video!.id);

      const detail = await get<UploadDetail>(owner, `/api/upload-video/${request.idUpload}`);
      expect(detail).toMatchObject({ status: 'error', posts: halfOut, video: [shown] });
      expect(detail.video[0]!.posts[0]!.error).toBe(detail.video[0]!.errorTiktok);

      const sets = await get<Paged<UploadRow>>(owner, '/api/upload-video');
      const row = sets.data.find((each) => each.id === request.id)!;
      expect(row).toMatchObject({ status: 'error', posts: halfOut });
      // Issue 40.2: the list's dates are the posts' own, the first and the last of the set's.
      const postDates = detail.video[0]!.posts.map((post) => post.date).sort();
      expect([row.postsFrom, row.postsTo]).toEqual([postDates[0], postDates.at(-1)]);
      const requests = await get<Paged<CreationRequestRow>>(owner, '/api/create-video');
      expect(requests.data.find((row) => row.id === request.id)).toMatchObject({ publicationStatus: 'error', posts: halfOut });

      expect(ofVideo(await get(admin, `/api/users/${owner.id}/video`))).toMatchObject(shown);
      expect(ofVideo((await get<UserDetail>(admin, `/api/users/${owner.id}`)).video)).toMatchObject(shown);
      expect(ofVideo(await get(owner, `/api/accounts/${profile.id}/video`))).toMatchObject(shown);
      expect(ofVideo((await get<AccountDetail>(owner, `/api/accounts/${profile.id}`)).video)).toMatchObject(shown);

      const now = Date.now();
      const from = new Date(now - 86_400_000).toISOString();
      const to = new Date(now + 86_400_000).toISOString();
      const calendar = await get<CalendarRange>(owner, `/api/calendar?from=${from}&to=${to}`);
      const onCalendar = calendar.posts.filter((post) => post.videoId === video!.id);
      expect(
        onCalendar
          .map(({ platform, state, url, error }) => ({ platform, state, url, error }))
          .sort((a, b) => a.state.localeCompare(b.state)),
      ).toEqual([
        { platform: 'tiktok', state: 'failed', url: null, error: expect.any(String) },
        { platform: 'instagram', state: 'published', url: expect.any(String), error: null },
      ]);
      expect(calendar.sets).toEqual([{ idUpload: request.idUpload, status: 'error', posts: halfOut }]);

      const today = await get<HomeSummary>(owner, '/api/home');
      expect(today.posts).toEqual({ scheduled: 0, published: 1, held: 0, failed: 1 });
    });

    it('a cancelled publication keeps its posts as cancelled, and its set counts them', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await bothPlatforms(owner);
      const request = await renderedRequest(env(), owner.id, 2);
      const tomorrow = kyivDay(1, '10:00').wall;
      await publish(owner, request.idUpload, {
        ...publishPayload(request, [profile.id], { inYouTube: false, inTikTok: true, inInstagram: true }),
        date: tomorrow,
      });
      const planned = await get<UploadDetail>(owner, `/api/upload-video/${request.idUpload}`);
      expect(planned).toMatchObject({ status: 'publication', posts: counts({ scheduled: 4 }) });
      expect(planned.video[0]!.posts.map((post) => [post.platform, post.state, post.kind])).toEqual([
        ['tiktok', 'scheduled', null],
        ['instagram', 'scheduled', null],
      ]);

      const [first] = request.videos;
      const cancel = await env().app.inject({
        method: 'DELETE',
        url: `/api/upload-video/${request.idUpload}/video/${first!.id}/schedule`,
        headers: owner.headers,
      });
      expect(cancel.statusCode, cancel.body).toBe(200);
      const after = cancel.json<UploadDetail>();
      expect(after.posts).toEqual(counts({ scheduled: 2, cancelled: 2 }));
      const cancelled = after.video.find((video) => video.id === first!.id)!;
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.posts.map((post) => [post.platform, post.state])).toEqual([
        ['tiktok', 'cancelled'],
        ['instagram', 'cancelled'],
      ]);
      expect(cancelled.posts[0]!.date).toBe(planned.video[0]!.posts[0]!.date);
      const sets = await get<Paged<UploadRow>>(owner, '/api/upload-video');
      expect(sets.data.find((row) => row.id === request.id)).toMatchObject({ status: 'publication', posts: after.posts });
    });
  },
  { queue: 'send', sandbox },
);

it('reads every stored post into one of the six states, and a video’s and a set’s SPEC status from them', () => {
  const seen = new Set<string>();
  for (const status of ['pending', 'done', 'error'] as const)
    for (const started of [false, true])
      for (const waitKind of [null, ...waitKinds]) {
        const state = postStateOf({ status, started, waitKind });
        seen.add(state);
        if (status === 'done') expect(state).toBe('published');
        if (status === 'error') expect(state).toBe('failed');
        if (status === 'pending' && (waitKind === 'cap' || waitKind === 'quota' || waitKind === 'reconnect')) expect(state).toBe('held');
      }
  expect(postStateOf({ status: 'pending', started: false, waitKind: 'busy' })).toBe('scheduled');
  expect(postStateOf({ status: 'pending', started: true, waitKind: 'retry' })).toBe('uploading');
  // Every state but 'cancelled', which has no row: its video keeps the cancelled posts.
  expect([...seen].sort()).toEqual(postStates.filter((state) => state !== 'cancelled').sort());

  expect(videoStatusOf(['published', 'failed'])).toBe('error');
  expect(videoStatusOf(['published', 'held'])).toBe('publication');
  expect(videoStatusOf(['published', 'uploading'])).toBe('publication');
  expect(videoStatusOf(['published', 'published'])).toBe('success');
  expect(videoStatusOf(['cancelled'])).toBe('cancelled');
  expect(videoStatusOf([])).toBe('noactive');
  expect(setStatusOf(['success', 'noactive'])).toBe('success');
  expect(setStatusOf(['success', 'loading'])).toBe('publication');
  expect(setStatusOf(['success', 'error', 'publication'])).toBe('error');
  expect(setStatusOf(['noactive', 'cancelled'])).toBe('cancelled');
  expect(setStatusOf(['noactive'])).toBe('noactive');
});
