import { describe, expect, it } from 'vitest';
import { bearer, control, jsonPost, useSandbox, type SandboxEnv } from './sandbox-helpers';

const minute = 60_000;
const day = 24 * 60 * minute;

const creatorInfo = async (env: SandboxEnv, token: string) =>
  (await (await fetch(`${env.base}/open.tiktokapis.com/v2/post/publish/creator_info/query/`, jsonPost({}, token))).json()).data;

const tiktokInit = (env: SandboxEnv, token: string, privacyLevel: string, size = 1000) =>
  fetch(
    `${env.base}/open.tiktokapis.com/v2/post/publish/video/init/`,
    jsonPost(
      {
        post_info: { title: 'Тест', privacy_level: privacyLevel, disable_comment: true, disable_duet: false, disable_stitch: true },
        source_info: { source: 'FILE_UPLOAD', video_size: size, chunk_size: size, total_chunk_count: 1 },
      },
      token,
    ),
  );

async function tiktokPost(env: SandboxEnv, token: string, privacyLevel: string) {
  const init = await tiktokInit(env, token, privacyLevel);
  expect(init.status).toBe(200);
  const { upload_url: uploadUrl } = (await init.json()).data;
  const put = await fetch(uploadUrl, {
    method: 'PUT',
    headers: { 'content-type': 'video/mp4', 'content-range': 'bytes 0-999/1000' },
    body: Buffer.alloc(1000, 7),
  });
  expect(put.status).toBe(201);
}

describe('TikTok creator_info and video/init', () => {
  const env = useSandbox({ limits: { tiktokDailyPosts: 2 } });
  const logins = Array.from({ length: 16 }, (_, index) => `creator${index}`);

  it('offers each account its own privacy levels and switches, the same every time', async () => {
    const infos = await Promise.all(logins.map((login) => creatorInfo(env(), `sandbox-tt-${login}`)));
    const optionSets = new Set(infos.map((info) => info.privacy_level_options.join(',')));
    expect(optionSets.size).toBeGreaterThan(1);
    expect(infos.every((info) => info.privacy_level_options.includes('SELF_ONLY'))).toBe(true);
    expect(new Set(infos.map((info) => info.comment_disabled)).size).toBe(2);
    expect(new Set(infos.map((info) => info.max_video_post_duration_sec)).size).toBeGreaterThan(1);
    expect(await creatorInfo(env(), `sandbox-tt-${logins[0]}`)).toEqual(infos[0]);
  });

  it('video/init refuses a privacy level creator_info does not offer with privacy_level_option_mismatch', async () => {
    for (const login of logins) {
      const offered: string[] = (await creatorInfo(env(), `sandbox-tt-${login}`)).privacy_level_options;
      const missing = ['PUBLIC_TO_EVERYONE', 'FOLLOWER_OF_CREATOR'].find((level) => !offered.includes(level));
      if (!missing) continue;
      const refused = await tiktokInit(env(), `sandbox-tt-${login}`, missing);
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.code).toBe('privacy_level_option_mismatch');
      return;
    }
    throw new Error('every account offered every level');
  });

  it('allows 6 video/init calls a minute per access token, then answers rate_limit_exceeded until the minute passes', async () => {
    const token = 'sandbox-tt-rate.one';
    for (let call = 0; call < 6; call++) await tiktokInit(env(), token, 'SELF_ONLY', 0);
    const refused = await tiktokInit(env(), token, 'SELF_ONLY', 0);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe('rate_limit_exceeded');
    expect((await tiktokInit(env(), 'sandbox-tt-rate.two', 'SELF_ONLY', 0)).status).toBe(400);
    env().clock.now += minute;
    expect((await tiktokInit(env(), token, 'SELF_ONLY', 0)).status).toBe(400);
  });

  it('caps a creator’s posts a day with spam_risk_too_many_posts, counted over a moving 24 hours', async () => {
    const token = 'sandbox-tt-daily';
    await tiktokPost(env(), token, 'SELF_ONLY');
    await tiktokPost(env(), token, 'SELF_ONLY');
    const refused = await tiktokInit(env(), token, 'SELF_ONLY');
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('spam_risk_too_many_posts');
    env().clock.now += day;
    expect((await tiktokInit(env(), token, 'SELF_ONLY')).status).toBe(200);
  });

  it('lists what TikTok received in its own field names at GET /sandbox/_posts', async () => {
    const response = await control(env(), '/_posts');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const { posts } = await response.json();
    expect(posts.tiktok[0]).toMatchObject({
      account: 'daily',
      received: { post_info: { privacy_level: 'SELF_ONLY', disable_comment: true, disable_duet: false, disable_stitch: true } },
    });
    expect(posts.youtube).toEqual([]);
  });
});

describe('An unaudited TikTok app (SANDBOX_TIKTOK_UNAUDITED=1)', () => {
  const env = useSandbox({ tiktokUnaudited: true });

  it('is offered SELF_ONLY alone, and refused any other level', async () => {
    for (const login of ['a', 'b', 'c', 'd']) {
      expect((await creatorInfo(env(), `sandbox-tt-${login}`)).privacy_level_options).toEqual(['SELF_ONLY']);
    }
    const refused = await tiktokInit(env(), 'sandbox-tt-a', 'PUBLIC_TO_EVERYONE');
    expect((await refused.json()).error.code).toBe('privacy_level_option_mismatch');
    expect((await tiktokInit(env(), 'sandbox-tt-a', 'SELF_ONLY')).status).toBe(200);
  });
});

describe('Instagram’s content publishing limit', () => {
  const env = useSandbox({ limits: { instagramDailyPosts: 1 } });
  const token = 'sandbox-ig-cGFt.x';
  const graph = (path: string, init?: RequestInit) => fetch(`${env().base}/graph.facebook.com/v21.0${path}`, init);

  async function igUserId() {
    return (await (await graph('/me?fields=id', bearer(token))).json()).id as string;
  }

  async function container(userId: string) {
    const created = await (
      await graph(
        `/${userId}/media`,
        jsonPost({ media_type: 'REELS', upload_type: 'resumable', caption: 'Рілс', share_to_feed: true, thumb_offset: 1500 }, token),
      )
    ).json();
    const upload = await fetch(created.uri, {
      method: 'POST',
      headers: { authorization: `OAuth ${token}`, offset: '0', file_size: '100' },
      body: Buffer.alloc(100, 1),
    });
    expect(upload.status).toBe(200);
    await graph(`/${created.id}?fields=status_code`, bearer(token));
    await graph(`/${created.id}?fields=status_code`, bearer(token));
    return created.id as string;
  }

  const publish = async (userId: string, creationId: string) =>
    graph(`/${userId}/media_publish`, jsonPost({ creation_id: creationId }, token));

  it('refuses a post past the cap with error 9 / 2207042, reports quota_usage, and frees up after 24 hours', async () => {
    const userId = await igUserId();
    expect((await publish(userId, await container(userId))).status).toBe(200);
    const limit = await (await graph(`/${userId}/content_publishing_limit?fields=quota_usage,config`, bearer(token))).json();
    expect(limit).toEqual({ data: [{ quota_usage: 1, config: { quota_total: 1, quota_duration: 86400 } }] });

    const second = await container(userId);
    const refused = await publish(userId, second);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({ code: 9, error_subcode: 2207042 });

    env().clock.now += day;
    expect((await (await graph(`/${userId}/content_publishing_limit`, bearer(token))).json()).data[0]).toEqual({ quota_usage: 0 });
    expect((await publish(userId, second)).status).toBe(200);

    const { posts } = await (await control(env(), '/_posts')).json();
    expect(posts.instagram[0].received).toMatchObject({ media_type: 'REELS', share_to_feed: true, thumb_offset: 1500, caption: 'Рілс' });
    expect(posts.instagram[0].received).not.toHaveProperty('access_token');
  });
});

describe('YouTube’s daily quotas, reset at midnight Pacific time', () => {
  const env = useSandbox({ limits: { youtubeDailyUploads: 2, youtubeDailyUnits: 3 } });
  const token = 'sandbox-yt-Y2hhbm5lbA.x';
  const api = `/www.googleapis.com`;

  const insert = () =>
    fetch(`${env().base}${api}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-upload-content-length': '10' },
      body: JSON.stringify({
        snippet: { title: 'Шорт', categoryId: '22' },
        status: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: false },
      }),
    });
  const channels = () => fetch(`${env().base}${api}/youtube/v3/channels?part=snippet&mine=true`, bearer(token));

  it('refuses the upload past the videos.insert bucket and the call past the units with quotaExceeded', async () => {
    env().clock.now = Date.parse('2026-11-23T07:30:00Z'); // 23:30 in Los Angeles
    const first = await insert();
    expect(first.status).toBe(200);
    expect((await insert()).status).toBe(200);
    const refused = await insert();
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toMatchObject({ code: 403, errors: [{ reason: 'quotaExceeded', domain: 'youtube.quota' }] });

    for (let call = 0; call < 3; call++) expect((await channels()).status).toBe(200);
    const overUnits = await channels();
    expect(overUnits.status).toBe(403);
    expect((await overUnits.json()).error.errors[0].reason).toBe('quotaExceeded');

    env().clock.now = Date.parse('2026-11-23T08:00:00Z'); // midnight in Los Angeles
    expect((await channels()).status).toBe(200);
    const session = await insert();
    expect(session.status).toBe(200);
    const done = await fetch(session.headers.get('location')!, { method: 'PUT', body: Buffer.alloc(10, 2) });
    expect(done.status).toBe(200);

    const { posts } = await (await control(env(), '/_posts')).json();
    expect(posts.youtube[0].received).toEqual({
      snippet: { title: 'Шорт', categoryId: '22' },
      status: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: false },
    });
  });

  it('counts the calls it answered per platform and route at GET /sandbox/_calls, JSON only', async () => {
    const { calls } = await (await control(env(), '/_calls')).json();
    expect(calls.youtube).toEqual({
      'POST /www.googleapis.com/upload/youtube/v3/videos': 4,
      'PUT /www.googleapis.com/upload/youtube/v3/videos': 1,
      'GET /www.googleapis.com/youtube/v3/channels': 5,
    });
    expect(calls.tiktok).toEqual({});
    const form = await control(env(), '/_revoke', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=b',
    });
    expect(form.status).toBe(415);
    const notThere = await control(env(), '/_calls', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(notThere.status).toBe(404);
    expect((await fetch(`${env().base}/_calls`)).status).toBe(401);

    expect(await (await control(env(), '/_calls', { method: 'DELETE' })).json()).toEqual({
      calls: { youtube: {}, tiktok: {}, instagram: {}, facebook: {} },
    });
    await channels();
    expect((await (await control(env(), '/_calls')).json()).calls.youtube).toEqual({
      'GET /www.googleapis.com/youtube/v3/channels': 1,
    });
  });
});
