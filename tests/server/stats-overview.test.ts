import { expect, it } from 'vitest';
import type { StatsOverview, TopVideos } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { recordStats } from '../../server/services/statistics/stats-points';
import { createUser, describeEachDatabase, type TestEnv } from './helpers';
import { seedAccount, seedGroup, seedVideo } from './stats-seed';

type Headers = { headers: Record<string, string> };

describeEachDatabase('statistics overview of a period', (env) => {
  const overviewOf = (user: Headers, query: string) =>
    env().app.inject({ method: 'GET', url: `/api/stats/overview?${query}`, headers: user.headers });
  const overview = async (user: Headers, query: string) => {
    const response = await overviewOf(user, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<StatsOverview>();
  };

  /** The figures the sync reads, recorded as it records them (recordStats), at a moment. */
  const synced = (at: string, read: [postId: number, views: number, likes: number, comments: number][]) =>
    recordStats(
      env().db,
      read.map(([postId, views, likes, comments]) => ({ postId, views, likes, comments })),
      new Date(at),
    );

  /**
   * An operator with a grouped profile posting on YouTube (before June) and TikTok, and a profile
   * outside the group posting on Instagram, synced over the first days of June 2026 (summer: Kyiv
   * is UTC+3); another operator's YouTube post with far more views; a YouTube post published in
   * June never synced.
   */
  async function juneFigures(test: TestEnv, login: string) {
    const user = await createUser(test, login);
    const groupId = await seedGroup(test.db, user.id, `Група ${login}`);
    const morning = await seedAccount(test.db, user.id, 'Ранок\nкулінарія', groupId);
    const evening = await seedAccount(test.db, user.id, 'Вечір');
    const first = await seedVideo(test.db, {
      userId: user.id,
      accountId: morning,
      title: 'Сніданок',
      posts: [
        { platform: 'youtube', points: [], publishedAt: '2026-05-28T09:00:00Z' },
        { platform: 'tiktok', points: [], publishedAt: '2026-06-02T09:00:00Z' },
      ],
    });
    const second = await seedVideo(test.db, {
      userId: user.id,
      accountId: evening,
      title: 'Вечеря',
      posts: [{ platform: 'instagram', points: [], publishedAt: '2026-06-03T09:00:00Z' }],
    });
    await seedVideo(test.db, {
      userId: user.id,
      accountId: morning,
      title: 'Ще не прочитане',
      posts: [{ platform: 'youtube', points: [], publishedAt: '2026-06-02T12:00:00Z' }],
    });
    const stranger = await createUser(test, `${login}-other`);
    const strangerAccount = await seedAccount(test.db, stranger.id, 'Чужий');
    const theirs = await seedVideo(test.db, {
      userId: stranger.id,
      accountId: strangerAccount,
      title: 'Чуже',
      posts: [{ platform: 'youtube', points: [], publishedAt: '2026-06-02T09:00:00Z' }],
    });
    const [youtube, tiktok] = first.postIds as [number, number];
    const instagram = second.postIds[0]!;
    await synced('2026-05-30T09:00:00Z', [[youtube, 100, 10, 1]]);
    // 23:30 on 1 June in Kyiv, then 00:30 on the 2nd (still the 1st in UTC).
    await synced('2026-06-01T20:30:00Z', [[youtube, 150, 12, 2]]);
    await synced('2026-06-01T21:30:00Z', [[youtube, 180, 15, 3]]);
    await synced('2026-06-02T10:00:00Z', [
      [tiktok, 40, 4, 0],
      [theirs.postIds[0]!, 100_000, 900, 90],
    ]);
    await synced('2026-06-03T10:00:00Z', [
      [youtube, 200, 16, 3],
      [tiktok, 90, 9, 1],
      [instagram, 500, 50, 5],
    ]);
    // After the period: not counted.
    await synced('2026-06-05T10:00:00Z', [[youtube, 1000, 20, 4]]);
    return { user, groupId, morning, evening, first, second, strangerAccount, stranger };
  }

  it('totals each platform’s gains and published posts, draws each Kyiv day’s gains, and ranks the profiles', async () => {
    const { user, morning, evening, first } = await juneFigures(env(), 'overview');
    const june = await overview(user, 'from=2026-06-01&to=2026-06-03');
    expect(june.totals).toEqual([
      // Published in May: it gained in June, but is no post of June's; the post never synced is.
      { platform: 'youtube', gained: 100, likes: 6, comments: 2, posts: 1 },
      { platform: 'tiktok', gained: 90, likes: 9, comments: 1, posts: 1 },
      { platform: 'instagram', gained: 500, likes: 50, comments: 5, posts: 1 },
    ]);
    expect(june.days).toEqual(['2026-06-01', '2026-06-02', '2026-06-03']);
    // Each day starts at midnight in Kyiv, 21:00 UTC the day before.
    expect(june.at).toEqual(['2026-05-31T21:00:00Z', '2026-06-01T21:00:00Z', '2026-06-02T21:00:00Z'].map((at) => Date.parse(at) / 1000));
    expect(june.daily).toEqual([
      { platform: 'youtube', values: [50, 30, 20] },
      { platform: 'tiktok', values: [0, 40, 50] },
      { platform: 'instagram', values: [0, 0, 500] },
    ]);
    // A day's gains add up to the period's, as the top counts them.
    for (const { platform, values } of june.daily)
      expect(values.reduce((sum, value) => sum + value, 0)).toBe(june.totals.find((total) => total.platform === platform)!.gained);
    const top = (
      await env().app.inject({ method: 'GET', url: '/api/stats/top?from=2026-06-01&to=2026-06-03', headers: user.headers })
    ).json<TopVideos>();
    expect(top.videos.find((video) => video.videoId === first.videoId)?.gained).toBe(190);

    expect(june.profiles).toEqual([
      { account: { id: evening, title: t.accounts.optionTitle(evening, 'Вечір') }, gained: 500, likes: 50, comments: 5, posts: 1 },
      // Named by its comment's first line, as every picker names it.
      { account: { id: morning, title: t.accounts.optionTitle(morning, 'Ранок') }, gained: 190, likes: 15, comments: 3, posts: 2 },
    ]);

    // One day: the 2nd alone, from its Kyiv midnight to the next.
    const second = await overview(user, 'from=2026-06-02&to=2026-06-02');
    expect(second.daily).toEqual([
      { platform: 'youtube', values: [30] },
      { platform: 'tiktok', values: [40] },
    ]);
    expect(second.totals.map(({ platform, gained, posts }) => [platform, gained, posts])).toEqual([
      ['youtube', 30, 1],
      ['tiktok', 40, 1],
    ]);
  });

  it('narrows to a profile, a group and a platform', async () => {
    const { user, groupId, morning, evening } = await juneFigures(env(), 'narrowed');
    const query = 'from=2026-06-01&to=2026-06-03';
    const tiktok = await overview(user, `${query}&platform=tiktok`);
    expect(tiktok.totals).toEqual([{ platform: 'tiktok', gained: 90, likes: 9, comments: 1, posts: 1 }]);
    expect(tiktok.daily).toEqual([{ platform: 'tiktok', values: [0, 40, 50] }]);
    expect(tiktok.profiles.map((profile) => [profile.account?.id, profile.gained])).toEqual([[morning, 90]]);

    const grouped = await overview(user, `${query}&groupId=${groupId}`);
    expect(grouped.totals.map((total) => total.platform)).toEqual(['youtube', 'tiktok']);
    expect(grouped.profiles.map((profile) => profile.account?.id)).toEqual([morning]);

    const single = await overview(user, `${query}&accountId=${evening}`);
    expect(single.totals).toEqual([{ platform: 'instagram', gained: 500, likes: 50, comments: 5, posts: 1 }]);
    expect(single.profiles.map((profile) => profile.account?.id)).toEqual([evening]);

    // Nothing on Instagram in the group: no totals, no lines, no profiles; the days still listed.
    const none = await overview(user, `${query}&groupId=${groupId}&platform=instagram`);
    expect(none).toMatchObject({ totals: [], daily: [], profiles: [], days: ['2026-06-01', '2026-06-02', '2026-06-03'] });
  });

  it('counts only the user’s own posts, every one for an admin, and refuses another’s profile or a bad period in Ukrainian', async () => {
    const { user, strangerAccount, stranger } = await juneFigures(env(), 'scoped');
    const admin = await createUser(env(), 'scoped-admin', { role: 'admin' });
    const query = 'from=2026-06-01&to=2026-06-03';

    expect((await overview(user, query)).totals.find((total) => total.platform === 'youtube')?.gained).toBe(100);
    expect((await overview(stranger, query)).totals).toEqual([
      { platform: 'youtube', gained: 100_000, likes: 900, comments: 90, posts: 1 },
    ]);
    const all = await overview(admin, query);
    expect(all.totals.find((total) => total.platform === 'youtube')).toEqual({
      platform: 'youtube',
      gained: 100_100,
      likes: 906,
      comments: 92,
      posts: 2,
    });
    expect(all.profiles[0]!.account).toEqual({ id: strangerAccount, title: t.accounts.optionTitle(strangerAccount, 'Чужий') });

    const refused = await overviewOf(user, `${query}&accountId=${strangerAccount}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe(t.server.notFound);
    const reversed = await overviewOf(user, 'from=2026-06-03&to=2026-06-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toEqual([t.statsScreen.rangeReversed]);
    expect((await env().app.inject({ method: 'GET', url: `/api/stats/overview?${query}` })).statusCode).toBe(401);
  });

  it('names the posts of a deleted profile as deleted in the ranking, still the owner’s', async () => {
    const { user, evening } = await juneFigures(env(), 'deleted');
    await env().db.sql('DELETE FROM accounts WHERE id = $1', [evening]);
    const june = await overview(user, 'from=2026-06-01&to=2026-06-03');
    expect(june.profiles[0]).toEqual({ account: null, gained: 500, likes: 50, comments: 5, posts: 1 });
    expect(june.totals.find((total) => total.platform === 'instagram')?.gained).toBe(500);
  });
});
