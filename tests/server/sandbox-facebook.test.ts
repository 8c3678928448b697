import { describe, expect, it } from 'vitest';
import { issueSandboxToken } from '../../server/sandbox/index';
import { control, jsonPost, useSandbox, type SandboxEnv } from './sandbox-helpers';

const personKey = (login: string) => Buffer.from(login).toString('base64url');
const redirectUri = 'https://app.example/facebook/callback';
const hour = 3600_000;
const day = 24 * hour;
const dialogRequest = {
  client_id: 'fb-app',
  redirect_uri: redirectUri,
  state: 'fb-state',
  response_type: 'code',
  scope: 'pages_show_list,pages_read_engagement,pages_manage_posts',
};

interface PageEntry {
  id: string;
  name: string;
  access_token: string;
  tasks: string[];
}

const graph = (env: SandboxEnv, path: string, init?: RequestInit) => fetch(`${env.base}/graph.facebook.com/v22.0${path}`, init);
const graphForm = (env: SandboxEnv, path: string, fields: Record<string, string>) =>
  graph(env, path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });

const dialogUrl = (env: SandboxEnv, extra: Record<string, string> = {}) =>
  `${env.base}/www.facebook.com/v22.0/dialog/oauth?${new URLSearchParams({ ...dialogRequest, ...extra })}`;

/** Signs `login` in on the dialog, ticks the Pages `choose` picks of those offered, and presses 'Дозволити'. */
async function consent(env: SandboxEnv, login: string, choose: (offered: { id: string; name: string }[]) => string[]) {
  const pageStep = await (await fetch(dialogUrl(env, { username: login }))).text();
  const offered = [...pageStep.matchAll(/name="page" value="(\d+)"[^>]*>\s*<label for="page-\d+">([^<]+)<\/label>/g)].map(
    ([, id, name]) => ({ id: id!, name: name! }),
  );
  const body = new URLSearchParams({ ...dialogRequest, username: login, page_choice: '1', decision: 'allow' });
  for (const id of choose(offered)) body.append('page', id);
  const answer = await fetch(`${env.base}/www.facebook.com/v22.0/dialog/oauth`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  const back = new URL(answer.headers.get('location')!);
  expect(back.origin + back.pathname).toBe(redirectUri);
  expect(back.searchParams.get('state')).toBe('fb-state');
  return { code: back.searchParams.get('code')!, offered };
}

const exchangeCode = (env: SandboxEnv, code: string) =>
  graph(
    env,
    `/oauth/access_token?${new URLSearchParams({ client_id: 'fb-app', client_secret: 'fb-secret', redirect_uri: redirectUri, code })}`,
  );

const exchangeUserToken = (env: SandboxEnv, token: string) =>
  graph(
    env,
    `/oauth/access_token?${new URLSearchParams({ grant_type: 'fb_exchange_token', client_id: 'fb-app', client_secret: 'fb-secret', fb_exchange_token: token })}`,
  );

const accounts = (env: SandboxEnv, userToken: string) =>
  graph(env, `/me/accounts?fields=id,name,access_token,tasks&access_token=${userToken}`);

/** The Pages a person's token of the sandbox's shape (an authorization made elsewhere) reaches: every one of them. */
async function pagesOf(env: SandboxEnv, login: string): Promise<PageEntry[]> {
  return (await (await accounts(env, issueSandboxToken('facebook', login))).json()).data;
}

const start = (env: SandboxEnv, page: PageEntry) =>
  graphForm(env, `/${page.id}/video_reels`, { upload_phase: 'start', access_token: page.access_token });

const finish = (env: SandboxEnv, page: PageEntry, videoId: string, description: string) =>
  graphForm(env, `/${page.id}/video_reels`, {
    upload_phase: 'finish',
    video_id: videoId,
    video_state: 'PUBLISHED',
    description,
    access_token: page.access_token,
  });

const rupload = (uploadUrl: string, page: PageEntry, offset: number, fileSize: number, bytes: Buffer) =>
  fetch(uploadUrl, {
    method: 'POST',
    headers: { authorization: `OAuth ${page.access_token}`, offset: String(offset), file_size: String(fileSize) },
    body: Uint8Array.from(bytes),
  });

const status = async (env: SandboxEnv, page: PageEntry, videoId: string) =>
  (await (await graph(env, `/${videoId}?fields=status&access_token=${page.access_token}`)).json()).status;

/** start → the whole file in one piece → finish: the Reel's id. */
async function publish(env: SandboxEnv, page: PageEntry, description: string, size = 100) {
  const started = await (await start(env, page)).json();
  expect((await rupload(started.upload_url, page, 0, size, Buffer.alloc(size, 3))).status).toBe(200);
  expect((await finish(env, page, started.video_id, description)).status).toBe(200);
  return started.video_id as string;
}

describe('Facebook Login for Business in the sandbox: the dialog with its Page choice, User and Page tokens', () => {
  const env = useSandbox();

  it('asks who signs in, then which Pages; /me/accounts lists only the Pages granted, with tasks and Page tokens', async () => {
    const signIn = await fetch(dialogUrl(env()));
    expect(signIn.status).toBe(200);
    const signInHtml = await signIn.text();
    expect(signInHtml).toContain('<label for="username">');
    expect(signInHtml).toContain('<input type="text" id="username" name="username"');
    expect(signInHtml).toMatch(/<form method="get">/);
    expect(signInHtml).toContain('Скасувати');

    const pageStep = await (await fetch(dialogUrl(env(), { username: 'olena' }))).text();
    expect(pageStep).toContain('<fieldset><legend>');
    expect(pageStep).toContain('Дозволити');
    expect(pageStep).toContain('Скасувати');

    const { code, offered } = await consent(env(), 'olena', (pages) => [pages[0]!.id]);
    expect(offered.map((page) => page.name)).toEqual(['Сторінка olena 1', 'Сторінка olena 2']);

    const short = await exchangeCode(env(), code);
    expect(short.status).toBe(200);
    const shortToken = await short.json();
    expect(shortToken).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(shortToken.access_token).toMatch(new RegExp(`^sandbox-fb-${personKey('olena')}\\.`));
    const reused = await exchangeCode(env(), code);
    expect(reused.status).toBe(400);
    expect((await reused.json()).error).toMatchObject({ code: 100, type: 'OAuthException', fbtrace_id: expect.any(String) });

    const long = await (await exchangeUserToken(env(), shortToken.access_token)).json();
    expect(long).toMatchObject({ token_type: 'bearer', expires_in: 60 * 24 * 3600 });

    const listed = await (await accounts(env(), long.access_token)).json();
    expect(listed.data).toEqual([
      {
        id: offered[0]!.id,
        name: 'Сторінка olena 1',
        access_token: expect.stringMatching(new RegExp(`^sandbox-fb-${personKey('olena')}\\.${offered[0]!.id}\\.`)),
        tasks: expect.arrayContaining(['CREATE_CONTENT']),
      },
    ]);
    const [page] = listed.data as PageEntry[];
    const read = await graph(env(), `/${page!.id}?fields=id,name,link&access_token=${page!.access_token}`);
    expect(await read.json()).toEqual({ id: page!.id, name: 'Сторінка olena 1', link: 'https://www.facebook.com/olena-page-1' });
    const notGranted = await graph(env(), `/${offered[1]!.id}?fields=id,name&access_token=${long.access_token}`);
    expect((await notGranted.json()).error).toMatchObject({ code: 100, error_subcode: 33 });

    // Short-lived User token 1 h; long-lived 60 days; the Page token got from the long-lived one does not expire.
    env().clock.now += hour;
    expect((await (await accounts(env(), shortToken.access_token)).json()).error).toMatchObject({ code: 190, error_subcode: 463 });
    env().clock.now += 60 * day;
    expect((await (await accounts(env(), long.access_token)).json()).error).toMatchObject({ code: 190, error_subcode: 463 });
    expect((await graph(env(), `/${page!.id}?fields=name&access_token=${page!.access_token}`)).status).toBe(200);
  });

  it('redirects a cancelled dialog with access_denied, user_denied and the state', async () => {
    const answer = await fetch(dialogUrl(env()), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...dialogRequest, decision: 'deny' }),
      redirect: 'manual',
    });
    const back = new URL(answer.headers.get('location')!);
    expect(Object.fromEntries(back.searchParams)).toEqual({
      error: 'access_denied',
      error_reason: 'user_denied',
      error_description: 'Permissions error',
      state: 'fb-state',
    });
  });

  it('a Page with ANALYZE alone reads, but its Page token may not start a Reel (code 200)', async () => {
    const [, analyzeOnly] = await pagesOf(env(), 'taras');
    expect(analyzeOnly!.tasks).toEqual(['ANALYZE']);
    expect((await graph(env(), `/${analyzeOnly!.id}?access_token=${analyzeOnly!.access_token}`)).status).toBe(200);
    const refused = await start(env(), analyzeOnly!);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({ code: 200, type: 'OAuthException' });
  });

  it('after _revoke, named by a Page’s name, every token of the person answers 190 with subcode 458', async () => {
    const { code } = await consent(env(), 'ivan', (pages) => pages.map((page) => page.id));
    const user = await (await exchangeUserToken(env(), (await (await exchangeCode(env(), code)).json()).access_token)).json();
    const [page] = (await (await accounts(env(), user.access_token)).json()).data as PageEntry[];
    const minted = issueSandboxToken('facebook', 'ivan');
    expect((await accounts(env(), minted)).status).toBe(200);

    const unknown = await control(env(), '/_revoke', jsonPost({ platform: 'facebook', account: 'Сторінка nobody 1' }));
    expect(unknown.status).toBe(404);
    const revoked = await control(env(), '/_revoke', jsonPost({ platform: 'facebook', account: 'Сторінка ivan 1' }));
    expect(revoked.status).toBe(204);

    for (const answer of [
      await graph(env(), `/${page!.id}?fields=name&access_token=${page!.access_token}`),
      await start(env(), page!),
      await accounts(env(), user.access_token),
      await accounts(env(), minted),
    ]) {
      expect(answer.status).toBe(400);
      expect((await answer.json()).error).toMatchObject({ code: 190, error_subcode: 458, type: 'OAuthException' });
    }
  });
});

describe('Facebook Reels in the sandbox: the three phases, rupload’s offsets, the status, the listing', () => {
  const env = useSandbox();

  it('start → a piece → a wrong offset refused → finish refused short → resume at bytes_transferred → finish → processing → published', async () => {
    const [page] = await pagesOf(env(), 'olha');
    const started = await start(env(), page!);
    expect(started.status).toBe(200);
    const { video_id: videoId, upload_url: uploadUrl } = await started.json();
    expect(uploadUrl).toBe(`${env().base}/rupload.facebook.com/video-upload/v22.0/${videoId}`);

    const file = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 251));
    const first = await rupload(uploadUrl, page!, 0, file.length, file.subarray(0, 600));
    expect(await first.json()).toEqual({ success: true });

    const wrongOffset = await rupload(uploadUrl, page!, 0, file.length, file);
    expect(wrongOffset.status).toBe(400);
    expect(await wrongOffset.json()).toEqual({
      debug_info: { type: 'OffsetInvalidError', message: expect.any(String), retriable: false },
    });
    const midway = await status(env(), page!, videoId);
    expect(midway).toMatchObject({
      video_status: 'processing',
      uploading_phase: { status: 'in_progress', bytes_transferred: 600 },
      publishing_phase: { status: 'not_started' },
    });

    const early = await finish(env(), page!, videoId, 'Рано');
    expect(early.status).toBe(400);
    expect((await early.json()).error).toMatchObject({ code: 100, type: 'OAuthException' });

    const offset = midway.uploading_phase.bytes_transferred as number;
    expect(await (await rupload(uploadUrl, page!, offset, file.length, file.subarray(offset))).json()).toEqual({ success: true });
    expect(await status(env(), page!, videoId)).toMatchObject({
      video_status: 'upload_complete',
      uploading_phase: { status: 'complete', bytes_transferred: 1000 },
      processing_phase: { status: 'not_started' },
    });

    const done = await finish(env(), page!, videoId, 'Перший рил #fb-1');
    expect(await done.json()).toEqual({ success: true });
    expect(await status(env(), page!, videoId)).toMatchObject({
      video_status: 'processing',
      processing_phase: { status: 'in_progress' },
      publishing_phase: { status: 'not_started' },
    });
    expect(await status(env(), page!, videoId)).toEqual({
      video_status: 'ready',
      uploading_phase: { status: 'complete', bytes_transferred: 1000 },
      processing_phase: { status: 'complete' },
      publishing_phase: { status: 'complete', publish_status: 'published', publish_time: '2026-11-22T10:00:00+0000' },
    });

    const { posts } = await (await control(env(), '/_posts')).json();
    expect(posts.facebook).toEqual([
      {
        id: videoId,
        account: 'olha',
        url: `https://www.facebook.com/reel/${videoId}`,
        createdAt: '2026-11-22T10:00:00.000Z',
        received: { video_id: videoId, video_state: 'PUBLISHED', description: 'Перший рил #fb-1', page_id: page!.id, bytes: 1000 },
      },
    ]);
    const reels = await (
      await graph(env(), `/${page!.id}/video_reels?fields=id,description&limit=50&access_token=${page!.access_token}`)
    ).json();
    expect(reels.data).toEqual([{ id: videoId, description: 'Перший рил #fb-1' }]);

    const { calls } = await (await control(env(), '/_calls')).json();
    expect(calls.facebook).toMatchObject({
      'POST /graph.facebook.com/:version/:pageId/video_reels': 3,
      'POST /rupload.facebook.com/video-upload/:version/:videoId': 3,
      'GET /graph.facebook.com/:version/:id': 4,
      'GET /graph.facebook.com/:version/:pageId/video_reels': 1,
    });
    expect(calls.instagram).toEqual({});
  });

  it('refuses a file_size other than the one the upload began with, and bytes past it', async () => {
    const [page] = await pagesOf(env(), 'olha');
    const { upload_url: uploadUrl } = await (await start(env(), page!)).json();
    expect((await rupload(uploadUrl, page!, 0, 10, Buffer.alloc(4))).status).toBe(200);
    const otherSize = await rupload(uploadUrl, page!, 4, 12, Buffer.alloc(8));
    expect((await otherSize.json()).debug_info).toMatchObject({ type: 'ParameterValidationError' });
    const tooLong = await rupload(uploadUrl, page!, 4, 10, Buffer.alloc(8));
    expect(tooLong.status).toBe(400);
  });
});

describe('Facebook’s 30 API-published Reels per Page in a moving 24 hours', () => {
  const env = useSandbox();

  it('refuses the 31st start within 24 hours with code 32, and starts again once the window moves on', async () => {
    const [page] = await pagesOf(env(), 'petro');
    for (let reel = 0; reel < 30; reel++) await publish(env(), page!, `Рил ${reel}`);
    const refused = await start(env(), page!);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toEqual({
      message: 'The Page has reached the limit of 30 API-published reels in 24 hours',
      type: 'OAuthException',
      code: 32,
      is_transient: false,
      fbtrace_id: expect.any(String),
    });
    env().clock.now += day - 1000;
    expect((await start(env(), page!)).status).toBe(400);
    env().clock.now += 1000;
    expect((await start(env(), page!)).status).toBe(200);
  });

  it('a fault planned on init answers the start in Meta’s shape, once', async () => {
    const [page] = await pagesOf(env(), 'fault');
    const planned = await control(env(), '/_faults', jsonPost({ platform: 'facebook', step: 'init', kind: 'status-500', times: 1 }));
    expect(planned.status).toBe(201);
    const failed = await start(env(), page!);
    expect(failed.status).toBe(500);
    expect((await failed.json()).error).toMatchObject({
      code: 2,
      type: 'OAuthException',
      is_transient: true,
      fbtrace_id: expect.any(String),
    });
    expect((await start(env(), page!)).status).toBe(200);

    await control(env(), '/_faults', jsonPost({ platform: 'facebook', step: 'init', kind: 'quota' }));
    expect((await (await start(env(), page!)).json()).error).toMatchObject({ code: 32, type: 'OAuthException' });
  });
});

describe('Facebook Reels’ figures', () => {
  const env = useSandbox();

  it('video_insights answers plays, reactions and social actions, growing with the clock', async () => {
    const [page] = await pagesOf(env(), 'stats');
    const videoId = await publish(env(), page!, 'Цифри');
    env().clock.now += 2 * hour;
    const insights = () =>
      graph(
        env(),
        `/${videoId}/video_insights?metric=blue_reels_play_count,post_video_likes_by_reaction_type,post_video_social_actions&access_token=${page!.access_token}`,
      );
    const { data } = await (await insights()).json();
    const expected = env().state.statsOf(env().state.findVideo('facebook', videoId)!);
    expect(data.map((metric: { name: string; period: string }) => [metric.name, metric.period])).toEqual([
      ['blue_reels_play_count', 'lifetime'],
      ['post_video_likes_by_reaction_type', 'lifetime'],
      ['post_video_social_actions', 'lifetime'],
    ]);
    const [plays, reactions, actions] = data.map((metric: { values: { value: unknown }[] }) => metric.values[0]!.value);
    expect(plays).toBe(expected.views);
    expect(plays).toBeGreaterThan(0);
    expect(Object.values(reactions as Record<string, number>).reduce((sum, count) => sum + count, 0)).toBe(expected.likes);
    expect(actions).toMatchObject({ COMMENT: expected.comments });

    env().clock.now += hour;
    const later = (await (await insights()).json()).data[0].values[0].value;
    expect(later).toBeGreaterThan(plays);
  });

  it('a Graph batch reads a Facebook Reel’s and an Instagram Reel’s insights together, each with its own token', async () => {
    const [page] = await pagesOf(env(), 'stats');
    const videoId = await publish(env(), page!, 'Пакет');
    const instagramToken = issueSandboxToken('instagram', 'stats');
    env().state.addVideo({
      platform: 'instagram',
      id: '17900000000000001',
      account: personKey('stats'),
      title: 'Рил',
      description: 'Рил',
      tags: [],
      bytes: 1,
      sha256: '',
      createdAt: env().clock.now,
      url: 'https://www.instagram.com/reel/abc/',
    });
    env().clock.now += hour;
    await control(env(), '/_calls', { method: 'DELETE' });
    const answer = await graphForm(env(), '/', {
      access_token: page!.access_token,
      batch: JSON.stringify([
        { method: 'GET', relative_url: `v22.0/${videoId}/video_insights?metric=blue_reels_play_count` },
        { method: 'GET', relative_url: `17900000000000001/insights?metric=views&access_token=${instagramToken}` },
      ]),
    });
    expect(answer.status).toBe(200);
    const [facebook, instagram] = (await answer.json()) as { code: number; body: string }[];
    expect(facebook!.code).toBe(200);
    expect(JSON.parse(facebook!.body).data[0]).toMatchObject({ name: 'blue_reels_play_count', values: [{ value: expect.any(Number) }] });
    expect(instagram!.code).toBe(200);
    expect(JSON.parse(instagram!.body).data[0]).toMatchObject({ name: 'views', values: [{ value: expect.any(Number) }] });

    const { calls } = await (await control(env(), '/_calls')).json();
    expect(calls.facebook).toEqual({ 'POST /graph.facebook.com/:version/': 1 });
    expect(calls.instagram).toEqual({});
  });
});
