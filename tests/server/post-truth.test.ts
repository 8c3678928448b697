import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import type { AccountSummary, NotificationList, UploadDetail } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { failPost, publishJobName } from '../../server/services/publishing/post-lifecycle';
import { DeferJob } from '../../server/engine/runner';
import { busyProfileWaitSeconds, publishPost } from '../../server/jobs/publish';
import { tryLease } from '../../server/engine/liveness';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, storedPosts, type TestEnv, testJobContext } from './helpers';
import { kyivDay, publishPayload, renderedRequest, type RenderedRequest } from './publishing-fixtures';

const youtubeProfile = {
  isActiveYouTube: true,
  YouTubeAuthClientId: 'client.apps.googleusercontent.com',
  YouTubeAuthClientSecret: 'secret',
};
const tiktokProfile = { isActiveTikTok: true, TikTiokAuthStr: 'sandbox-tt-Y3JlYXRvcg' };
const { wall: later, iso: laterIso } = kyivDay(30, '12:00');
const moveTo = kyivDay(60, '09:15');
const moveAgain = kyivDay(90, '10:00');
const adminMove = kyivDay(45, '12:00');

function postsOf(env: TestEnv, videoId: number) {
  return storedPosts(
    env,
    { videoId },
    'p.id, p.platform, p.account_id, p.status, p.scheduled_at, p.job_token, p.started_at, p.wait_kind, p.wait_detail, p.next_attempt_at',
  );
}

async function jobsOf(env: TestEnv, postIds: number[]) {
  const { rows } = await env.db.sql(
    `SELECT data->>'token' AS token, start_after FROM pgboss.job WHERE name = $1 AND (data->>'postId')::int = ANY($2::int[]) ORDER BY created_on`,
    [publishJobName, postIds],
  );
  return rows.map((row) => ({ token: row.token, startAfter: new Date(row.start_after).toISOString() }));
}

describeEachDatabase(
  'What a published set says about its posts',
  (env) => {
    const call = (user: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      env().app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });

    async function scheduledSet(owner: TestUser, accountId: number, flags = {}): Promise<RenderedRequest> {
      const request = await renderedRequest(env(), owner.id, 1);
      const response = await call(
        owner,
        'POST',
        `/api/upload-video/${request.idUpload}`,
        publishPayload(request, [accountId], { date: later, ...flags }),
      );
      expect(response.statusCode, response.body).toBe(200);
      return request;
    }

    it('refuses a publish with no platform ticked, before anything is queued', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, youtubeProfile);
      const request = await renderedRequest(env(), owner.id, 1);
      const payload = publishPayload(request, [profile.id], { inYouTube: false, inTikTok: false, inInstagram: false });
      const response = await call(owner, 'POST', `/api/upload-video/${request.idUpload}`, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(t.postTruth.noPlatformTicked);
      expect(await postsOf(env(), request.videos[0]!.id)).toEqual([]);
    });

    it('moves a scheduled video to another date and profile: one post, one job, the old job gone', async () => {
      const owner = await createUser(env(), 'owner');
      const first = await createAccount(env(), owner, youtubeProfile);
      const second = await createAccount(env(), owner, { ...youtubeProfile, ...tiktokProfile, comments: 'другий' });
      const request = await scheduledSet(owner, first.id, { inTikTok: true });
      const videoId = request.videos[0]!.id;
      const [before] = await postsOf(env(), videoId);
      const url = `/api/upload-video/${request.idUpload}/video/${videoId}`;

      const opened = (await call(owner, 'GET', `/api/upload-video/${request.idUpload}`)).json<UploadDetail>();
      expect(opened.video[0]).toMatchObject({
        status: 'publication',
        plannedAt: laterIso,
        changeable: true,
        waitReason: null,
        waitKind: null,
        publishNote: t.postTruth.platformsMissing(`#${first.id}`, ['TikTok']),
      });

      const moved = await call(owner, 'PATCH', url, { date: moveTo.wall, accountId: second.id });
      expect(moved.statusCode, moved.body).toBe(200);
      const posts = await postsOf(env(), videoId);
      expect(posts.map(({ platform, account_id, status }) => ({ platform, account_id, status }))).toEqual([
        { platform: 'tiktok', account_id: second.id, status: 'pending' },
        { platform: 'youtube', account_id: second.id, status: 'pending' },
      ]);
      expect(posts.every((post) => new Date(post.scheduled_at).toISOString() === moveTo.iso)).toBe(true);
      expect(await jobsOf(env(), [before.id, ...posts.map((post) => post.id)])).toEqual(
        expect.arrayContaining(posts.map((post) => ({ token: post.job_token, startAfter: moveTo.iso }))),
      );
      expect(await jobsOf(env(), [before.id, ...posts.map((post) => post.id)])).toHaveLength(2);
      expect(moved.json<UploadDetail>().video[0]).toMatchObject({
        account: { id: second.id },
        date: moveTo.iso,
        plannedAt: moveTo.iso,
        publishNote: null,
      });

      // The job sent before the move finds its token replaced: it does nothing.
      await publishPost({ postId: before.id, token: before.job_token }, testJobContext(env()));
      expect((await postsOf(env(), videoId)).map((post) => post.started_at)).toEqual([null, null]);

      // A date alone keeps the profile.
      const dated = await call(owner, 'PATCH', url, { date: moveAgain.wall });
      expect(dated.json<UploadDetail>().video[0]).toMatchObject({ account: { id: second.id }, plannedAt: moveAgain.iso });
    });

    it('moves one post of a video alone to another date: its job replaced, the other post and its job where they were', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, { ...youtubeProfile, ...tiktokProfile });
      const request = await scheduledSet(owner, profile.id, { inTikTok: true });
      const videoId = request.videos[0]!.id;
      const url = `/api/upload-video/${request.idUpload}/video/${videoId}`;
      const before = await postsOf(env(), videoId);
      const tiktokBefore = before.find((post) => post.platform === 'tiktok')!;
      // YouTube's post was held by its quota: moved, it waits for nothing but its new time.
      await env().db.sql(
        `UPDATE video_posts SET wait_kind = 'quota', wait_detail = '{}'::jsonb, next_attempt_at = $2 WHERE video_id = $1 AND platform = 'youtube'`,
        [videoId, laterIso],
      );

      const moved = await call(owner, 'PATCH', url, { date: moveTo.wall, platform: 'youtube' });
      expect(moved.statusCode, moved.body).toBe(200);
      const after = await postsOf(env(), videoId);
      const when = (platform: string) => new Date(after.find((post) => post.platform === platform)!.scheduled_at).toISOString();
      expect([when('youtube'), when('tiktok')]).toEqual([moveTo.iso, laterIso]);
      const youtube = after.find((post) => post.platform === 'youtube')!;
      expect([youtube.wait_kind, youtube.wait_detail, youtube.next_attempt_at]).toEqual([null, null, null]);
      expect(after.find((post) => post.platform === 'tiktok')!.job_token).toBe(tiktokBefore.job_token);
      expect(
        await jobsOf(
          env(),
          before.map((post) => post.id),
        ),
      ).toEqual(
        expect.arrayContaining([
          { token: youtube.job_token, startAfter: moveTo.iso },
          { token: tiktokBefore.job_token, startAfter: laterIso },
        ]),
      );
      expect(
        await jobsOf(
          env(),
          before.map((post) => post.id),
        ),
      ).toHaveLength(2);
      const detail = moved.json<UploadDetail>().video[0]!;
      expect(detail.posts.map((post) => [post.platform, post.state, post.date])).toEqual(
        expect.arrayContaining([
          ['youtube', 'scheduled', moveTo.iso],
          ['tiktok', 'scheduled', laterIso],
        ]),
      );
      // The video's date is its first post still to go.
      expect(detail.date).toBe(laterIso);

      // A post moves in time only, to a date; a platform the set is not on has no post to move.
      const withProfile = await call(owner, 'PATCH', url, { date: moveAgain.wall, platform: 'youtube', accountId: profile.id });
      expect([withProfile.statusCode, withProfile.json().message]).toEqual([400, t.postTruth.postMovesInTime]);
      const undated = await call(owner, 'PATCH', url, { date: null, platform: 'youtube' });
      expect([undated.statusCode, undated.json().message]).toEqual([400, t.postTruth.postDateRequired]);
      const none = await call(owner, 'PATCH', url, { date: moveAgain.wall, platform: 'instagram' });
      expect([none.statusCode, none.json().message]).toEqual([409, t.postTruth.postNotScheduled('Instagram')]);
    });

    it('refuses a bad move in Ukrainian: nothing to change, a past date or one over a year ahead, a foreign profile, a profile without the platforms', async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const profile = await createAccount(env(), owner, youtubeProfile);
      const tiktokOnly = await createAccount(env(), owner, tiktokProfile);
      const foreign = await createAccount(env(), other, youtubeProfile);
      const request = await scheduledSet(owner, profile.id);
      const videoId = request.videos[0]!.id;
      const url = `/api/upload-video/${request.idUpload}/video/${videoId}`;
      const refusal = async (payload: object) => {
        const response = await call(owner, 'PATCH', url, payload);
        return [response.statusCode, response.json().message];
      };

      expect(await refusal({})).toEqual([400, t.postTruth.dateRequired]);
      expect(await refusal({ date: '2020-01-01T10:00' })).toEqual([400, t.publish.pastDate]);
      // A year ahead at most: a mistyped year would wait outside every calendar.
      expect(await refusal({ date: '9999-12-31T10:00' })).toEqual([400, t.publish.tooFarAhead]);
      expect(await refusal({ date: kyivDay(370, '10:00').wall })).toEqual([400, t.publish.tooFarAhead]);
      expect(await refusal({ accountId: foreign.id })).toEqual([400, t.publish.unknownAccount]);
      expect(await refusal({ accountId: tiktokOnly.id })).toEqual([
        400,
        t.postTruth.noPlatformFor(t.postTruth.setVideo(videoId), `#${tiktokOnly.id}`, 'YouTube'),
      ]);
      expect((await call(other, 'PATCH', url, { date: later })).statusCode).toBe(404);
      expect((await call(other, 'DELETE', `${url}/schedule`)).statusCode).toBe(404);
      const admin = await createUser(env(), 'admin', { role: 'admin' });
      expect((await call(admin, 'PATCH', url, { date: adminMove.wall })).statusCode).toBe(200);
      const [post] = await postsOf(env(), videoId);
      expect(new Date(post.scheduled_at).toISOString()).toBe(adminMove.iso);
    });

    it('refuses to move or cancel a post its job has started (409), and cancels one that has not', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, youtubeProfile);
      const started = await scheduledSet(owner, profile.id);
      // What the job's claim writes (publishHoldingLease): from then on the post is the job's.
      await env().db.sql(`UPDATE video_posts SET started_at = now() WHERE video_id = $1`, [started.videos[0]!.id]);
      const startedUrl = `/api/upload-video/${started.idUpload}/video/${started.videos[0]!.id}`;
      for (const response of [
        await call(owner, 'PATCH', startedUrl, { date: later }),
        await call(owner, 'DELETE', `${startedUrl}/schedule`),
      ]) {
        expect(response.statusCode).toBe(409);
        expect(response.json().message).toBe(t.postTruth.alreadyStarted);
      }
      expect((await call(owner, 'GET', `/api/upload-video/${started.idUpload}`)).json<UploadDetail>().video[0]).toMatchObject({
        changeable: false,
        plannedAt: null,
      });

      const request = await scheduledSet(owner, profile.id);
      const videoId = request.videos[0]!.id;
      const [post] = await postsOf(env(), videoId);
      const cancelled = await call(owner, 'DELETE', `/api/upload-video/${request.idUpload}/video/${videoId}/schedule`);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(await postsOf(env(), videoId)).toEqual([]);
      expect(await jobsOf(env(), [post.id])).toEqual([]);
      const detail = cancelled.json<UploadDetail>();
      // Nothing of the set went out: it is never 'Опубліковано'.
      expect(detail.status).toBe('cancelled');
      expect(detail.video[0]).toMatchObject({ status: 'cancelled', publishNote: null, changeable: false });
      const again = await call(owner, 'DELETE', `/api/upload-video/${request.idUpload}/video/${videoId}/schedule`);
      expect([again.statusCode, again.json().message]).toEqual([409, t.postTruth.nothingScheduled]);

      // A rendered video left out of the publication is ready, not published: it does not make the set 'Опубліковано'.
      const pair = await renderedRequest(env(), owner.id, 2);
      const payload = publishPayload(pair, [profile.id], { date: later });
      payload.video.splice(1, 1);
      expect((await call(owner, 'POST', `/api/upload-video/${pair.idUpload}`, payload)).statusCode).toBe(200);
      const left = await call(owner, 'DELETE', `/api/upload-video/${pair.idUpload}/video/${pair.videos[0]!.id}/schedule`);
      expect(left.json<UploadDetail>().status).toBe('cancelled');
      const listed = (await call(owner, 'GET', '/api/upload-video')).json().data;
      expect(listed.find((row: { idUpload: string }) => row.idUpload === pair.idUpload).status).toBe('cancelled');
    });

    it("says 'cancelled' for a cancelled video in the set, the set lists, the request list and the profile's and the user's videos, and puts it back as it was", async () => {
      const owner = await createUser(env(), 'owner');
      const admin = await createUser(env(), 'admin', { role: 'admin' });
      const other = await createUser(env(), 'other');
      const profile = await createAccount(env(), owner, { ...youtubeProfile, ...tiktokProfile });
      const request = await scheduledSet(owner, profile.id, { inTikTok: true });
      const videoId = request.videos[0]!.id;
      const url = `/api/upload-video/${request.idUpload}/video/${videoId}/schedule`;
      const plan = async () =>
        (await postsOf(env(), videoId)).map(({ platform, account_id, status, scheduled_at }) => ({
          platform,
          account_id,
          status,
          scheduledAt: new Date(scheduled_at).toISOString(),
        }));
      const optionsOf = async () =>
        (await env().db.sql(`SELECT platform, options FROM video_posts WHERE video_id = $1 ORDER BY platform`, [videoId])).rows;
      const before = await postsOf(env(), videoId);
      const planned = await plan();
      const options = await optionsOf();
      expect(planned).toEqual([
        { platform: 'tiktok', account_id: profile.id, status: 'pending', scheduledAt: laterIso },
        { platform: 'youtube', account_id: profile.id, status: 'pending', scheduledAt: laterIso },
      ]);

      expect((await call(owner, 'DELETE', url)).statusCode).toBe(200);
      const statuses = async () => ({
        set: (await call(owner, 'GET', `/api/upload-video/${request.idUpload}`)).json<UploadDetail>().video[0]!.status,
        setList: (await call(owner, 'GET', '/api/upload-video')).json().data.find((row: { id: number }) => row.id === request.id).status,
        requestList: (await call(owner, 'GET', '/api/create-video')).json().data.find((row: { id: number }) => row.id === request.id)
          .publicationStatus,
        profileVideos: (await call(owner, 'GET', `/api/accounts/${profile.id}/video`)).json().data[0].status,
        userVideos: (await call(admin, 'GET', `/api/users/${owner.id}/video`)).json().data.find((row: { id: number }) => row.id === videoId)
          .status,
      });
      expect(await statuses()).toEqual({
        set: 'cancelled',
        setList: 'cancelled',
        requestList: 'cancelled',
        profileVideos: 'cancelled',
        userVideos: 'cancelled',
      });
      const filtered = async (status: string) =>
        (await call(owner, 'GET', `/api/upload-video?status=${status}`)).json().data.map((row: { id: number }) => row.id);
      expect(await filtered('cancelled')).toEqual([request.id]);
      expect(await filtered('publication')).toEqual([]);
      expect(await postsOf(env(), videoId)).toEqual([]);

      expect((await call(other, 'POST', url)).statusCode).toBe(404);
      const restored = await call(owner, 'POST', url);
      expect(restored.statusCode, restored.body).toBe(200);
      expect(restored.json<UploadDetail>().video[0]).toMatchObject({
        status: 'publication',
        account: { id: profile.id },
        plannedAt: laterIso,
        changeable: true,
      });
      expect(await plan()).toEqual(planned);
      expect(await optionsOf()).toEqual(options);
      const after = await postsOf(env(), videoId);
      // Each post has one job again, at the date it had; the jobs sent before the cancel stay gone.
      expect(
        await jobsOf(
          env(),
          [...before, ...after].map((post) => post.id),
        ),
      ).toEqual(expect.arrayContaining(after.map((post) => ({ token: post.job_token, startAfter: laterIso }))));
      expect(
        await jobsOf(
          env(),
          [...before, ...after].map((post) => post.id),
        ),
      ).toHaveLength(2);
      expect(after.map((post) => post.job_token)).not.toContain(before[0].job_token);
      expect(await statuses()).toEqual({
        set: 'publication',
        setList: 'publication',
        requestList: 'publication',
        profileVideos: 'publication',
        userVideos: 'publication',
      });

      const again = await call(owner, 'POST', url);
      expect([again.statusCode, again.json().message]).toEqual([409, t.postTruth.nothingCancelled]);
    });

    it("puts back exactly what each cancel took: one post's, or the latest whole cancel's", async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, { ...youtubeProfile, ...tiktokProfile });
      const request = await scheduledSet(owner, profile.id, { inTikTok: true });
      const videoId = request.videos[0]!.id;
      const url = `/api/upload-video/${request.idUpload}/video/${videoId}/schedule`;
      const platforms = async () => (await postsOf(env(), videoId)).map((post) => post.platform);
      const states = async () =>
        (await call(owner, 'GET', `/api/upload-video/${request.idUpload}`))
          .json<UploadDetail>()
          .video[0]!.posts.map((post) => [post.platform, post.state]);

      expect((await call(owner, 'DELETE', `${url}/youtube`)).statusCode).toBe(200);
      expect(await platforms()).toEqual(['tiktok']);
      // The whole video's cancel takes what is left; its undo puts back that, not the earlier YouTube cancel.
      expect((await call(owner, 'DELETE', url)).statusCode).toBe(200);
      expect(await platforms()).toEqual([]);
      expect((await call(owner, 'GET', `/api/upload-video/${request.idUpload}`)).json<UploadDetail>().video[0]!.status).toBe('cancelled');
      expect((await call(owner, 'POST', url)).statusCode).toBe(200);
      expect(await platforms()).toEqual(['tiktok']);
      expect(await states()).toEqual([
        ['youtube', 'cancelled'],
        ['tiktok', 'scheduled'],
      ]);
      expect((await call(owner, 'POST', `${url}/youtube`)).statusCode).toBe(200);
      expect(await platforms()).toEqual(['tiktok', 'youtube']);
      expect(await states()).toEqual([
        ['youtube', 'scheduled'],
        ['tiktok', 'scheduled'],
      ]);
      // A platform the set is not on has no post to cancel; a path naming no platform names nothing.
      const none = await call(owner, 'DELETE', `${url}/instagram`);
      expect([none.statusCode, none.json().message]).toEqual([409, t.postTruth.postNotScheduled('Instagram')]);
      expect((await call(owner, 'DELETE', `${url}/vimeo`)).statusCode).toBe(404);
    });

    it('refuses to put back a cancelled publication whose profile was deleted since, and keeps it cancelled', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, youtubeProfile);
      const request = await scheduledSet(owner, profile.id);
      const url = `/api/upload-video/${request.idUpload}/video/${request.videos[0]!.id}/schedule`;
      expect((await call(owner, 'DELETE', url)).statusCode).toBe(200);
      expect((await call(owner, 'DELETE', `/api/accounts/${profile.id}`)).statusCode).toBe(204);
      const refused = await call(owner, 'POST', url);
      expect([refused.statusCode, refused.json().message]).toEqual([409, t.postTruth.restoreProfileDeleted]);
      expect((await call(owner, 'GET', `/api/upload-video/${request.idUpload}`)).json<UploadDetail>().video[0]!.status).toBe('cancelled');
      expect(await postsOf(env(), request.videos[0]!.id)).toEqual([]);
    });

    it('a post waiting for its busy profile says so and when it is tried next', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, youtubeProfile);
      const request = await scheduledSet(owner, profile.id);
      const [post] = await postsOf(env(), request.videos[0]!.id);
      const context = testJobContext(env());
      expect(await tryLease(env().db, `upload:${profile.id}:youtube`, crypto.randomUUID(), context.engine)).toBe(true);

      const before = Date.now();
      await expect(publishPost({ postId: post.id, token: post.job_token }, context)).rejects.toBeInstanceOf(DeferJob);
      const [waiting] = await postsOf(env(), request.videos[0]!.id);
      expect(waiting).toMatchObject({ wait_kind: 'busy', wait_detail: {} });
      const next = new Date(waiting.next_attempt_at).getTime();
      expect(next).toBeGreaterThanOrEqual(before + busyProfileWaitSeconds * 1000 - 1000);
      expect(next).toBeLessThanOrEqual(Date.now() + busyProfileWaitSeconds * 1000 + 1000);
      const detail = (await call(owner, 'GET', `/api/upload-video/${request.idUpload}`)).json<UploadDetail>();
      expect(detail.video[0]).toMatchObject({
        status: 'publication',
        waitReason: t.postTruth.waitBusyProfile('YouTube'),
        waitKind: 'busy',
        nextAttemptAt: new Date(waiting.next_attempt_at).toISOString(),
      });
    });

    it('tells the set of a failed publish and the profile whose access failed, and marks only the failed platform on the profile', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, { ...youtubeProfile, ...tiktokProfile, comments: 'Олена' });
      const request = await scheduledSet(owner, profile.id, { inTikTok: true });
      const videoId = request.videos[0]!.id;
      const [tiktokPost] = (
        await env().db.sql(`SELECT id, job_token FROM video_posts WHERE video_id = $1 AND platform = 'tiktok'`, [videoId])
      ).rows;
      await failPost(
        env().db,
        { id: tiktokPost.id, videoId, platform: 'tiktok' },
        tiktokPost.job_token,
        { kind: 'auth_revoked' },
        new Date(),
      );
      await env().db.sql(
        `INSERT INTO connection_states (account_id, platform, state, kind, source, at) VALUES ($1, 'tiktok', 'down', 'refused', 'publish', now())
         ON CONFLICT (account_id, platform) DO UPDATE SET state = EXCLUDED.state, kind = EXCLUDED.kind`,
        [profile.id],
      );

      const list = (await call(owner, 'GET', '/api/notifications')).json<NotificationList>();
      expect(list.items.find((item) => item.kind === 'set_posts')).toMatchObject({
        idUpload: request.idUpload,
        title: 'Ранкова пробіжка',
        posts: { published: 0, failed: 1, held: 0 },
      });
      expect(list.items.find((item) => item.kind === 'credentials_failed')).toMatchObject({
        account: { id: profile.id, name: `#${profile.id} Олена` },
        platform: 'tiktok',
        failure: 'refused',
      });

      const [row] = (await call(owner, 'GET', '/api/accounts')).json<{ data: AccountSummary[] }>().data;
      expect(row).toMatchObject({ status: 'error', inTikTok: true, failedPlatforms: ['tiktok'] });
      // The proxy failing is met, and kept, on each platform reached through it.
      await env().db.sql(`INSERT INTO account_connections (account_id, platform, method) VALUES ($1, 'youtube', 'oauth')`, [profile.id]);
      await env().db.sql(
        `INSERT INTO connection_states (account_id, platform, state, kind, source, at) VALUES ($1, 'youtube', 'down', 'proxy_unreachable', 'publish', now())
         ON CONFLICT (account_id, platform) DO UPDATE SET state = EXCLUDED.state, kind = EXCLUDED.kind`,
        [profile.id],
      );
      const [proxyDown] = (await call(owner, 'GET', '/api/accounts')).json<{ data: AccountSummary[] }>().data;
      expect(proxyDown.failedPlatforms).toEqual(['youtube', 'tiktok']);
    });
  },
  { queue: 'send' },
);
