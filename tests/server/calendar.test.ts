import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import type { CalendarRange } from '../../src/lib/contract';
import * as t from '../../src/lib/i18n';
import { calendarLimit } from '../../server/services/planning/calendar-posts';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase } from './helpers';

describeEachDatabase('Calendar range route', (env) => {
  /** A published set of one video with a post per platform given, each at its time and status. */
  async function publishedPosts(user: TestUser, accountId: number, title: string, posts: [string, string, 'pending' | 'done' | 'error'][]) {
    const idUpload = crypto.randomUUID();
    const { rows } = await env().db.sql(
      `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, published_at, title)
       VALUES ($1, $2, 'published', 1, 'gone', now(), $3) RETURNING id`,
      [idUpload, user.id, title],
    );
    const { rows: video } = await env().db.sql(
      `INSERT INTO videos (request_id, user_id, account_id, position, status) VALUES ($1, $2, $3, 0, 'publication') RETURNING id`,
      [rows[0].id, user.id, accountId],
    );
    for (const [platform, at, status] of posts) {
      await env().db.sql(`INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at) VALUES ($1, $2, $3, $4, $5)`, [
        video[0].id,
        platform,
        accountId,
        status,
        at,
      ]);
    }
    return { idUpload, videoId: video[0].id as number };
  }

  const range = (user: TestUser, query: string) =>
    env().app.inject({ method: 'GET', url: `/api/calendar?${query}`, headers: user.headers });
  // Monday 23 – Sunday 29 November 2026 in Kyiv (UTC+2).
  const week = `from=${encodeURIComponent('2026-11-22T22:00:00.000Z')}&to=${encodeURIComponent('2026-11-29T22:00:00.000Z')}`;

  it('gives an operator the posts of the range through their own profiles only, earliest first, each naming its set', async () => {
    const owner = await createUser(env(), 'owner');
    const other = await createUser(env(), 'other');
    const morning = await createAccount(env(), owner, { comments: 'Ранок' });
    const evening = await createAccount(env(), owner, { comments: 'Вечір' });
    const foreign = await createAccount(env(), other, { comments: 'Чужий' });
    const planned = await publishedPosts(owner, morning.id, 'Ранковий випуск', [
      ['youtube', '2026-11-25T08:30:00Z', 'pending'],
      ['tiktok', '2026-11-25T08:30:00Z', 'error'],
    ]);
    const done = await publishedPosts(owner, evening.id, '', [['instagram', '2026-11-22T22:00:00Z', 'done']]);
    // Just outside the week on either side, and another operator's post inside it.
    await publishedPosts(owner, morning.id, 'Раніше', [['youtube', '2026-11-22T21:59:59Z', 'done']]);
    await publishedPosts(owner, morning.id, 'Пізніше', [['youtube', '2026-11-29T22:00:00Z', 'pending']]);
    await publishedPosts(other, foreign.id, 'Чужий випуск', [['youtube', '2026-11-26T10:00:00Z', 'pending']]);

    // A held post carries why it waits, for the calendar to mark it.
    await env().db.sql(
      `UPDATE video_posts SET wait_kind = 'cap', wait_detail = '{"refused": true}' WHERE platform = 'youtube' AND scheduled_at = '2026-11-25T08:30:00Z'`,
    );
    const answer = await range(owner, week);
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json<CalendarRange>();
    expect(body.truncated).toBe(false);
    expect(body.posts.map(({ id: _id, ...post }) => post)).toEqual([
      {
        videoId: done.videoId,
        idUpload: done.idUpload,
        title: '',
        platform: 'instagram',
        state: 'published',
        kind: null,
        url: null,
        error: null,
        scheduledAt: '2026-11-22T22:00:00.000Z',
        account: { id: evening.id, title: `#${evening.id} Вечір` },
        waitReason: null,
        waitKind: null,
        changeable: false,
        cancellable: false,
      },
      expect.objectContaining({
        idUpload: planned.idUpload,
        title: 'Ранковий випуск',
        platform: 'youtube',
        waitReason: 'Ліміт YouTube вичерпано — так відповіла платформа',
        waitKind: 'cap',
        state: 'held',
        kind: 'cap',
      }),
      expect.objectContaining({
        idUpload: planned.idUpload,
        platform: 'tiktok',
        state: 'failed',
        scheduledAt: '2026-11-25T08:30:00.000Z',
      }),
    ]);
    // Each set shown, with all its posts by state.
    const none = { published: 0, scheduled: 0, held: 0, failed: 0, cancelled: 0 };
    expect(body.sets).toEqual([
      { idUpload: done.idUpload, status: 'publication', posts: { ...none, published: 1 } },
      { idUpload: planned.idUpload, status: 'publication', posts: { ...none, held: 1, failed: 1 } },
    ]);
    expect(body.accounts).toEqual([
      { id: morning.id, title: `#${morning.id} Ранок` },
      { id: evening.id, title: `#${evening.id} Вечір` },
    ]);

    // One profile: its posts only, while the filter still offers both.
    const filtered = (await range(owner, `${week}&accountId=${evening.id}`)).json<CalendarRange>();
    expect(filtered.posts.map((post) => post.platform)).toEqual(['instagram']);
    expect(filtered.accounts).toHaveLength(2);

    // Another operator's profile as the filter shows nothing of it.
    const probing = (await range(other, `${week}&accountId=${morning.id}`)).json<CalendarRange>();
    expect(probing.posts).toEqual([]);
    const theirs = (await range(other, week)).json<CalendarRange>();
    expect(theirs.posts.map((post) => post.title)).toEqual(['Чужий випуск']);
    expect(theirs.accounts).toEqual([{ id: foreign.id, title: `#${foreign.id} Чужий` }]);

    const admin = await createUser(env(), 'root', { role: 'admin' });
    const everyone = (await range(admin, week)).json<CalendarRange>();
    expect(everyone.posts).toHaveLength(4);
    expect(everyone.accounts.map((account) => account.id)).toEqual([morning.id, evening.id, foreign.id]);
  });

  it('tells a post held by a cap from one tried again after a failure and one waiting for its profile to be connected again', async () => {
    const owner = await createUser(env(), 'owner');
    const profile = await createAccount(env(), owner, { comments: 'Ранок' });
    const { videoId } = await publishedPosts(owner, profile.id, 'Очікує', [
      ['youtube', '2026-11-25T08:30:00Z', 'pending'],
      ['tiktok', '2026-11-25T09:30:00Z', 'pending'],
      ['instagram', '2026-11-25T10:30:00Z', 'pending'],
    ]);
    const waits = [
      ['youtube', 'cap', { limit: 100, windowHours: null }],
      ['tiktok', 'retry', { failure: { kind: 'unavailable', answer: 'HTTP 503' } }],
      ['instagram', 'reconnect', {}],
    ] as const;
    for (const [platform, kind, detail] of waits) {
      await env().db.sql(`UPDATE video_posts SET wait_kind = $3, wait_detail = $4 WHERE video_id = $1 AND platform = $2`, [
        videoId,
        platform,
        kind,
        JSON.stringify(detail),
      ]);
    }
    const body = (await range(owner, week)).json<CalendarRange>();
    expect(body.posts.map(({ platform, waitKind, waitReason }) => ({ platform, waitKind, waitReason }))).toEqual([
      { platform: 'youtube', waitKind: 'cap', waitReason: t.postingCaps.youtubeHeld(100) },
      { platform: 'tiktok', waitKind: 'retry', waitReason: t.postTruth.waitRetry(`TikTok: ${t.platform.unavailable} (HTTP 503)`) },
      { platform: 'instagram', waitKind: 'reconnect', waitReason: t.connections.revoked('Instagram') },
    ]);

    // A post that no longer waits shows no wait, whatever its columns still say.
    await env().db.sql(`UPDATE video_posts SET status = 'done' WHERE video_id = $1 AND platform = 'tiktok'`, [videoId]);
    const after = (await range(owner, week)).json<CalendarRange>();
    expect(after.posts[1]).toMatchObject({ platform: 'tiktok', state: 'published', waitKind: null, waitReason: null });
  });

  it("shows a group's profiles' posts, the user's groups to pick from, and refuses another operator's group", async () => {
    const owner = await createUser(env(), 'owner');
    const other = await createUser(env(), 'other');
    const inGroup = await createAccount(env(), owner, { comments: 'Ранок' });
    const outside = await createAccount(env(), owner, { comments: 'Вечір' });
    await publishedPosts(owner, inGroup.id, 'У групі', [['youtube', '2026-11-24T08:00:00Z', 'pending']]);
    await publishedPosts(owner, outside.id, 'Поза групою', [['youtube', '2026-11-24T09:00:00Z', 'pending']]);
    const group = await env().app.inject({
      method: 'POST',
      url: '/api/accounts-group',
      headers: owner.headers,
      payload: { name: 'Будні', accounts: [{ id: inGroup.id, title: '', value: inGroup.id }] },
    });
    expect(group.statusCode, group.body).toBe(201);
    const groupId = group.json<{ id: number }>().id;
    await env().app.inject({ method: 'POST', url: '/api/accounts-group', headers: other.headers, payload: { name: 'Чужа', accounts: [] } });

    const shown = (await range(owner, `${week}&groupId=${groupId}`)).json<CalendarRange>();
    expect(shown.posts.map((post) => post.title)).toEqual(['У групі']);
    expect(shown.groups).toEqual([{ id: groupId, title: 'Будні' }]);
    // No profile is shown alone, so no profile's slots.
    expect(shown.slots).toBeNull();

    const probing = await range(other, `${week}&groupId=${groupId}`);
    expect(probing.statusCode).toBe(404);
    const both = await range(owner, `${week}&groupId=${groupId}&accountId=${inGroup.id}`);
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toBe('Покажіть профіль або групу, не обидва відразу');
  });

  it('gives the slots of the one profile shown, and of no profile the user may not see', async () => {
    const owner = await createUser(env(), 'owner');
    const other = await createUser(env(), 'other');
    const profile = await createAccount(env(), owner, { comments: 'Ранок' });
    const saved = await env().app.inject({
      method: 'PUT',
      url: `/api/accounts/${profile.id}/slots`,
      headers: owner.headers,
      payload: { from: '10:00', to: '20:00', minGapMinutes: 120, days: [1, 2, 3, 4, 5] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const shown = (await range(owner, `${week}&accountId=${profile.id}`)).json<CalendarRange>();
    expect(shown.slots).toEqual({ from: '10:00', to: '20:00', minGapMinutes: 120, days: [1, 2, 3, 4, 5], source: 'profile' });
    expect((await range(owner, week)).json<CalendarRange>().slots).toBeNull();
    expect((await range(other, `${week}&accountId=${profile.id}`)).json<CalendarRange>().slots).toBeNull();
  });

  it('marks a post changeable only while it and every other post of its video wait unstarted, and cancellable while it does itself', async () => {
    const owner = await createUser(env(), 'owner');
    const profile = await createAccount(env(), owner);
    await publishedPosts(owner, profile.id, 'Чекає', [
      ['youtube', '2026-11-24T08:00:00Z', 'pending'],
      ['tiktok', '2026-11-24T08:00:00Z', 'pending'],
    ]);
    await publishedPosts(owner, profile.id, 'Частково вийшло', [
      ['youtube', '2026-11-25T08:00:00Z', 'pending'],
      ['tiktok', '2026-11-25T08:00:00Z', 'done'],
    ]);
    const started = await publishedPosts(owner, profile.id, 'Вже вантажиться', [
      ['youtube', '2026-11-26T08:00:00Z', 'pending'],
      ['tiktok', '2026-11-26T08:00:00Z', 'pending'],
    ]);
    await env().db.sql(`UPDATE video_posts SET started_at = now() WHERE video_id = $1 AND platform = 'tiktok'`, [started.videoId]);
    const body = (await range(owner, week)).json<CalendarRange>();
    expect(body.posts.map((post) => [post.title, post.platform, post.changeable, post.cancellable])).toEqual([
      ['Чекає', 'youtube', true, true],
      ['Чекає', 'tiktok', true, true],
      ['Частково вийшло', 'youtube', false, true],
      ['Частково вийшло', 'tiktok', false, false],
      ['Вже вантажиться', 'youtube', false, true],
      ['Вже вантажиться', 'tiktok', false, false],
    ]);
  });

  it("names each post's profile as the operator calls it: its comment's first line, else the account it is connected as", async () => {
    const owner = await createUser(env(), 'owner');
    const commented = await createAccount(env(), owner, { comments: 'Олена — кулінарія\nпроксі з Києва' });
    const plain = await createAccount(env(), owner);
    await env().db.sql(`UPDATE accounts SET instagram_login = 'olena.cooks' WHERE id = $1`, [plain.id]);
    await publishedPosts(owner, commented.id, 'Подорож', [['tiktok', '2026-11-24T21:56:00Z', 'pending']]);
    await publishedPosts(owner, plain.id, 'Подорож', [['tiktok', '2026-11-24T21:56:00Z', 'pending']]);
    const body = (await range(owner, week)).json<CalendarRange>();
    const names = [`#${commented.id} Олена — кулінарія`, `#${plain.id} olena.cooks`];
    expect(body.posts.map((post) => post.account.title)).toEqual(names);
    expect(body.accounts.map((account) => account.title)).toEqual(names);
  });

  it('refuses a range that is empty, reversed, longer than six weeks or not a date, in Ukrainian', async () => {
    const owner = await createUser(env(), 'owner');
    for (const query of [
      'from=2026-11-23T00:00:00Z&to=2026-11-23T00:00:00Z',
      'from=2026-11-24T00:00:00Z&to=2026-11-23T00:00:00Z',
      'from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z',
      'from=yesterday&to=2026-11-23T00:00:00Z',
    ]) {
      const refused = await range(owner, query);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().message, query).toBe(t.calendar.badRange);
    }
    expect((await range(owner, 'from=2026-11-23T00:00:00Z')).statusCode).toBe(400);
    expect((await env().app.inject({ method: 'GET', url: `/api/calendar?${week}` })).statusCode).toBe(401);
  });

  it(`carries at most ${calendarLimit} posts and says when there were more`, async () => {
    const owner = await createUser(env(), 'owner');
    const account = await createAccount(env(), owner);
    const { videoId } = await publishedPosts(owner, account.id, 'Багато', []);
    // One video per post: (video, platform) is unique.
    await env().db.sql(
      `WITH more AS (
         INSERT INTO videos (request_id, user_id, account_id, position, status)
         SELECT request_id, user_id, account_id, n, 'publication' FROM videos, generate_series(1, $2) AS n WHERE id = $1
         RETURNING id)
       INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at)
       SELECT id, 'youtube', $3, 'pending', '2026-11-24T10:00:00Z' FROM more`,
      [videoId, calendarLimit + 1, account.id],
    );
    const body = (await range(owner, week)).json<CalendarRange>();
    expect(body.posts).toHaveLength(calendarLimit);
    expect(body.truncated).toBe(true);
  });

  it('reads the range from a scheduled-time index, not every post', async () => {
    const owner = await createUser(env(), 'owner');
    // Tables this small would be read whole; with that ruled out the plan shows which index serves the range.
    const plans = await env().db.transaction(async (run) => {
      await run('SET LOCAL enable_seqscan = off');
      const plan = async (sql: string) => (await run(`EXPLAIN ${sql}`)).rows.map((row) => String(Object.values(row)[0])).join('\n');
      return {
        operator: await plan(
          `SELECT video_posts.id FROM video_posts JOIN accounts ON accounts.id = video_posts.account_id
            WHERE video_posts.scheduled_at >= '2026-11-23' AND video_posts.scheduled_at < '2026-11-30' AND accounts.user_id = ${owner.id}`,
        ),
        admin: await plan(`SELECT id FROM video_posts WHERE scheduled_at >= '2026-11-23' AND scheduled_at < '2026-11-30'`),
      };
    });
    // Which of the two depends on the table's statistics: per profile once operators have many posts.
    expect(plans.operator).toMatch(/video_posts_(account_)?scheduled_idx/);
    expect(plans.admin).toMatch(/video_posts_scheduled_idx/);
  });
});
