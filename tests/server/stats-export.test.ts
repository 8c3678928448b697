import { parse } from 'csv-parse/sync';
import { expect, it, vi } from 'vitest';
import type { StatsChoices, TopVideos } from '../../src/lib/contract';
import type { Database } from '../../server/db/connect';
import { t } from '../../server/messages';
import { statsCsv, statsCsvChunks } from '../../server/services/statistics/stats-export';
import { createUser, describeEachDatabase, type TestEnv } from './helpers';
import { seedAccount, seedGroup, seedMany, seedVideo } from './stats-seed';

const columns = t.statsScreen.columns;
const header = [
  columns.day,
  columns.profile,
  columns.platform,
  columns.video,
  columns.videoId,
  columns.link,
  columns.views,
  columns.likes,
  columns.comments,
  columns.gained,
];

/** The CSV as a spreadsheet reads it: `;` between cells, quoted cells unquoted, the byte order mark dropped. */
function readCsv(body: Buffer): string[][] {
  return parse(body, { delimiter: ';', bom: true, relaxColumnCount: false });
}

/** A database whose statements are counted, for the batches. */
function countingDb(db: Database): { db: Database; statements: () => number } {
  let statements = 0;
  return {
    db: {
      ...db,
      sql: (text, values) => {
        statements += 1;
        return db.sql(text, values);
      },
    },
    statements: () => statements,
  };
}

describeEachDatabase('statistics export and top videos', (env) => {
  const exportOf = (user: { headers: Record<string, string> }, query: string) =>
    env().app.inject({ method: 'GET', url: `/api/stats/export.csv?${query}`, headers: user.headers });
  const topOf = (user: { headers: Record<string, string> }, query: string) =>
    env().app.inject({ method: 'GET', url: `/api/stats/top?${query}`, headers: user.headers });

  /**
   * An operator's profile with a YouTube post whose title needs quoting, read on three Kyiv
   * days of January (winter: Kyiv is UTC+2), and a TikTok post read once.
   */
  async function operatorWithPosts(test: TestEnv, login: string) {
    const user = await createUser(test, login);
    const groupId = await seedGroup(test.db, user.id, `Група ${login}`);
    const accountId = await seedAccount(test.db, user.id, 'Ранок; кава', groupId);
    const otherAccountId = await seedAccount(test.db, user.id, 'Вечір');
    const quoted = await seedVideo(test.db, {
      userId: user.id,
      accountId,
      title: 'Привіт, "світ";\nдругий рядок — їжак ґедзь',
      posts: [
        {
          platform: 'youtube',
          url: 'https://youtu.be/abc',
          points: [
            { at: '2026-01-09T08:00:00Z', views: 10, likes: 1, comments: 0 },
            // 00:30 on 11 January in Kyiv, still the 10th in UTC: it belongs to the 11th.
            { at: '2026-01-10T22:30:00Z', views: 25, likes: 3, comments: 2 },
          ],
        },
      ],
    });
    const tiktok = await seedVideo(test.db, {
      userId: user.id,
      accountId: otherAccountId,
      title: 'Танець',
      posts: [{ platform: 'tiktok', url: 'https://tiktok.com/@x/video/1', points: [{ at: '2026-01-10T10:00:00Z', views: 7 }] }],
    });
    return { user, groupId, accountId, otherAccountId, quoted, tiktok };
  }

  it('answers a CSV that Excel reads: a byte order mark, `;` between cells, a header, a row per post and Kyiv day', async () => {
    const { user, accountId, otherAccountId, quoted, tiktok } = await operatorWithPosts(env(), 'csv-operator');
    const response = await exportOf(user, 'from=2026-01-09&to=2026-01-11');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="statystyka_2026-01-09_2026-01-11.csv"');
    expect(response.headers['cache-control']).toBe('no-store');

    const body = response.rawPayload;
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = body.toString('utf8');
    expect(text.slice(1, text.indexOf('\r\n'))).toBe(header.join(';'));

    const rows = readCsv(body);
    expect(rows[0]).toEqual(header);
    const youtube = [t.accounts.optionTitle(accountId, 'Ранок; кава'), 'YouTube', 'Привіт, "світ";\nдругий рядок — їжак ґедзь'];
    expect(rows.slice(1)).toEqual([
      ['09.01.2026', ...youtube, String(quoted.videoId), 'https://youtu.be/abc', '10', '1', '0', '10'],
      ['10.01.2026', ...youtube, String(quoted.videoId), 'https://youtu.be/abc', '10', '1', '0', '0'],
      ['11.01.2026', ...youtube, String(quoted.videoId), 'https://youtu.be/abc', '25', '3', '2', '15'],
      // The TikTok post had no figures before the 10th: its rows start there.
      [
        '10.01.2026',
        t.accounts.optionTitle(otherAccountId, 'Вечір'),
        'TikTok',
        'Танець',
        String(tiktok.videoId),
        'https://tiktok.com/@x/video/1',
        '7',
        '0',
        '0',
        '7',
      ],
      [
        '11.01.2026',
        t.accounts.optionTitle(otherAccountId, 'Вечір'),
        'TikTok',
        'Танець',
        String(tiktok.videoId),
        'https://tiktok.com/@x/video/1',
        '7',
        '0',
        '0',
        '0',
      ],
    ]);
    // Quoted as RFC 4180 says: the cell in quotes, its quotes doubled, its line break kept inside.
    expect(text).toContain(`;"Привіт, ""світ"";\nдругий рядок — їжак ґедзь";`);
    expect(text).toContain(`;"${t.accounts.optionTitle(accountId, 'Ранок; кава')}";`);
  });

  it('prefixes with an apostrophe every text cell a spreadsheet would run as a formula, and no number', async () => {
    const user = await createUser(env(), 'injection');
    const accountId = await seedAccount(env().db, user.id, 'звичайний');
    const formulas = ['=HYPERLINK("https://evil.example","клік")', '+380501234567', '-2+3', '@SUM(A1:A9)', '\t=1+1'];
    for (const title of formulas) {
      await seedVideo(env().db, {
        userId: user.id,
        accountId,
        title,
        // The platform recounted: the views fell, a negative gain that stays a number.
        posts: [
          {
            platform: 'youtube',
            url: '=cmd|calc',
            points: [
              { at: '2026-03-01T09:00:00Z', views: 100 },
              { at: '2026-03-02T09:00:00Z', views: 90 },
            ],
          },
        ],
      });
    }
    const rows = readCsv((await exportOf(user, 'from=2026-03-02&to=2026-03-02')).rawPayload).slice(1);
    expect(rows.map((row) => row[3])).toEqual(formulas.map((title) => `'${title}`));
    expect(rows.every((row) => row[5] === "'=cmd|calc")).toBe(true);
    expect(rows.every((row) => row[9] === '-10')).toBe(true);
  });

  it('gives an operator only their own posts, an admin every one, and refuses another operator’s profile or group', async () => {
    const mine = await operatorWithPosts(env(), 'owner-a');
    const theirs = await operatorWithPosts(env(), 'owner-b');
    const admin = await createUser(env(), 'chief', { role: 'admin' });
    const videoIds = async (user: { headers: Record<string, string> }, query = '') =>
      new Set(
        readCsv((await exportOf(user, `from=2026-01-01&to=2026-01-31${query}`)).rawPayload)
          .slice(1)
          .map((row) => Number(row[4])),
      );

    expect(await videoIds(mine.user)).toEqual(new Set([mine.quoted.videoId, mine.tiktok.videoId]));
    expect(await videoIds(theirs.user)).toEqual(new Set([theirs.quoted.videoId, theirs.tiktok.videoId]));
    expect(await videoIds(admin)).toEqual(
      new Set([mine.quoted.videoId, mine.tiktok.videoId, theirs.quoted.videoId, theirs.tiktok.videoId]),
    );
    expect(await videoIds(admin, `&accountId=${theirs.accountId}`)).toEqual(new Set([theirs.quoted.videoId]));

    for (const query of [`accountId=${theirs.accountId}`, `groupId=${theirs.groupId}`]) {
      for (const ask of [exportOf, topOf]) {
        const refused = await ask(mine.user, `from=2026-01-01&to=2026-01-31&${query}`);
        expect(refused.statusCode, query).toBe(404);
        expect(refused.json().message).toBe(t.server.notFound);
      }
    }
    const both = await exportOf(mine.user, `from=2026-01-01&to=2026-01-31&accountId=${mine.accountId}&groupId=${mine.groupId}`);
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toBe(t.statsScreen.profileOrGroup);
    expect((await env().app.inject({ method: 'GET', url: '/api/stats/export.csv?from=2026-01-01&to=2026-01-31' })).statusCode).toBe(401);

    // A profile deleted: its posts stay the owner's, named as deleted.
    await env().db.sql('DELETE FROM accounts WHERE id = $1', [mine.accountId]);
    const rows = readCsv((await exportOf(mine.user, 'from=2026-01-11&to=2026-01-11')).rawPayload).slice(1);
    expect(rows.map((row) => [row[1], row[4]])).toEqual([
      [t.stats.deletedProfile, String(mine.quoted.videoId)],
      [t.accounts.optionTitle(mine.otherAccountId, 'Вечір'), String(mine.tiktok.videoId)],
    ]);
  });

  it('narrows to a profile, a group and a platform', async () => {
    const { user, accountId, groupId, otherAccountId, quoted, tiktok } = await operatorWithPosts(env(), 'filters');
    const videoIds = async (query: string) =>
      readCsv((await exportOf(user, `from=2026-01-11&to=2026-01-11&${query}`)).rawPayload)
        .slice(1)
        .map((row) => Number(row[4]));
    expect(await videoIds(`accountId=${accountId}`)).toEqual([quoted.videoId]);
    expect(await videoIds(`accountId=${otherAccountId}`)).toEqual([tiktok.videoId]);
    expect(await videoIds(`groupId=${groupId}`)).toEqual([quoted.videoId]);
    expect(await videoIds('platform=tiktok')).toEqual([tiktok.videoId]);
    expect(await videoIds('platform=instagram')).toEqual([]);
    expect(await videoIds(`groupId=${groupId}&platform=tiktok`)).toEqual([]);
  });

  it('refuses a period that is no period, in Ukrainian', async () => {
    const user = await createUser(env(), 'dates');
    const cases: [string, string | string[]][] = [
      ['from=2026-02-30&to=2026-03-01', [t.statsScreen.dateInvalid]],
      ['from=01.03.2026&to=2026-03-01', [t.statsScreen.dateInvalid]],
      ['from=2026-03-02&to=2026-03-01', [t.statsScreen.rangeReversed]],
      ['from=2025-01-01&to=2026-01-02', [t.statsScreen.rangeTooLong(366)]],
      ['to=2026-03-01', [t.validation.required]],
      ['from=2026-03-01&to=2026-03-01&platform=vk', [t.validation.invalidValue('platform')]],
    ];
    for (const [query, message] of cases) {
      for (const ask of [exportOf, topOf]) {
        const response = await ask(user, query);
        expect(response.statusCode, query).toBe(400);
        expect(response.json().message, query).toEqual(message);
      }
    }
    // A leap year's whole 366 days are one period.
    expect((await exportOf(user, 'from=2028-01-01&to=2028-12-31')).statusCode).toBe(200);
  });

  it('reads the posts in batches, one batch ahead of the reader at most', async () => {
    const user = await createUser(env(), 'batches');
    await seedMany(env().db, { userId: user.id, accounts: 2, videos: 7, days: 3, lastDay: '2026-04-03' });
    const days = { from: '2026-04-01', to: '2026-04-03' };
    const selection = { ownerId: user.id };

    // 10 rows a batch over 3 days: 3 posts a batch, 9 rows; 7 posts in 3 batches of 2 statements each.
    const counted = countingDb(env().db);
    const chunks: string[] = [];
    for await (const chunk of statsCsvChunks(counted.db, days, selection, 10)) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.split('\r\n').length - 1)).toEqual([1, 9, 9, 3]);
    expect(counted.statements()).toBe(6);
    const rows = readCsv(Buffer.from(chunks.join(''))).slice(1);
    const { rows: posts } = await env().db.sql('SELECT video_id FROM video_posts ORDER BY id', []);
    expect(rows.map((row) => `${row[4]} ${row[0]}`)).toEqual(
      posts.flatMap((post) => ['01.04.2026', '02.04.2026', '03.04.2026'].map((day) => `${post.video_id} ${day}`)),
    );

    // A reader that takes one chunk: the stream reads one batch more and waits, however many remain.
    const lazy = countingDb(env().db);
    const stream = statsCsv(lazy.db, days, selection, 3);
    const reader = stream[Symbol.asyncIterator]();
    expect(String((await reader.next()).value)).toBe(`\uFEFF${header.join(';')}\r\n`);
    await vi.waitFor(() => expect(stream.readableLength).toBeGreaterThan(0));
    await env().db.sql('SELECT 1', []);
    expect(lazy.statements()).toBe(2);
    stream.destroy();
  });

  it('streams a long export whole through the route, in several batches', async () => {
    const user = await createUser(env(), 'long');
    await seedMany(env().db, { userId: user.id, accounts: 5, videos: 100, days: 120, lastDay: '2026-06-30' });
    const response = await exportOf(user, 'from=2026-03-03&to=2026-06-30');
    const rows = readCsv(response.rawPayload).slice(1);
    expect(rows).toHaveLength(12_000);
    expect(new Set(rows.map((row) => `${row[4]} ${row[0]}`)).size).toBe(12_000);
    // Each day adds the video's id in views (seedMany): the gains add up to the last day's figures.
    const gained = new Map<string, number>();
    for (const row of rows) gained.set(row[4]!, (gained.get(row[4]!) ?? 0) + Number(row[9]));
    expect([...gained].every(([videoId, sum]) => sum === Number(videoId) * 120)).toBe(true);
    expect(rows[0]![3]).toMatch(/^Відео «\d+»; частина \d+$/);
  });

  it('ranks the videos by the views they gained over the period, per profile, group and platform', async () => {
    const user = await createUser(env(), 'top');
    const other = await createUser(env(), 'top-other');
    const groupId = await seedGroup(env().db, user.id, 'Група');
    const grouped = await seedAccount(env().db, user.id, 'У групі', groupId);
    const single = await seedAccount(env().db, user.id, 'Окремий');
    const before = '2026-04-25T09:00:00Z';
    const inside = '2026-05-10T09:00:00Z';
    // 900 views before May, 1 000 during it: gained 100 over YouTube and TikTok.
    const old = await seedVideo(env().db, {
      userId: user.id,
      accountId: grouped,
      title: 'Старе',
      position: 2,
      posts: [
        {
          platform: 'youtube',
          points: [
            { at: '2026-04-20T09:00:00Z', views: 800 },
            { at: inside, views: 850 },
          ],
        },
        {
          platform: 'tiktok',
          points: [
            { at: '2026-04-20T09:00:00Z', views: 100 },
            { at: inside, views: 150 },
          ],
        },
      ],
    });
    // Published in May: every view is gained.
    const fresh = await seedVideo(env().db, {
      userId: user.id,
      accountId: single,
      title: null,
      posts: [{ platform: 'instagram', points: [{ at: inside, views: 300 }] }],
    });
    // Nothing gained: not in the top.
    await seedVideo(env().db, {
      userId: user.id,
      accountId: single,
      title: 'Стоїть',
      posts: [{ platform: 'youtube', points: [{ at: before, views: 5000 }] }],
    });
    // After the period: not counted.
    await seedVideo(env().db, {
      userId: user.id,
      accountId: single,
      title: 'Пізніше',
      posts: [{ platform: 'youtube', points: [{ at: '2026-06-02T09:00:00Z', views: 9999 }] }],
    });
    const otherAccount = await seedAccount(env().db, other.id, 'Чужий');
    await seedVideo(env().db, {
      userId: other.id,
      accountId: otherAccount,
      title: 'Чуже',
      posts: [{ platform: 'youtube', points: [{ at: inside, views: 100_000 }] }],
    });

    const top = async (query = '') => (await topOf(user, `from=2026-05-01&to=2026-05-31${query}`)).json<TopVideos>().videos;
    expect(await top()).toEqual([
      {
        videoId: fresh.videoId,
        idUpload: fresh.idUpload,
        title: '',
        number: 1,
        account: { id: single, title: t.accounts.optionTitle(single, 'Окремий') },
        platforms: ['instagram'],
        gained: 300,
        views: 300,
      },
      {
        videoId: old.videoId,
        idUpload: old.idUpload,
        title: 'Старе',
        number: 3,
        account: { id: grouped, title: t.accounts.optionTitle(grouped, 'У групі') },
        platforms: ['youtube', 'tiktok'],
        gained: 100,
        views: 1000,
      },
    ]);
    expect((await top('&platform=tiktok')).map((video) => [video.videoId, video.gained, video.platforms])).toEqual([
      [old.videoId, 50, ['tiktok']],
    ]);
    expect((await top(`&groupId=${groupId}`)).map((video) => video.videoId)).toEqual([old.videoId]);
    expect((await top(`&accountId=${single}`)).map((video) => video.videoId)).toEqual([fresh.videoId]);
    // May's first days only: the old video's reading of the 10th is outside.
    expect((await topOf(user, 'from=2026-05-01&to=2026-05-09')).json<TopVideos>().videos).toEqual([]);
  });

  it('offers the user’s own profiles and groups to narrow to, and an admin every one', async () => {
    const user = await createUser(env(), 'choices');
    const other = await createUser(env(), 'choices-other');
    const admin = await createUser(env(), 'choices-admin', { role: 'admin' });
    const groupId = await seedGroup(env().db, user.id, 'Моя група');
    const accountId = await seedAccount(env().db, user.id, 'Мій', groupId);
    const otherGroup = await seedGroup(env().db, other.id, 'Чужа група');
    const otherAccount = await seedAccount(env().db, other.id, 'Чужий');
    const choices = async (who: { headers: Record<string, string> }) =>
      (await env().app.inject({ method: 'GET', url: '/api/stats/choices', headers: who.headers })).json<StatsChoices>();
    expect(await choices(user)).toEqual({
      accounts: [{ id: accountId, title: t.accounts.optionTitle(accountId, 'Мій') }],
      groups: [{ id: groupId, name: 'Моя група' }],
    });
    expect(await choices(admin)).toEqual({
      accounts: [
        { id: accountId, title: t.accounts.optionTitle(accountId, 'Мій') },
        { id: otherAccount, title: t.accounts.optionTitle(otherAccount, 'Чужий') },
      ],
      groups: [
        { id: groupId, name: 'Моя група' },
        { id: otherGroup, name: 'Чужа група' },
      ],
    });
  });
});
