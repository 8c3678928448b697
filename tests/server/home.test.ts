import { expect, it } from 'vitest';
import type { HomeSummary } from '../../src/lib/contract';
import { attentionShown } from '../../server/services/lists/home';
import { recordConnection } from '../../server/platforms/connections';
import type { Platform } from '../../server/platforms/types';
import { ManualClock } from './manual-clock';
import { createUser, describeEachDatabase, type TestEnv } from './helpers';
import type { TestUser } from './backoffice-fixtures';

// Noon in Kyiv (UTC+2 in November): today is 25 November, from 24 Nov 22:00 UTC to 25 Nov 22:00 UTC.
const clock = new ManualClock(Date.parse('2026-11-25T10:00:00Z'));
const kyivMidnight = '2026-11-24T22:00:00Z';

type Status = 'pending' | 'done' | 'error';
type Wait = 'retry' | 'busy' | 'quota' | 'cap' | 'reconnect';

const noPosts = { scheduled: 0, published: 0, held: 0, failed: 0 };
const noStepsDone = { profile: false, connect: false, backgrounds: false, video: false };

describeEachDatabase(
  'Home route',
  (env) => {
    const home = async (user: TestUser): Promise<HomeSummary> => {
      const answer = await env().app.inject({ url: '/api/home', headers: user.headers });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<HomeSummary>();
    };

    async function profile(user: TestUser, comments: string, platforms: { tiktok?: boolean; youtube?: boolean } = {}): Promise<number> {
      const { rows } = await env().db.sql(
        `INSERT INTO accounts (user_id, proxy, comments, is_active_tiktok, is_active_youtube) VALUES ($1, '127.0.0.1:8080', $2, $3, $4) RETURNING id`,
        [user.id, comments, platforms.tiktok ?? false, platforms.youtube ?? false],
      );
      return rows[0].id;
    }

    /** A connection as the save or a consent page stores it; `failure` as a connector records it (recordConnection). */
    async function connection(
      accountId: number,
      platform: string,
      method: 'oauth' | 'pasted',
      { state = 'connected', failure }: { state?: 'connected' | 'revoked'; failure?: 'refused' | 'revoked' } = {},
    ) {
      await env().db.sql(
        `INSERT INTO account_connections (account_id, platform, method, access_token, state) VALUES ($1, $2, $3, 'token', $4)`,
        [accountId, platform, method, state],
      );
      if (failure) {
        await recordConnection(env().db.sql, {
          accountId,
          platform: platform as Platform,
          state: 'down',
          kind: failure,
          source: 'publish',
          at: new Date(clock.now()),
        });
      }
    }

    /** One published set of `user` with a video per post, each post on YouTube through `accountId` at its time. */
    async function posts(user: TestUser, accountId: number, planned: [string, Status, Wait?][]) {
      const { rows } = await env().db.sql(
        `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, published_at, title)
         VALUES (gen_random_uuid(), $1, 'published', $2, 'gone', now(), 'Випуск') RETURNING id`,
        [user.id, planned.length],
      );
      for (const [position, [at, status, wait]] of planned.entries()) {
        const { rows: video } = await env().db.sql(
          `INSERT INTO videos (request_id, user_id, account_id, position, status) VALUES ($1, $2, $3, $4, 'publication') RETURNING id`,
          [rows[0].id, user.id, accountId, position],
        );
        await env().db.sql(
          `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, wait_kind, wait_detail)
           VALUES ($1, 'youtube', $2, $3, $4, $5, $6)`,
          [video[0].id, accountId, status, at, wait ?? null, wait ? '{}' : null],
        );
      }
    }

    it('asks for a signed-in user', async () => {
      expect((await env().app.inject({ url: '/api/home' })).statusCode).toBe(401);
    });

    it("counts today's posts by state on the Kyiv day, through the operator's own profiles; an admin's count is everyone's", async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const morning = await profile(owner, 'Ранок');
      const evening = await profile(owner, 'Вечір');
      const foreign = await profile(other, 'Чужий');
      await posts(owner, morning, [
        ['2026-11-24T21:59:59Z', 'done'], // 23:59:59 yesterday in Kyiv
        [kyivMidnight, 'done'],
        ['2026-11-25T08:00:00Z', 'done'],
        ['2026-11-25T09:00:00Z', 'error'],
        ['2026-11-25T11:00:00Z', 'pending'],
        // Tried again after a failure, or behind the profile's other upload: still scheduled.
        ['2026-11-25T12:00:00Z', 'pending', 'retry'],
        ['2026-11-25T12:30:00Z', 'pending', 'busy'],
        // Held back by a cap, a quota or a revoked grant.
        ['2026-11-25T13:00:00Z', 'pending', 'cap'],
        ['2026-11-25T14:00:00Z', 'pending', 'quota'],
        ['2026-11-25T15:00:00Z', 'pending', 'reconnect'],
        ['2026-11-25T21:59:59Z', 'pending'],
        ['2026-11-25T22:00:00Z', 'pending'], // midnight: tomorrow in Kyiv
      ]);
      await posts(owner, evening, [['2026-11-25T10:00:00Z', 'error']]);
      await posts(other, foreign, [
        ['2026-11-25T10:00:00Z', 'done'],
        ['2026-11-25T10:00:00Z', 'error'],
        ['2026-11-25T10:00:00Z', 'pending', 'cap'],
        ['2026-11-25T10:00:00Z', 'pending'],
      ]);

      const mine = await home(owner);
      expect(mine.day).toBe('2026-11-25');
      expect(mine.posts).toEqual({ scheduled: 4, published: 2, held: 3, failed: 2 });
      expect((await home(other)).posts).toEqual({ scheduled: 1, published: 1, held: 1, failed: 1 });
      expect((await home(admin)).posts).toEqual({ scheduled: 5, published: 3, held: 4, failed: 3 });
    });

    it('names the profiles whose platform access failed, as the profile list judges them, the owner seeing only their own', async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const revoked = await profile(owner, 'Відкликаний', { tiktok: true });
      await connection(revoked, 'tiktok', 'oauth', { state: 'revoked', failure: 'revoked' });
      const refused = await profile(owner, 'Відмовлений', { tiktok: true, youtube: true });
      await connection(refused, 'tiktok', 'pasted', { failure: 'refused' });
      await connection(refused, 'youtube', 'oauth', { failure: 'refused' });
      const working = await profile(owner, 'Працює', { tiktok: true });
      await connection(working, 'tiktok', 'pasted');
      // A failure left on a platform since switched off asks nothing of anyone: the list shows such a profile as not active.
      const switchedOff = await profile(owner, 'Вимкнений');
      await connection(switchedOff, 'tiktok', 'pasted', { failure: 'refused' });
      const foreign = await profile(other, 'Чужий', { tiktok: true });
      await connection(foreign, 'tiktok', 'pasted', { failure: 'refused' });

      const ownerRef = { id: owner.id, login: 'owner' };
      expect((await home(owner)).attention).toEqual({
        profiles: [
          { id: revoked, title: `#${revoked} Відкликаний`, user: ownerRef, failedPlatforms: ['tiktok'] },
          { id: refused, title: `#${refused} Відмовлений`, user: ownerRef, failedPlatforms: ['youtube', 'tiktok'] },
        ],
        total: 2,
      });
      expect((await home(other)).attention.profiles.map((entry) => entry.id)).toEqual([foreign]);
      const everyone = (await home(admin)).attention;
      expect(everyone.total).toBe(3);
      expect(everyone.profiles.at(-1)).toEqual({
        id: foreign,
        title: `#${foreign} Чужий`,
        user: { id: other.id, login: 'other' },
        failedPlatforms: ['tiktok'],
      });

      // Connected again: its connections are 'connected', and the profile asks for nothing.
      for (const platform of ['youtube', 'tiktok'] as const) {
        await recordConnection(env().db.sql, {
          accountId: refused,
          platform,
          state: 'connected',
          kind: null,
          source: 'consent',
          at: new Date(clock.now()),
        });
      }
      expect((await home(owner)).attention.profiles.map((entry) => entry.id)).toEqual([revoked]);
    });

    it("marks a new account's first steps done one by one, each by the user's own rows only", async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      // Another operator who did everything changes nothing for this one.
      const theirs = await profile(other, 'Чужий', { tiktok: true });
      await connection(theirs, 'tiktok', 'pasted');
      await env().db.sql(
        `INSERT INTO photos (user_id, file_key, content_type, width, height) VALUES ($1, 'photos/1.png', 'image/png', 720, 1280)`,
        [other.id],
      );
      await posts(other, theirs, [['2026-11-25T10:00:00Z', 'done']]);
      expect(await home(owner)).toEqual({
        day: '2026-11-25',
        posts: noPosts,
        attention: { profiles: [], total: 0 },
        steps: noStepsDone,
      });

      const mine = await profile(owner, 'Перший', { tiktok: true });
      expect((await home(owner)).steps).toEqual({ ...noStepsDone, profile: true });
      // A consent link whose grant is gone connects nothing.
      await connection(mine, 'tiktok', 'oauth', { state: 'revoked' });
      expect((await home(owner)).steps).toEqual({ ...noStepsDone, profile: true });
      await connection(mine, 'tiktok', 'pasted');
      expect((await home(owner)).steps).toEqual({ ...noStepsDone, profile: true, connect: true });
      await env().db.sql(
        `INSERT INTO photos (user_id, file_key, content_type, width, height) VALUES ($1, 'photos/2.png', 'image/png', 720, 1280)`,
        [owner.id],
      );
      expect((await home(owner)).steps).toEqual({ profile: true, connect: true, backgrounds: true, video: false });
      await env().db.sql(
        `INSERT INTO creation_requests (id_upload, user_id, count_video, source_key) VALUES (gen_random_uuid(), $1, 1, 'source')`,
        [owner.id],
      );
      expect((await home(owner)).steps).toEqual({ profile: true, connect: true, backgrounds: true, video: true });
    });

    it('answers in under a second with 10 000 posts, with the figures the seed implies', { timeout: 60_000 }, async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const seeded = await seedPosts(env(), owner, other);

      const started = performance.now();
      const mine = await home(owner);
      const ownerMs = performance.now() - started;
      const adminStarted = performance.now();
      const everyone = await home(admin);
      const adminMs = performance.now() - adminStarted;
      console.info(`[${env().kind}] home with 10 000 posts: operator ${ownerMs.toFixed(0)} ms, admin ${adminMs.toFixed(0)} ms`);

      expect(mine.posts).toEqual(seeded.expected.owner);
      expect(everyone.posts).toEqual(seeded.expected.everyone);
      expect(mine.attention.total).toBe(12);
      expect(mine.attention.profiles.map((entry) => entry.id)).toEqual(seeded.ownerProfiles.slice(0, attentionShown));
      expect(everyone.attention.total).toBe(14);
      expect(mine.steps).toEqual({ profile: true, connect: true, backgrounds: false, video: true });
      expect(ownerMs).toBeLessThan(1000);
      expect(adminMs).toBeLessThan(1000);
    });
  },
  { clock },
);

const seededPosts = 10_000;

/**
 * 10 000 posts, each of its own video, spread over ten Kyiv days around today and two operators:
 * post `g` is the other operator's when g % 3 = 0, planned (g % 10 − 5) days from today at minute
 * g % 1440, and in a state by g % 7. The owner has 20 profiles, the first 12 failing on TikTok;
 * the other 5, the first 2 failing.
 */
async function seedPosts(env: TestEnv, owner: TestUser, other: TestUser) {
  const profilesOf = async (user: TestUser, count: number, failing: number) => {
    const { rows } = await env.db.sql(
      `INSERT INTO accounts (user_id, proxy, comments, is_active_tiktok)
       SELECT $1, '127.0.0.1:8080', 'profile ' || g, true FROM generate_series(1, $2) AS g ORDER BY g RETURNING id`,
      [user.id, count],
    );
    const ids = rows.map((row) => row.id as number).sort((a, b) => a - b);
    await env.db.sql(
      `INSERT INTO account_connections (account_id, platform, method, access_token) SELECT id, 'tiktok', 'pasted', 'token' FROM unnest($1::int[]) AS id`,
      [ids],
    );
    await env.db.sql(
      `INSERT INTO connection_states (account_id, platform, state, kind, source, at)
       SELECT id, 'tiktok', 'down', 'refused', 'publish', now() FROM unnest($1::int[]) AS id`,
      [ids.slice(0, failing)],
    );
    return ids;
  };
  const ownerProfiles = await profilesOf(owner, 20, 12);
  const otherProfiles = await profilesOf(other, 5, 2);
  const { rows: requests } = await env.db.sql(
    `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, published_at)
     VALUES (gen_random_uuid(), $1, 'published', 1, 'gone', now()), (gen_random_uuid(), $2, 'published', 1, 'gone', now()) RETURNING id, user_id`,
    [owner.id, other.id],
  );
  const requestOf = (user: TestUser) => requests.find((row) => row.user_id === user.id)!.id;
  await env.db.sql(
    `INSERT INTO videos (request_id, user_id, account_id, position, status)
     SELECT CASE WHEN g % 3 = 0 THEN $2::int ELSE $1::int END, CASE WHEN g % 3 = 0 THEN $4::int ELSE $3::int END,
            CASE WHEN g % 3 = 0 THEN ($6::int[])[1 + g % 5] ELSE ($5::int[])[1 + g % 20] END, g, 'publication'
       FROM generate_series(1, $7) AS g`,
    [requestOf(owner), requestOf(other), owner.id, other.id, ownerProfiles, otherProfiles, seededPosts],
  );
  await env.db.sql(
    `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, wait_kind, wait_detail)
     SELECT v.id, (ARRAY['youtube', 'tiktok', 'instagram'])[1 + v.position % 3], v.account_id,
            CASE v.position % 7 WHEN 0 THEN 'error' WHEN 1 THEN 'done' WHEN 2 THEN 'done' ELSE 'pending' END,
            $1::timestamptz + (v.position % 10 - 5) * interval '1 day' + (v.position % 1440) * interval '1 minute',
            CASE v.position % 7 WHEN 3 THEN 'cap' WHEN 4 THEN 'retry' WHEN 5 THEN 'reconnect' END,
            CASE WHEN v.position % 7 IN (3, 4, 5) THEN '{}'::jsonb END
       FROM videos AS v`,
    [kyivMidnight],
  );

  const byRemainder: (keyof HomeSummary['posts'])[] = ['failed', 'published', 'published', 'held', 'scheduled', 'held', 'scheduled'];
  const expected = { owner: { ...noPosts }, everyone: { ...noPosts } };
  for (let g = 1; g <= seededPosts; g++) {
    if (g % 10 !== 5) continue;
    const state = byRemainder[g % 7]!;
    expected.everyone[state]++;
    if (g % 3 !== 0) expected.owner[state]++;
  }
  return { ownerProfiles, expected };
}
