import crypto from 'node:crypto';
import { beforeEach, expect, it, vi } from 'vitest';
import type { UploadDetail } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { failureText } from '../../src/lib/post-failures';
import { publishJobName } from '../../server/services/publishing/post-lifecycle';
import { markPublishFailed, publishPost } from '../../server/jobs/publish';
import { syncEverything } from './stats-sync-fixtures';
import { pacificDay } from '../../server/platforms/youtube/caps';
import { SandboxState } from '../../server/sandbox/index';
import { connectedProfile, emptyAccount, sandboxProfileFields, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, storedPosts, testJobContext, withSandboxServer } from './helpers';
import { kyivDay, publishPayload, renderedRequest, type RenderedRequest, settledSet } from './publishing-fixtures';
import { ManualClock } from './manual-clock';
import { platformRequestsSince } from './sandbox-helpers';

const clock = { now: Date.now() };
const sandbox = new SandboxState({ now: () => clock.now });

describeEachDatabase(
  'Publishing through the worker to the sandbox platforms',
  (env) => {
    const network = withSandboxServer(env);
    beforeEach(() => {
      sandbox.faults.splice(0);
    });

    async function publish(
      user: TestUser,
      request: RenderedRequest,
      accountId: number,
      flags = { inYouTube: true, inTikTok: true, inInstagram: true },
    ) {
      const response = await env().app.inject({
        method: 'POST',
        url: `/api/upload-video/${request.idUpload}`,
        headers: user.headers,
        payload: publishPayload(request, [accountId], flags),
      });
      expect(response.statusCode, response.body).toBe(200);
    }

    const settled = (user: TestUser, idUpload: string) => settledSet(env(), user.headers, idUpload);

    it('publishes a video to YouTube, TikTok and Instagram through the profile proxy and keeps the links', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await connectedProfile(env(), network(), owner, 'morning');
      const request = await renderedRequest(env(), owner.id, 1);
      network().proxy.traffic.length = 0;
      const uploadsBefore = sandbox.videos.length;

      await publish(owner, request, profile.id);
      const detail = await settled(owner, request.idUpload);

      const [video] = detail.video;
      expect(detail.status).toBe('success');
      expect(video).toMatchObject({ status: 'success', error: null, errorInstagram: null, errorTiktok: null, account: { id: profile.id } });
      const uploaded = sandbox.videos.slice(uploadsBefore);
      expect(uploaded.map((item) => item.platform).sort()).toEqual(['instagram', 'tiktok', 'youtube']);
      expect(uploaded.every((item) => item.bytes === request.videos[0]!.size)).toBe(true);
      const urlOf = (platform: string) => uploaded.find((item) => item.platform === platform)!.url;
      expect({ youtube: video!.urlYouTube, tiktok: video!.urlTiktok, instagram: video!.urlInstagram }).toEqual({
        youtube: urlOf('youtube'),
        tiktok: urlOf('tiktok'),
        instagram: urlOf('instagram'),
      });
      expect(uploaded.find((item) => item.platform === 'youtube')).toMatchObject({
        title: 'Ранкова пробіжка',
        tags: expect.arrayContaining(['біг', 'ранок']),
      });
      // Every call of the profile left through its proxy; the access token the consent gave is
      // reused for its hour, so the publish asked Google for none.
      expect(network().proxy.traffic.some((entry) => entry.url.includes('/sandbox/oauth2.googleapis.com/token'))).toBe(false);
      expect(network().proxy.traffic.filter((entry) => entry.url.includes('/sandbox/www.googleapis.com/upload/')).length).toBeGreaterThan(
        0,
      );

      const profileVideos = await env().app.inject({ method: 'GET', url: `/api/accounts/${profile.id}/video`, headers: owner.headers });
      expect(profileVideos.json().data).toEqual([
        expect.objectContaining({ id: video!.id, status: 'success', urlYouTube: video!.urlYouTube }),
      ]);
      const userVideos = await env().app.inject({
        method: 'GET',
        url: `/api/users/${owner.id}/video`,
        headers: (await createUser(env(), 'root', { role: 'admin' })).headers,
      });
      expect(userVideos.json().data).toEqual([expect.objectContaining({ id: video!.id, urlInstagram: video!.urlInstagram })]);

      // A repeated job, as after a redelivery, finds the post done and uploads nothing.
      const posts = await storedPosts(env(), { videoId: video!.id }, 'p.id, p.job_token, p.attempts, p.updated_at');
      const requestsBefore = sandbox.requests.length;
      for (const post of posts) await publishPost({ postId: post.id, token: post.job_token }, testJobContext(env()));
      expect(sandbox.videos.length).toBe(uploadsBefore + 3);
      expect(platformRequestsSince(sandbox, requestsBefore)).toEqual([]);
      const untouched = await storedPosts(env(), { videoId: video!.id }, 'p.id, p.job_token, p.attempts, p.updated_at');
      expect(untouched).toEqual(posts);

      // Statistics grow with the platforms' clock; YouTube's fill the main columns, Instagram's their own.
      const read = async () =>
        (await env().db.sql('SELECT views, likes, comments, views_instagram FROM videos WHERE id = $1', [video!.id])).rows[0];
      clock.now += 3600_000;
      expect(await syncEverything(testJobContext(env()))).toEqual({ updated: 3, failed: 0 });
      const first = await read();
      const youtubeVideo = uploaded.find((item) => item.platform === 'youtube')!;
      const instagramVideo = uploaded.find((item) => item.platform === 'instagram')!;
      expect(first).toEqual({ ...sandbox.statsOf(youtubeVideo), views_instagram: sandbox.statsOf(instagramVideo).views });
      expect(first.views).toBeGreaterThan(0);
      clock.now += 3600_000;
      await syncEverything(testJobContext(env()));
      const second = await read();
      expect(second.views).toBeGreaterThan(first.views);
      expect(second.views_instagram).toBeGreaterThan(first.views_instagram);
    });

    /**
     * Runs `wait` with the workers' clock swapped for a ManualClock moving a second every 10 ms:
     * the jobs started meanwhile pause between their in-process attempts (about 1, 2 and 4 s) on
     * it rather than on real time.
     */
    async function withRetryPausesOnClock<T>(wait: () => Promise<T>): Promise<T> {
      const { platforms } = env();
      const system = platforms.clock;
      const retryClock = new ManualClock();
      platforms.clock = retryClock;
      try {
        return await retryClock.flowing(wait, 1000, 10);
      } finally {
        platforms.clock = system;
      }
    }

    async function edit(user: TestUser, idUpload: string, texts: { title: string; description: string; tags: string[] }) {
      const response = await env().app.inject({
        method: 'PATCH',
        url: `/api/upload-video/${idUpload}`,
        headers: user.headers,
        payload: texts,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<UploadDetail>();
    }

    async function editSettled(user: TestUser, idUpload: string): Promise<UploadDetail> {
      let detail: UploadDetail | undefined;
      await vi.waitFor(
        async () => {
          const response = await env().app.inject({ method: 'GET', url: `/api/upload-video/${idUpload}`, headers: user.headers });
          detail = response.json<UploadDetail>();
          expect(detail.edits.every((entry) => entry.pending === 0)).toBe(true);
        },
        { timeout: 30_000, interval: 250 },
      );
      return detail!;
    }

    it('carries an edit of the set to its YouTube video through the proxy, and says TikTok and Instagram keep their texts', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await connectedProfile(env(), network(), owner, 'edited');
      const request = await renderedRequest(env(), owner.id, 1);
      const uploadsBefore = sandbox.videos.length;
      const clientId = `edited-${env().kind}.apps.googleusercontent.com`;
      const projectUnits = () => sandbox.caps.youtubeUnitsSpent(Buffer.from(clientId).toString('base64url'));
      const unitsBefore = projectUnits();
      await publish(owner, request, profile.id);
      await settled(owner, request.idUpload);
      const uploaded = sandbox.videos.slice(uploadsBefore);
      const onYouTube = uploaded.find((item) => item.platform === 'youtube')!;
      const onTikTok = uploaded.find((item) => item.platform === 'tiktok')!;
      const tiktokTitle = onTikTok.title;

      network().proxy.traffic.length = 0;
      const saved = await edit(owner, request.idUpload, { title: 'Вечірня пробіжка', description: 'Новий опис', tags: ['вечір', 'біг'] });
      expect(saved.edits).toEqual([
        { platform: 'youtube', editable: true, pending: 1, done: 0, errors: [] },
        { platform: 'tiktok', editable: false, pending: 0, done: 0, errors: [] },
        { platform: 'instagram', editable: false, pending: 0, done: 0, errors: [] },
      ]);
      const detail = await editSettled(owner, request.idUpload);
      expect(detail.edits[0]).toEqual({ platform: 'youtube', editable: true, pending: 0, done: 1, errors: [] });
      expect(onYouTube).toMatchObject({ title: 'Вечірня пробіжка', description: 'Новий опис' });
      // The publish key stays among the tags, so the video is still recognised as this post's.
      expect(onYouTube.tags).toEqual([`video-${request.videos[0]!.id}-youtube`, 'вечір', 'біг']);
      expect(onTikTok.title).toBe(tiktokTitle);
      expect(
        network().proxy.traffic.some(
          (entry) => entry.method === 'PUT' && entry.url.includes('/sandbox/www.googleapis.com/youtube/v3/videos'),
        ),
      ).toBe(true);
      // The quota ledger holds what the publish and the edit spent of the project's units (videos.update
      // alone is 50), as YouTube counted them, so statistics reads leave them to publishing.
      const { rows } = await env().db.sql(`SELECT coalesce(sum(spent), 0)::int AS spent FROM stats_quota_ledger WHERE holder = $1`, [
        `youtube:${clientId}`,
      ]);
      expect(rows[0].spent).toBeGreaterThanOrEqual(50);
      expect(rows[0].spent).toBe(projectUnits() - unitsBefore);
    });

    it("shows YouTube's refusal of an edit on the set, and the next edit goes again", async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await connectedProfile(env(), network(), owner, 'refused-edit');
      const request = await renderedRequest(env(), owner.id, 1);
      await publish(owner, request, profile.id);
      await settled(owner, request.idUpload);
      sandbox.faults.push({ platform: 'youtube', step: 'edit', kind: 'status-500', times: 10 });

      const refused = await withRetryPausesOnClock(async () => {
        await edit(owner, request.idUpload, { title: 'Спроба', description: '', tags: ['спроба'] });
        return editSettled(owner, request.idUpload);
      });
      expect(refused.edits[0]).toMatchObject({ platform: 'youtube', pending: 0, done: 0 });
      expect(refused.edits[0]!.errors).toEqual([expect.stringContaining(t.platform.unavailable)]);
      // Stored as the failure's kind and YouTube's answer, never as the words above.
      const { rows: stored } = await env().db.sql(
        `SELECT p.edit_failure, p.edit_failure_detail FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id
          JOIN creation_requests AS r ON r.id = v.request_id WHERE r.id_upload = $1 AND p.edit_state = 'error'`,
        [request.idUpload],
      );
      expect(stored).toEqual([{ edit_failure: 'unavailable', edit_failure_detail: { answer: 'Backend Error', status: 500 } }]);

      sandbox.faults.splice(0);
      await edit(owner, request.idUpload, { title: 'Друга спроба', description: '', tags: ['спроба'] });
      const done = await editSettled(owner, request.idUpload);
      expect(done.edits[0]).toMatchObject({ pending: 0, done: 1, errors: [] });
    });

    it('a revoked YouTube grant fails the video and marks the profile; a retry is refused until the profile answers again, then publishes', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await connectedProfile(env(), network(), owner, 'evening');
      const request = await renderedRequest(env(), owner.id, 1);
      // The upload start refuses the token, and again after the one refresh.
      sandbox.faults.push({ platform: 'youtube', step: 'init', kind: 'unauthorized', times: 2 });

      await publish(owner, request, profile.id, { inYouTube: true, inTikTok: false, inInstagram: false });
      const failed = await settled(owner, request.idUpload);
      expect(failed.status).toBe('error');
      expect(failed.video[0]).toMatchObject({ status: 'error', urlYouTube: null });
      expect(failed.video[0]!.error).toMatch(new RegExp(`^YouTube: ${t.platform.authRevoked}`));
      const account = await env().app.inject({ method: 'GET', url: `/api/accounts/${profile.id}`, headers: owner.headers });
      // The profile says what its YouTube connection is now (one state per connection): refused, with the platform's words.
      const refusedWords = t.health.platformState('YouTube', t.health.stateWithReason(t.health.states.down, t.health.kinds.refused));
      expect(account.json()).toMatchObject({ status: 'error', error: `${refusedWords} (Request had invalid authentication credentials.)` });

      const retry = () =>
        env().app.inject({
          method: 'POST',
          url: '/api/upload-video/upload',
          headers: owner.headers,
          payload: { videoId: request.videos[0]!.id, youTubeId: request.idUpload },
        });
      const refused = await retry();
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(t.postTruth.retryRevoked(`#${profile.id} evening-${env().kind}`, 'YouTube'));
      expect((await settled(owner, request.idUpload)).video[0]!.status).toBe('error');

      // Saving the profile asks the platforms again: the grant answers, the failure is cleared.
      const saved = await env().app.inject({
        method: 'PATCH',
        url: `/api/accounts/${profile.id}`,
        headers: owner.headers,
        payload: { ...emptyAccount, ...sandboxProfileFields(env(), 'evening', network().proxy.url) },
      });
      expect(saved.json()).toMatchObject({ status: 'success', error: null });
      const retried = await retry();
      expect(retried.json()).toMatchObject({ status: 'publication', error: null });
      const published = await settled(owner, request.idUpload);
      expect(published.status).toBe('success');
      expect(published.video[0]!.urlYouTube).toMatch(/^https:\/\/www\.youtube\.com\/shorts\//);
      const healed = await env().app.inject({ method: 'GET', url: `/api/accounts/${profile.id}`, headers: owner.headers });
      expect(healed.json()).toMatchObject({ status: 'success', error: null });
    });

    it('a platform quota holds the post until YouTube’s quotas reset at Pacific midnight instead of failing it', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await connectedProfile(env(), network(), owner, 'quota');
      const request = await renderedRequest(env(), owner.id, 1);
      sandbox.faults.push({ platform: 'youtube', step: 'init', kind: 'quota' });
      const started = Date.now();

      await publish(owner, request, profile.id, { inYouTube: true, inTikTok: false, inInstagram: false });
      let post: any;
      await vi.waitFor(
        async () => {
          [post] = (
            await env().db.sql(
              'SELECT id, status, job_token, scheduled_at, failure, wait_kind, wait_detail, next_attempt_at FROM video_posts WHERE video_id = $1',
              [request.videos[0]!.id],
            )
          ).rows;
          expect(post).toMatchObject({ wait_kind: 'cap', wait_detail: { refused: true } });
        },
        { timeout: 20_000, interval: 250 },
      );
      // A cap is no error: the set's page says why it waits and until when.
      expect(post).toMatchObject({ status: 'pending', failure: null });
      expect(new Date(post.scheduled_at).toISOString()).toBe(pacificDay(new Date(started)).end.toISOString());
      expect(new Date(post.next_attempt_at).toISOString()).toBe(new Date(post.scheduled_at).toISOString());
      const { rows: jobs } = await env().db.sql(`SELECT start_after FROM pgboss.job WHERE name = $1 AND data->>'token' = $2`, [
        publishJobName,
        post.job_token,
      ]);
      expect(new Date(jobs[0].start_after).toISOString()).toBe(new Date(post.scheduled_at).toISOString());
      const { rows: videos } = await env().db.sql('SELECT status FROM videos WHERE id = $1', [request.videos[0]!.id]);
      expect(videos[0].status).toBe('publication');
    });

    it("a run that keeps failing waits for pg-boss's backoff, and the post says why and when it is tried next", async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await connectedProfile(env(), network(), owner, 'backoff');
      const request = await renderedRequest(env(), owner.id, 1);
      // More failures than the run's in-process attempts: the run throws and pg-boss retries later.
      sandbox.faults.push({ platform: 'youtube', step: 'init', kind: 'status-500', times: 20 });

      const videoId = request.videos[0]!.id;
      let post: any;
      await withRetryPausesOnClock(async () => {
        await publish(owner, request, profile.id, { inYouTube: true, inTikTok: false, inInstagram: false });
        await vi.waitFor(
          async () => {
            [post] = (
              await env().db.sql(
                'SELECT job_token, started_at, failure, failure_detail, wait_kind, wait_detail, next_attempt_at FROM video_posts WHERE video_id = $1',
                [videoId],
              )
            ).rows;
            expect(post.next_attempt_at).not.toBeNull();
            // The failure its retries will end with, and the wait's, are the platform's kind and answer, never words.
            expect(post).toMatchObject({
              failure: 'unavailable',
              wait_kind: 'retry',
              wait_detail: { failure: { kind: 'unavailable', status: 500 } },
            });
            expect(post.wait_detail.failure).toEqual({ kind: post.failure, ...post.failure_detail });
          },
          { timeout: 30_000, interval: 250 },
        );
      });
      expect(post.started_at).not.toBeNull();
      const { rows: jobs } = await env().db.sql(`SELECT state, start_after FROM pgboss.job WHERE name = $1 AND data->>'token' = $2`, [
        publishJobName,
        post.job_token,
      ]);
      expect(jobs[0].state).toBe('retry');
      expect(new Date(post.next_attempt_at).toISOString()).toBe(new Date(jobs[0].start_after).toISOString());
      const detail = await env().app.inject({ method: 'GET', url: `/api/upload-video/${request.idUpload}`, headers: owner.headers });
      expect(detail.json<UploadDetail>().video[0]).toMatchObject({
        status: 'publication',
        waitReason: t.postTruth.waitRetry(failureText('youtube', post.wait_detail.failure)),
        waitKind: 'retry',
        nextAttemptAt: new Date(post.next_attempt_at).toISOString(),
        changeable: false,
      });
      sandbox.faults.splice(0);
    });

    it("a connected profile's channel description goes to YouTube; a refusal answers the platform message and keeps the stored text", async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await connectedProfile(env(), network(), owner, 'channel');
      const update = (description: string) =>
        env().app.inject({
          method: 'PATCH',
          url: `/api/accounts/update-channel/${profile.id}`,
          headers: owner.headers,
          payload: { description },
        });

      const saved = await update('Канал про ранкові пробіжки');
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().description).toBe('Канал про ранкові пробіжки');
      expect([...sandbox.channelDescriptions.values()]).toContain('Канал про ранкові пробіжки');

      sandbox.faults.push({ platform: 'youtube', step: 'profile', kind: 'status-500' });
      const refused = await update('Новий опис');
      expect(refused.statusCode).toBe(502);
      expect(refused.json().message).toMatch(new RegExp(`^YouTube: ${t.platform.unavailable}`));
      const detail = await env().app.inject({ method: 'GET', url: `/api/accounts/${profile.id}`, headers: owner.headers });
      expect(detail.json().description).toBe('Новий опис');
      expect([...sandbox.channelDescriptions.values()]).not.toContain('Новий опис');
    });

    it('cancels the YouTube post of a video alone: its TikTok post still goes out at its time, and the undo puts the YouTube post back', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await connectedProfile(env(), network(), owner, 'one-post');
      const request = await renderedRequest(env(), owner.id, 1);
      const videoId = request.videos[0]!.id;
      const at = kyivDay(1, '10:00');
      const published = await env().app.inject({
        method: 'POST',
        url: `/api/upload-video/${request.idUpload}`,
        headers: owner.headers,
        payload: publishPayload(request, [profile.id], { inYouTube: true, inTikTok: true, inInstagram: false, date: at.wall }),
      });
      expect(published.statusCode, published.body).toBe(200);
      const url = `/api/upload-video/${request.idUpload}/video/${videoId}/schedule`;
      const call = (method: 'DELETE' | 'POST', path: string) => env().app.inject({ method, url: path, headers: owner.headers });
      const posts = async () =>
        (await storedPosts(env(), { videoId }, 'p.id, p.platform, p.status, p.scheduled_at, p.job_token')).map((post) => ({
          ...post,
          scheduled_at: new Date(post.scheduled_at).toISOString(),
        }));
      const jobs = async () =>
        (
          await env().db.sql(`SELECT data->>'token' AS token, start_after FROM pgboss.job WHERE name = $1 AND state = 'created'`, [
            publishJobName,
          ])
        ).rows.map((job) => ({ token: job.token, startAfter: new Date(job.start_after).toISOString() }));
      const shown = async () => {
        const detail = (
          await env().app.inject({ url: `/api/upload-video/${request.idUpload}`, headers: owner.headers })
        ).json<UploadDetail>();
        return { status: detail.video[0]!.status, posts: detail.video[0]!.posts.map((post) => [post.platform, post.state]) };
      };
      const planned = await posts();
      expect(planned.map((post) => [post.platform, post.status, post.scheduled_at])).toEqual([
        ['tiktok', 'pending', at.iso],
        ['youtube', 'pending', at.iso],
      ]);

      const cancelled = await call('DELETE', `${url}/youtube`);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      const tiktok = planned.find((post) => post.platform === 'tiktok')!;
      expect(await posts()).toEqual([tiktok]);
      // The YouTube post's job went with it; TikTok's waits for its time.
      expect(await jobs()).toEqual([{ token: tiktok.job_token, startAfter: at.iso }]);
      expect(await shown()).toEqual({
        status: 'publication',
        posts: [
          ['youtube', 'cancelled'],
          ['tiktok', 'scheduled'],
        ],
      });
      const again = await call('DELETE', `${url}/youtube`);
      expect([again.statusCode, again.json().message]).toEqual([409, t.postTruth.postNotScheduled('YouTube')]);

      // Its time comes: pg-boss tells due jobs by the database's now(), so the job due at 10:00 is made due now.
      const uploadsBefore = sandbox.videos.length;
      await env().db.sql(`UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND state = 'created' AND start_after <= $2`, [
        publishJobName,
        at.iso,
      ]);
      env().queue!.nudge(publishJobName);
      await vi.waitFor(async () => expect((await posts())[0]).toMatchObject({ platform: 'tiktok', status: 'done' }), {
        timeout: 30_000,
        interval: 250,
      });
      expect(sandbox.videos.slice(uploadsBefore).map((video) => video.platform)).toEqual(['tiktok']);
      expect(await shown()).toEqual({
        status: 'success',
        posts: [
          ['youtube', 'cancelled'],
          ['tiktok', 'published'],
        ],
      });
      // A post out (or on its way) is not cancelled, alone or with its video.
      const late = await call('DELETE', `${url}/tiktok`);
      expect([late.statusCode, late.json().message]).toEqual([409, t.postTruth.postAlreadyStarted('TikTok')]);
      expect((await call('DELETE', url)).json().message).toBe(t.postTruth.alreadyStarted);

      // The undo puts back the YouTube post alone, as it was: its profile, its time, a new job.
      const restored = await call('POST', `${url}/youtube`);
      expect(restored.statusCode, restored.body).toBe(200);
      const youtube = (await posts()).find((post) => post.platform === 'youtube')!;
      expect(youtube).toMatchObject({ status: 'pending', scheduled_at: at.iso });
      expect(youtube.job_token).not.toBe(planned.find((post) => post.platform === 'youtube')!.job_token);
      expect(await jobs()).toEqual([{ token: youtube.job_token, startAfter: at.iso }]);
      expect(await shown()).toEqual({
        status: 'publication',
        posts: [
          ['youtube', 'scheduled'],
          ['tiktok', 'published'],
        ],
      });
      const twice = await call('POST', `${url}/youtube`);
      expect([twice.statusCode, twice.json().message]).toEqual([409, t.postTruth.postNothingCancelled('YouTube')]);
    });

    it("a profile deleted before its video's time fails the post with a message saying so", async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await connectedProfile(env(), network(), owner, 'gone');
      const request = await renderedRequest(env(), owner.id, 1);
      await env().app.inject({
        method: 'POST',
        url: `/api/upload-video/${request.idUpload}`,
        headers: owner.headers,
        payload: publishPayload(request, [profile.id], { date: kyivDay(300, '10:00').wall }),
      });
      const [post] = (await env().db.sql('SELECT id, job_token FROM video_posts WHERE video_id = $1', [request.videos[0]!.id])).rows;
      expect((await env().app.inject({ method: 'DELETE', url: `/api/accounts/${profile.id}`, headers: owner.headers })).statusCode).toBe(
        204,
      );

      await publishPost({ postId: post.id, token: post.job_token }, testJobContext(env()));
      const { rows } = await env().db.sql('SELECT failure, failure_detail FROM video_posts WHERE id = $1', [post.id]);
      expect(rows[0]).toEqual({ failure: 'profile_deleted', failure_detail: {} });
      const detail = await env().app.inject({ method: 'GET', url: `/api/upload-video/${request.idUpload}`, headers: owner.headers });
      expect(detail.json<UploadDetail>().video[0]).toMatchObject({
        status: 'error',
        error: `YouTube: ${t.platform.profileDeleted}`,
        account: null,
      });
    });

    it('when pg-boss gives up, the dead letter fails the post with the last reason it kept', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await connectedProfile(env(), network(), owner, 'dead');
      const request = await renderedRequest(env(), owner.id, 1);
      // Scheduled far ahead, so the worker leaves it alone while the dead letter is played by hand.
      await env().app.inject({
        method: 'POST',
        url: `/api/upload-video/${request.idUpload}`,
        headers: owner.headers,
        payload: publishPayload(request, [profile.id], {
          inYouTube: false,
          inTikTok: true,
          inInstagram: false,
          date: kyivDay(300, '10:00').wall,
        }),
      });
      const videoId = request.videos[0]!.id;
      const [post] = (
        await env().db.sql(
          `UPDATE video_posts SET failure = 'unavailable', failure_detail = '{"answer": "недоступна"}' WHERE video_id = $1 RETURNING id, job_token`,
          [videoId],
        )
      ).rows;
      await markPublishFailed({ postId: post.id, token: crypto.randomUUID() }, testJobContext(env()));
      expect((await env().db.sql('SELECT status FROM video_posts WHERE id = $1', [post.id])).rows[0].status).toBe('pending');
      await markPublishFailed({ postId: post.id, token: post.job_token }, testJobContext(env()));
      const detail = await env().app.inject({ method: 'GET', url: `/api/upload-video/${request.idUpload}`, headers: owner.headers });
      expect(detail.json<UploadDetail>().video[0]).toMatchObject({
        status: 'error',
        errorTiktok: `TikTok: ${t.platform.unavailable} (недоступна)`,
        error: null,
      });
    });
  },
  { queue: 'work', sandbox },
);
