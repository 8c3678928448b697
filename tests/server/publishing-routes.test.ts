import { describe, expect, it } from 'vitest';
import type { PublicationRequestDetail, UploadDetail } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { publishJobName } from '../../server/services/publishing/post-lifecycle';
import { parsePublishDate } from '../../server/services/publishing/publish-date';
import { platformsOf } from '../../server/services/publishing/publication-plan';
import { assignAccounts } from '../../src/lib/assignment';
import { emptyPublishFields, publishPayloadOf, publishVideosOf } from '../../src/lib/publishing';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, storedPosts, type TestEnv } from './helpers';
import { kyivDay, option, publishPayload, renderedRequest } from './publishing-fixtures';

describe('publish plan', () => {
  it('reads a date without an offset as Europe/Kiev wall time, in summer and in winter', () => {
    expect(parsePublishDate('2026-07-01T12:00')?.toISOString()).toBe('2026-07-01T09:00:00.000Z');
    expect(parsePublishDate('2026-12-01T12:00')?.toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(parsePublishDate('2026-12-01T12:00:30+05:00')?.toISOString()).toBe('2026-12-01T07:00:30.000Z');
    expect(parsePublishDate('2026-12-01T12:00:00.000Z')?.toISOString()).toBe('2026-12-01T12:00:00.000Z');
    expect(parsePublishDate(null)).toBeNull();
    expect(parsePublishDate('  ')).toBeNull();
    expect(() => parsePublishDate('завтра')).toThrow(t.publish.badDate);
    expect(() => parsePublishDate('2026-13-45T12:00')).toThrow(t.publish.badDate);
  });

  it('gives videos on "Будь-який" the chosen profiles by position, and keeps a video\'s own profile', () => {
    expect(assignAccounts([null, null, null, null, null], [7, 8])).toEqual([7, 8, 7, 8, 7]);
    expect(assignAccounts([null, 9, null], [7, 8])).toEqual([7, 9, 7]);
  });

  it('sends a video only to the checked platforms its profile has switched on', () => {
    const flags = { inYouTube: true, inTikTok: true, inInstagram: false };
    expect(platformsOf(flags, { isActiveYouTube: true, isActiveTikTok: false, isActiveInstagram: true, isActiveFacebook: false })).toEqual([
      'youtube',
    ]);
    expect(platformsOf(flags, { isActiveYouTube: true, isActiveTikTok: true, isActiveInstagram: true, isActiveFacebook: false })).toEqual([
      'youtube',
      'tiktok',
    ]);
    expect(platformsOf(flags, { isActiveYouTube: false, isActiveTikTok: false, isActiveInstagram: true, isActiveFacebook: false })).toEqual(
      [],
    );
  });
});

const youtubeProfile = {
  isActiveYouTube: true,
  YouTubeAuthClientId: 'client.apps.googleusercontent.com',
  YouTubeAuthClientSecret: 'secret',
};
const tiktokProfile = { isActiveTikTok: true, TikTiokAuthStr: 'sandbox-tt-Y3JlYXRvcg' };

async function jobsOf(env: TestEnv) {
  const { rows } = await env.db.sql(`SELECT data, start_after FROM pgboss.job WHERE name = $1 ORDER BY created_on`, [publishJobName]);
  return rows.map((row) => ({ postId: row.data.postId as number, token: row.data.token as string, startAfter: new Date(row.start_after) }));
}

function postsOf(env: TestEnv, requestId: number) {
  return storedPosts(env, { requestId }, 'p.id, p.video_id, p.platform, p.account_id, p.status, p.scheduled_at, p.job_token');
}

async function videoRows(env: TestEnv, requestId: number) {
  const { rows } = await env.db.sql('SELECT id, account_id, status, date FROM videos WHERE request_id = $1 ORDER BY position', [requestId]);
  return rows.map((row) => ({
    id: row.id,
    account: row.account_id,
    status: row.status,
    date: row.date ? new Date(row.date).toISOString() : null,
  }));
}

describeEachDatabase(
  'Publishing a finished request',
  (env) => {
    const publish = (user: TestUser | null, idUpload: string, payload: unknown) =>
      env().app.inject({ method: 'POST', url: `/api/upload-video/${idUpload}`, headers: user?.headers ?? {}, payload: payload as object });

    it("offers the owner's profiles, tag sets and groups on the request detail", async () => {
      const owner = await createUser(env(), 'owner');
      const admin = await createUser(env(), 'admin', { role: 'admin' });
      const other = await createUser(env(), 'other');
      const first = await createAccount(env(), owner, { comments: 'перший', ...tiktokProfile });
      const second = await createAccount(env(), owner, {});
      await createAccount(env(), other, { comments: 'чужий' });
      const tags = await env().app.inject({
        method: 'POST',
        url: '/api/tags',
        headers: owner.headers,
        payload: { name: 'Спорт', tags: ['біг'] },
      });
      const group = await env().app.inject({
        method: 'POST',
        url: '/api/accounts-group',
        headers: owner.headers,
        payload: { name: 'Ранок', accounts: [option(second.id)] },
      });
      expect(group.statusCode, group.body).toBe(201);
      const request = await renderedRequest(env(), owner.id, 1);

      for (const viewer of [owner, admin]) {
        const response = await env().app.inject({
          method: 'GET',
          url: `/api/create-video/request/${request.idUpload}`,
          headers: viewer.headers,
        });
        const detail = response.json<PublicationRequestDetail>();
        expect({ accounts: detail.accounts, tagProfile: detail.tagProfile, group: detail.group }).toEqual({
          accounts: [
            // The platforms each has switched on, for the form's warnings.
            { id: first.id, title: `#${first.id} перший`, value: first.id, platforms: ['tiktok'] },
            { id: second.id, title: `#${second.id}`, value: second.id, platforms: [] },
          ],
          tagProfile: [{ id: tags.json().id, name: 'Спорт', tags: ['біг'] }],
          group: [{ id: group.json().id, name: 'Ранок', accounts: [{ id: second.id, title: `#${second.id}`, value: second.id }] }],
        });
      }
    });

    it("refuses the spec's invalid forms with each message", async () => {
      const owner = await createUser(env(), 'owner');
      const request = await renderedRequest(env(), owner.id, 1);
      const response = await publish(owner, request.idUpload, {
        title: ' ',
        description: '',
        tags: [],
        accounts: [],
        video: [],
        inYouTube: true,
        inTikTok: false,
        inInstagram: false,
      });
      expect(response.statusCode).toBe(400);
      expect([...response.json().message].sort()).toEqual(
        [t.publish.nameRequired, t.tagSets.tagsMin, t.groups.accountsMin, t.publish.videoMin].sort(),
      );
      expect(t.tagSets.tagsMin).toBe('Мінімум один тег');
      expect(t.groups.accountsMin).toBe('Мінімум один профіль');
      expect(await jobsOf(env())).toEqual([]);
    });

    it('names the video and its field when an item of the list is missing one or has a wrong one', async () => {
      const owner = await createUser(env(), 'owner');
      const request = await renderedRequest(env(), owner.id, 2);
      const account = await createAccount(env(), owner, youtubeProfile);
      const whole = publishPayload(request, [account.id]);
      const { url: _dropped, ...withoutUrl } = whole.video[1]!;
      const missing = await publish(owner, request.idUpload, { ...whole, video: [whole.video[0]!, withoutUrl] });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({
        statusCode: 400,
        error: t.server.statusNames[400],
        message: [t.publish.videoFieldMissing(2, 'url')],
      });
      expect(t.publish.videoFieldMissing(2, 'url')).toContain('«url»');
      const wrong = await publish(owner, request.idUpload, { ...whole, video: [{ ...whole.video[0]!, idUpload: {} }] });
      expect(wrong.json().message).toEqual([t.validation.wrongType('video.0.idUpload', t.validation.types.string!)]);
      expect(await jobsOf(env())).toEqual([]);
    });

    it("takes the payload the publish form builds from the detail's offer, and the detail's video items sent back whole", async () => {
      const owner = await createUser(env(), 'owner');
      const request = await renderedRequest(env(), owner.id, 2);
      await createAccount(env(), owner, youtubeProfile);
      const detail = (
        await env().app.inject({ url: `/api/create-video/request/${request.idUpload}`, headers: owner.headers })
      ).json() as PublicationRequestDetail;
      // The form's options carry the platforms each profile has, which the payload leaves out.
      expect(detail.accounts[0]!.platforms).toEqual(['youtube']);
      const form = { ...emptyPublishFields, title: 'Назва', tags: ['a'], accounts: detail.accounts, video: publishVideosOf(detail) };
      const sent = await publish(owner, request.idUpload, publishPayloadOf(detail.id, form));
      expect(sent.statusCode, sent.body).toBe(200);

      const again = await renderedRequest(env(), owner.id, 1);
      const echoed = (
        await env().app.inject({ url: `/api/create-video/request/${again.idUpload}`, headers: owner.headers })
      ).json() as PublicationRequestDetail;
      expect(echoed.video[0]).toHaveProperty('posterUrl');
      const whole = publishPayload(again, [echoed.accounts[0]!.id], {
        video: echoed.video.map((video) => ({ ...video, url: video.url!, account: null, date: null })),
      });
      const taken = await publish(owner, again.idUpload, whole);
      expect(taken.statusCode, taken.body).toBe(200);
    });

    it("publishes only ready requests, only through the owner's profiles and only the request's videos", async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const mine = await createAccount(env(), owner, youtubeProfile);
      const theirs = await createAccount(env(), other, youtubeProfile);
      const request = await renderedRequest(env(), owner.id, 1);
      const foreign = await renderedRequest(env(), other.id, 1);

      const withForeignProfile = await publish(owner, request.idUpload, publishPayload(request, [mine.id, theirs.id]));
      expect(withForeignProfile.statusCode).toBe(400);
      expect(withForeignProfile.json().message).toBe(t.publish.unknownAccount);

      const videoAccount = publishPayload(request, [mine.id]);
      videoAccount.video[0]!.account = option(theirs.id);
      expect((await publish(owner, request.idUpload, videoAccount)).json().message).toBe(t.publish.unknownAccount);

      const foreignVideo = publishPayload(request, [mine.id]);
      foreignVideo.video.push(publishPayload(foreign, [mine.id]).video[0]!);
      const response = await publish(owner, request.idUpload, foreignVideo);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(t.publish.unknownVideo);

      const badDate = await publish(owner, request.idUpload, publishPayload(request, [mine.id], { date: 'скоро' }));
      expect(badDate.statusCode).toBe(400);
      expect(badDate.json().message).toBe(`${t.publish.badDate}: скоро`);

      await env().db.sql(`UPDATE creation_requests SET status = 'loading' WHERE id = $1`, [request.id]);
      const notReady = await publish(owner, request.idUpload, publishPayload(request, [mine.id]));
      expect(notReady.statusCode).toBe(409);
      expect(notReady.json().message).toBe(t.publish.notReady);

      expect(await jobsOf(env())).toEqual([]);
      expect(await postsOf(env(), request.id)).toEqual([]);
    });

    it('assigns profiles round-robin by position, keeps a chosen one, and schedules one job per video and platform', async () => {
      const owner = await createUser(env(), 'owner');
      const a = await createAccount(env(), owner, { ...youtubeProfile, ...tiktokProfile });
      const b = await createAccount(env(), owner, youtubeProfile);
      const c = await createAccount(env(), owner, { isActiveInstagram: true, InstagramLogin: 'insta', InstagramPassword: 'pass' });
      const request = await renderedRequest(env(), owner.id, 4);
      const payload = publishPayload(request, [a.id, b.id], { inTikTok: true });
      payload.video[1]!.account = option(c.id);
      payload.video.splice(3, 1);
      const [v0, v1, v2, v3] = request.videos.map((video) => video.id);

      // Its own profile has neither YouTube nor TikTok switched on: it would get no post at all.
      const refused = await publish(owner, request.idUpload, payload);
      expect(refused.statusCode).toBe(400);
      // Named by its place in the request, as the form names it: the second of four.
      expect(refused.json().message).toBe(t.postTruth.noPlatformFor('Відео 2', `#${c.id} insta`, 'YouTube, TikTok'));
      expect(await jobsOf(env())).toEqual([]);

      // One with YouTube only goes out there, and says TikTok is missing.
      payload.video[1]!.account = option(b.id);
      const response = await publish(owner, request.idUpload, payload);
      expect(response.statusCode, response.body).toBe(200);
      expect((await videoRows(env(), request.id)).map(({ id, account, status }) => ({ id, account, status }))).toEqual([
        { id: v0, account: a.id, status: 'publication' },
        { id: v1, account: b.id, status: 'publication' },
        { id: v2, account: a.id, status: 'publication' },
        // Removed from the form: rendered, not published, left as it was.
        { id: v3, account: null, status: 'noactive' },
      ]);
      const posts = await postsOf(env(), request.id);
      expect(posts.map(({ video_id, platform, account_id, status }) => ({ video_id, platform, account_id, status }))).toEqual([
        { video_id: v0, platform: 'tiktok', account_id: a.id, status: 'pending' },
        { video_id: v0, platform: 'youtube', account_id: a.id, status: 'pending' },
        { video_id: v1, platform: 'youtube', account_id: b.id, status: 'pending' },
        { video_id: v2, platform: 'tiktok', account_id: a.id, status: 'pending' },
        { video_id: v2, platform: 'youtube', account_id: a.id, status: 'pending' },
      ]);
      expect(response.json<UploadDetail>().video.map((video) => video.publishNote)).toEqual([
        null,
        t.postTruth.platformsMissing(`#${b.id}`, ['TikTok']),
        null,
      ]);
      const jobs = await jobsOf(env());
      expect(jobs.map(({ postId, token }) => ({ postId, token })).sort((x, y) => x.postId - y.postId)).toEqual(
        posts.map((post) => ({ postId: post.id, token: post.job_token })).sort((x, y) => x.postId - y.postId),
      );

      const detail = response.json<UploadDetail>();
      expect(detail).toMatchObject({ idUpload: request.idUpload, status: 'publication', title: 'Ранкова пробіжка', tags: 'біг,ранок' });
      expect(detail.video.map((video) => video.id)).toEqual([v0, v1, v2]);
    });

    it('gives a set the status of its videos: error if any failed, under way while any is, else published', async () => {
      const owner = await createUser(env(), 'owner');
      const a = await createAccount(env(), owner, youtubeProfile);
      await renderedRequest(env(), owner.id, 1);
      const request = await renderedRequest(env(), owner.id, 3);
      expect((await publish(owner, request.idUpload, publishPayload(request, [a.id]))).statusCode).toBe(200);
      const setStatus = async () => {
        const detail = await env().app.inject({ url: `/api/upload-video/${request.idUpload}`, headers: owner.headers });
        const list = await env().app.inject({ url: '/api/upload-video', headers: owner.headers });
        return [detail.json<UploadDetail>().status, list.json().data[0].status];
      };
      const [first, second, third] = request.videos.map((video) => video.id);
      const setVideo = (id: number, status: string) => env().db.sql('UPDATE videos SET status = $2 WHERE id = $1', [id, status]);

      expect(await setStatus()).toEqual(['publication', 'publication']);
      await setVideo(first, 'success');
      await setVideo(second, 'success');
      await setVideo(third, 'error');
      expect(await setStatus()).toEqual(['error', 'error']);
      await setVideo(third, 'publication');
      expect(await setStatus()).toEqual(['publication', 'publication']);
      await setVideo(third, 'success');
      expect(await setStatus()).toEqual(['success', 'success']);
      // Nothing went out (every video without a post, or cancelled): never 'Опубліковано'.
      for (const id of [first, second, third]) await setVideo(id, 'noactive');
      expect(await setStatus()).toEqual(['noactive', 'noactive']);
      const published = await env().app.inject({ url: '/api/upload-video?status=success', headers: owner.headers });
      expect(published.json().data).toEqual([]);
    });

    it("schedules at the Kiev wall time of the form date, a video's own date first, and keeps the video on publication", async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, youtubeProfile);
      const request = await renderedRequest(env(), owner.id, 2);
      const formDate = kyivDay(30, '12:00');
      const ownDate = kyivDay(200, '08:30');
      const payload = publishPayload(request, [profile.id], { date: formDate.wall });
      payload.video[1]!.date = ownDate.wall;

      expect((await publish(owner, request.idUpload, payload)).statusCode).toBe(200);
      expect((await videoRows(env(), request.id)).map(({ status, date }) => ({ status, date }))).toEqual([
        { status: 'publication', date: formDate.iso },
        { status: 'publication', date: ownDate.iso },
      ]);
      const posts = await postsOf(env(), request.id);
      const jobs = await jobsOf(env());
      expect(
        jobs.map((job) => ({ postId: job.postId, startAfter: job.startAfter.toISOString() })).sort((x, y) => x.postId - y.postId),
      ).toEqual([
        { postId: posts[0].id, startAfter: formDate.iso },
        { postId: posts[1].id, startAfter: ownDate.iso },
      ]);
    });

    it('publishes a request once: it leaves `success`, and a second publish is refused without touching the set', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, youtubeProfile);
      const other = await createAccount(env(), owner, youtubeProfile);
      const request = await renderedRequest(env(), owner.id, 1);
      const first = await publish(
        owner,
        request.idUpload,
        publishPayload(request, [profile.id], { title: 'Перша', date: kyivDay(30, '12:00').wall }),
      );
      expect(first.statusCode, first.body).toBe(200);
      const [before] = await postsOf(env(), request.id);

      const listed = await env().app.inject({ url: '/api/create-video', headers: owner.headers });
      expect(listed.json().data.find((row: { idUpload: string }) => row.idUpload === request.idUpload).status).toBe('published');
      const detail = await env().app.inject({ url: `/api/create-video/request/${request.idUpload}`, headers: owner.headers });
      expect(detail.json().status).toBe('published');

      const again = await publish(
        owner,
        request.idUpload,
        publishPayload(request, [other.id], { title: 'Друга', date: kyivDay(60, '12:00').wall }),
      );
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(t.publish.alreadyPublished);
      const [after] = await postsOf(env(), request.id);
      expect(after).toEqual(before);
      const set = await env().app.inject({ url: `/api/upload-video/${request.idUpload}`, headers: owner.headers });
      expect(set.json().title).toBe('Перша');
      expect((await jobsOf(env())).map((job) => job.token)).toEqual([before.job_token]);
    });

    it('refuses a publish date, or a video date, that has passed or is more than a year ahead, in Kyiv time', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, youtubeProfile);
      const request = await renderedRequest(env(), owner.id, 1);
      const hourAgo = new Date(Date.now() - 60 * 60 * 1000)
        .toLocaleString('sv-SE', { timeZone: 'Europe/Kiev' })
        .slice(0, 16)
        .replace(' ', 'T');
      const formDate = await publish(owner, request.idUpload, publishPayload(request, [profile.id], { date: hourAgo }));
      expect(formDate.statusCode).toBe(400);
      expect(formDate.json().message).toEqual([t.publish.pastDate]);
      const videoDate = publishPayload(request, [profile.id]);
      videoDate.video[0]!.date = '2020-01-01T10:00:00Z';
      const refused = await publish(owner, request.idUpload, videoDate);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(t.publish.pastDate);
      // A year ahead at most, as a mistyped year would wait outside every calendar.
      const farForm = await publish(owner, request.idUpload, publishPayload(request, [profile.id], { date: '9999-12-31T10:00' }));
      expect([farForm.statusCode, farForm.json().message]).toEqual([400, [t.publish.tooFarAhead]]);
      const farVideo = publishPayload(request, [profile.id]);
      farVideo.video[0]!.date = kyivDay(370, '10:00').wall;
      expect((await publish(owner, request.idUpload, farVideo)).json().message).toBe(t.publish.tooFarAhead);
      farVideo.video[0]!.date = '9999-12-31T21:00:00Z';
      expect((await publish(owner, request.idUpload, farVideo)).json().message).toBe(t.publish.tooFarAhead);
      expect(await postsOf(env(), request.id)).toEqual([]);
      // Nothing was published: the request is still ready.
      const accepted = await publish(owner, request.idUpload, publishPayload(request, [profile.id], { date: kyivDay(30, '12:00').wall }));
      expect(accepted.statusCode).toBe(200);
    });

    it('of two publishes of one request at once, exactly one is taken', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, youtubeProfile);
      const request = await renderedRequest(env(), owner.id, 2);
      const answers = await Promise.all(
        ['Перша', 'Друга', 'Третя'].map((title) => publish(owner, request.idUpload, publishPayload(request, [profile.id], { title }))),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
      const winner = answers.find((answer) => answer.statusCode === 200)!.json().title;
      const set = await env().app.inject({ url: `/api/upload-video/${request.idUpload}`, headers: owner.headers });
      expect(set.json().title).toBe(winner);
      expect(await postsOf(env(), request.id)).toHaveLength(2);
      expect(await jobsOf(env())).toHaveLength(2);
    });

    it('scopes the list, detail, edit, publish and retry to the owner; the admin reaches all, anonymous nothing', async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const admin = await createUser(env(), 'admin', { role: 'admin' });
      const profile = await createAccount(env(), owner, youtubeProfile);
      const request = await renderedRequest(env(), owner.id, 1);
      const unpublished = await renderedRequest(env(), owner.id, 1);
      const payload = publishPayload(request, [profile.id]);

      expect((await publish(null, request.idUpload, payload)).statusCode).toBe(401);
      expect((await publish(other, request.idUpload, payload)).statusCode).toBe(404);
      expect((await publish(owner, request.idUpload, payload)).statusCode).toBe(200);
      // The admin reaches the request: it is refused as published, not as missing.
      expect((await publish(admin, request.idUpload, payload)).statusCode).toBe(409);

      const videoId = request.videos[0]!.id;
      await env().db.sql(`UPDATE video_posts SET status = 'error', failure = 'unavailable', failure_detail = '{}' WHERE video_id = $1`, [
        videoId,
      ]);
      await env().db.sql(`UPDATE videos SET status = 'error' WHERE id = $1`, [videoId]);
      const edit = { title: 'Нова назва', description: 'Новий опис', tags: ['Вечір', 'біг'] };

      const call = (user: TestUser | null, method: 'GET' | 'PATCH' | 'POST', url: string, body?: object) =>
        env().app.inject({ method, url, headers: user?.headers ?? {}, ...(body ? { payload: body } : {}) });
      const routes = [
        () => call(null, 'GET', '/api/upload-video'),
        () => call(null, 'GET', `/api/upload-video/${request.idUpload}`),
        () => call(null, 'PATCH', `/api/upload-video/${request.idUpload}`, edit),
        () => call(null, 'POST', '/api/upload-video/upload', { videoId, youTubeId: request.idUpload }),
      ];
      for (const route of routes) expect((await route()).statusCode).toBe(401);

      const empty = await call(other, 'GET', '/api/upload-video');
      expect(empty.json()).toEqual({ data: [], page: 1, totalPages: 0, total: 0 });
      expect((await call(other, 'GET', `/api/upload-video/${request.idUpload}`)).statusCode).toBe(404);
      expect((await call(other, 'PATCH', `/api/upload-video/${request.idUpload}`, edit)).statusCode).toBe(404);
      expect((await call(other, 'POST', '/api/upload-video/upload', { videoId, youTubeId: request.idUpload })).statusCode).toBe(404);
      expect((await call(owner, 'GET', `/api/upload-video/${unpublished.idUpload}`)).statusCode).toBe(404);
      expect((await call(owner, 'GET', '/api/upload-video/not-a-uuid')).statusCode).toBe(404);

      for (const viewer of [owner, admin]) {
        const list = await call(viewer, 'GET', '/api/upload-video?page=1');
        expect(list.json()).toEqual({
          data: [expect.objectContaining({ id: request.id, idUpload: request.idUpload, status: 'error', countVideo: 1 })],
          page: 1,
          totalPages: 1,
          total: 1,
        });
        const detail = (await call(viewer, 'GET', `/api/upload-video/${request.idUpload}`)).json<UploadDetail>();
        expect(detail.video).toEqual([
          expect.objectContaining({
            id: videoId,
            status: 'error',
            error: `YouTube: ${t.platform.unavailable}`,
            account: { id: profile.id },
            idUpload: request.idUpload,
          }),
        ]);
        expect(detail.video[0]!.url).toMatch(new RegExp(`^/api/media/${request.videos[0]!.fileKey}\\?exp=`));
      }

      const edited = await call(admin, 'PATCH', `/api/upload-video/${request.idUpload}`, edit);
      expect(edited.json()).toMatchObject({ title: 'Нова назва', description: 'Новий опис', tags: 'вечір,біг', status: 'error' });
      // A tag holding a comma would break the detail's comma-separated tags: it is split as the tag input splits.
      const commas = await call(owner, 'PATCH', `/api/upload-video/${request.idUpload}`, { ...edit, tags: ['Вечір, біг;ранок'] });
      expect(commas.json()).toMatchObject({ tags: 'вечір,біг,ранок' });
      const invalid = await call(owner, 'PATCH', `/api/upload-video/${request.idUpload}`, { title: '', description: '', tags: [] });
      expect(invalid.statusCode).toBe(400);

      const retried = await call(owner, 'POST', '/api/upload-video/upload', { videoId, youTubeId: request.idUpload });
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retried.json()).toMatchObject({ id: videoId, status: 'publication', error: null });
      const [post] = await postsOf(env(), request.id);
      expect(post.status).toBe('pending');
      expect((await jobsOf(env())).at(-1)).toMatchObject({ postId: post.id, token: post.job_token });
      const again = await call(admin, 'POST', '/api/upload-video/upload', { videoId, youTubeId: request.idUpload });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(t.publish.nothingToRetry);
      expect((await call(owner, 'POST', '/api/upload-video/upload', { videoId, youTubeId: unpublished.idUpload })).statusCode).toBe(404);
    });
  },
  { queue: 'send' },
);
