import crypto from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type { SpreadPayload, SpreadProposal } from '../../src/lib/contract';
import { kyivWallTime } from '../../src/lib/kyiv-time';
import { t } from '../../server/messages';
import { publishPost } from '../../server/jobs/publish';
import { forgetInstagramLimits } from '../../server/platforms/instagram/caps';
import { SandboxState } from '../../server/sandbox/index';
import { publishJobName } from '../../server/services/publishing/post-lifecycle';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, testJobContext, withSandboxServer } from './helpers';
import { ManualClock } from './manual-clock';
import { option, publishPayload, renderedRequest, type RenderedRequest } from './publishing-fixtures';

/** Issue 31.3–31.4: the product proposes each video's profile and date within the slots and caps, and a calendar move keeps them. */

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
// Tuesday 1 December 2026, 10:17 in Kyiv (UTC+2): the proposal may start no sooner than 10:35.
const start = Date.parse('2026-12-01T08:17:00Z');
const clock = new ManualClock(start);
// The sandbox answers Instagram's publishing limit as 2 posts in 24 hours.
const sandbox = new SandboxState({ now: () => clock.now(), limits: { instagramDailyPosts: 2 } });
const hoursWithGap = { from: '09:00', to: '22:00', minGapMinutes: 120, days: [1, 2, 3, 4, 5, 6, 7] };

describeEachDatabase(
  'Spread: dates proposed within slots and caps',
  (env) => {
    const network = withSandboxServer(env);
    beforeEach(() => {
      forgetInstagramLimits();
      clock.set(start);
    });

    const send = (user: TestUser, method: 'POST' | 'PUT' | 'PATCH', url: string, payload: object) =>
      env().app.inject({ method, url, headers: user.headers, payload });

    async function instagramProfile(user: TestUser, name: string) {
      const account = await createAccount(env(), user, {
        proxy: network().proxy.url,
        comments: `${name}-${env().kind}`,
        isActiveInstagram: true,
        InstagramLogin: `${name}-${env().kind}-${crypto.randomUUID().slice(0, 8)}.insta`,
        InstagramPassword: 'instagram-password',
      });
      expect((await send(user, 'PUT', `/api/accounts/${account.id}/slots`, hoursWithGap)).statusCode).toBe(200);
      return account;
    }

    const spreadBody = (request: RenderedRequest, accountIds: number[], from: string, to: string) => ({
      from,
      to,
      accounts: accountIds.map((id) => ({ id })),
      inYouTube: false,
      inTikTok: false,
      inInstagram: true,
      video: request.videos.map((video) => ({ id: video.id })),
    });

    async function spread(
      user: TestUser,
      request: RenderedRequest,
      accountIds: number[],
      from: string,
      to: string,
      extra: Partial<SpreadPayload> = {},
    ) {
      const response = await send(user, 'POST', `/api/upload-video/${request.idUpload}/spread`, {
        ...spreadBody(request, accountIds, from, to),
        ...extra,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<SpreadProposal>();
    }

    const soonest = { mode: 'soonest' } as const;

    const kyivClock = (iso: string) => kyivWallTime(Date.parse(iso)).slice(11);

    it('proposes 12 videos over 3 profiles inside the hours, 120 minutes apart, at most 2 Instagram posts a moving day, none past', async () => {
      const owner = await createUser(env(), 'owner');
      const profiles = [await instagramProfile(owner, 'a'), await instagramProfile(owner, 'b'), await instagramProfile(owner, 'c')];
      const request = await renderedRequest(env(), owner.id, 12, 1000);
      const proposal = await spread(
        owner,
        request,
        profiles.map((profile) => profile.id),
        '2026-12-01',
        '2026-12-07',
        soonest,
      );

      expect(proposal.unplaced).toEqual([]);
      expect(proposal.data.map((item) => item.videoId)).toEqual(request.videos.map((video) => video.id));
      // The i-th rule: video 1 to the first profile, video 2 to the second, and round again.
      expect(proposal.data.map((item) => item.accountId)).toEqual(request.videos.map((_, index) => profiles[index % 3]!.id));
      for (const item of proposal.data) {
        expect(item.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+02:00$/);
        expect(kyivClock(item.date) >= '09:00' && kyivClock(item.date) <= '22:00', item.date).toBe(true);
        expect(Date.parse(item.date)).toBeGreaterThan(clock.now());
        expect(item.reason).toContain(
          'Перший вільний слот: найкращу годину профілю видно, коли в нього є 30 публікацій з переглядами, а поки що 0',
        );
      }
      for (const profile of profiles) {
        const times = proposal.data
          .filter((item) => item.accountId === profile.id)
          .map((item) => Date.parse(item.date))
          .sort((a, b) => a - b);
        expect(times).toHaveLength(4);
        for (const [index, at] of times.entries()) {
          if (index > 0) expect(at - times[index - 1]!).toBeGreaterThanOrEqual(120 * minute);
          expect(times.filter((other) => other > at - day && other <= at).length).toBeLessThanOrEqual(2);
        }
      }
      // Nothing was saved: the request is still unpublished and has no posts.
      const { rows } = await env().db.sql(`SELECT count(*)::int AS posts FROM video_posts`, []);
      expect(rows[0].posts).toBe(0);

      // Saving the proposal is SPEC's publish payload with each video's profile and date.
      const byVideo = new Map(proposal.data.map((item) => [item.videoId, item]));
      const payload = publishPayload(
        request,
        profiles.map((profile) => profile.id),
        { inYouTube: false, inInstagram: true },
      );
      for (const video of payload.video) {
        video.account = option(byVideo.get(video.id)!.accountId);
        video.date = byVideo.get(video.id)!.date;
      }
      const published = await send(owner, 'POST', `/api/upload-video/${request.idUpload}`, payload);
      expect(published.statusCode, published.body).toBe(200);
      const saved = await env().db.sql(
        `SELECT p.id, p.video_id, p.account_id, p.scheduled_at, p.job_token, j.start_after
           FROM video_posts p JOIN pgboss.job j ON j.name = $1 AND (j.data->>'postId')::int = p.id
          ORDER BY p.scheduled_at`,
        [publishJobName],
      );
      expect(saved.rows).toHaveLength(12);
      for (const row of saved.rows) {
        const proposed = byVideo.get(row.video_id as number)!;
        expect(row.account_id).toBe(proposed.accountId);
        expect(new Date(row.scheduled_at as string).getTime()).toBe(Date.parse(proposed.date));
        expect(new Date(row.start_after as string).getTime()).toBe(Date.parse(proposed.date));
      }

      // The first post goes out when its time comes.
      const first = saved.rows[0]!;
      clock.set(new Date(first.scheduled_at as string).getTime());
      await clock.flowing(() => publishPost({ postId: first.id as number, token: first.job_token as string }, testJobContext(env())));
      const out = await env().db.sql(`SELECT status, published_at FROM video_posts WHERE id = $1`, [first.id]);
      expect(out.rows[0]).toMatchObject({ status: 'done' });
    });

    async function tiktokProfile(user: TestUser, name: string, slots: object) {
      const account = await createAccount(env(), user, {
        proxy: network().proxy.url,
        comments: `${name}-${env().kind}`,
        isActiveTikTok: true,
        TikTiokAuthStr: `sandbox-tt-${name}-${crypto.randomUUID().slice(0, 8)}`,
      });
      expect((await send(user, 'PUT', `/api/accounts/${account.id}/slots`, slots)).statusCode).toBe(200);
      return account;
    }

    it('spreads 12 videos over 3 profiles and 3 days evenly (4 a day, each profile’s days within one post), inside the hours and gaps; soonest keeps the earliest-free order', async () => {
      const owner = await createUser(env(), 'owner');
      // 09:00–19:00 with 120 minutes between posts: room for 6 a day.
      const roomForSix = { from: '09:00', to: '19:00', minGapMinutes: 120, days: [1, 2, 3, 4, 5, 6, 7] };
      const profiles = [];
      for (const name of ['even-a', 'even-b', 'even-c']) profiles.push(await tiktokProfile(owner, name, roomForSix));
      const ids = profiles.map((profile) => profile.id);
      const tiktokOnly = { inInstagram: false, inTikTok: true };
      const days = ['2026-12-02', '2026-12-03', '2026-12-04'];

      /** Each profile's posts by Kyiv day, checked against the hours and the gap. */
      function perDay(proposal: SpreadProposal, videos: number) {
        expect(proposal.unplaced).toEqual([]);
        expect(proposal.data).toHaveLength(videos);
        const counts = new Map(ids.map((id) => [id, new Map(days.map((day) => [day, 0]))]));
        for (const id of ids) {
          const times = proposal.data
            .filter((item) => item.accountId === id)
            .map((item) => Date.parse(item.date))
            .sort((a, b) => a - b);
          for (const [index, at] of times.entries()) {
            const wall = kyivWallTime(at);
            expect(wall.slice(11) >= '09:00' && wall.slice(11) <= '19:00', wall).toBe(true);
            if (index > 0) expect(at - times[index - 1]!).toBeGreaterThanOrEqual(120 * minute);
            const byDay = counts.get(id)!;
            byDay.set(wall.slice(0, 10), byDay.get(wall.slice(0, 10))! + 1);
          }
        }
        // The answer's own count per day and profile says the same.
        const said = new Map(ids.map((id) => [id, new Map(days.map((day) => [day, 0]))]));
        for (const entry of proposal.days ?? []) said.get(entry.accountId)!.set(entry.day, entry.posts);
        expect(said).toEqual(counts);
        return counts;
      }

      const twelve = await renderedRequest(env(), owner.id, 12, 1000);
      const even = await spread(owner, twelve, ids, days[0]!, days[2]!, tiktokOnly);
      const counts = perDay(even, 12);
      for (const id of ids) {
        const shares = [...counts.get(id)!.values()];
        expect(shares.reduce((sum, posts) => sum + posts, 0)).toBe(4);
        expect(Math.max(...shares) - Math.min(...shares), `${id}: ${shares}`).toBeLessThanOrEqual(1);
      }
      for (const day of days) expect(ids.reduce((sum, id) => sum + counts.get(id)!.get(day)!, 0)).toBe(4);
      // Within a day a profile's posts spread over its window, not from its start: two posts are at least a third of it apart.
      for (const id of ids) {
        const times = even.data.filter((item) => item.accountId === id).map((item) => kyivWallTime(Date.parse(item.date)));
        for (const day of days) {
          const clocks = times.filter((time) => time.startsWith(day)).map((time) => time.slice(11));
          if (clocks.length === 1) expect(clocks[0], day).toBe('14:00');
          if (clocks.length === 2) expect(clocks, day).toEqual(['11:30', '16:30']);
        }
      }
      expect(even.data[0]!.reason).toContain('Рівномірно по днях і годинах профілю');

      // 36 videos: 4 a day for each profile.
      const many = await renderedRequest(env(), owner.id, 36, 1000);
      const full = perDay(await spread(owner, many, ids, days[0]!, days[2]!, tiktokOnly), 36);
      for (const id of ids) expect([...full.get(id)!.values()]).toEqual([4, 4, 4]);

      // Soonest: the earliest free slots, video by video, as before issue 43 (the first day holds six of each profile's).
      const first = await spread(owner, twelve, ids, days[0]!, days[2]!, { ...tiktokOnly, ...soonest });
      expect(first.data.map((item) => [item.accountId, kyivWallTime(Date.parse(item.date))])).toEqual(
        twelve.videos.map((_, index) => [ids[index % 3], `2026-12-02T${['09:00', '11:00', '13:00', '15:00'][Math.floor(index / 3)]}`]),
      );
      expect(first.data[0]!.reason).toContain('Перший вільний слот');
      expect(first.days).toEqual(ids.map((id) => ({ day: '2026-12-02', accountId: id, posts: 4 })));
    });

    it('names the videos a range cannot hold, with the cap that fills it', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await instagramProfile(owner, 'full');
      const request = await renderedRequest(env(), owner.id, 5, 1000);
      const proposal = await spread(owner, request, [profile.id], '2026-12-01', '2026-12-01', soonest);

      expect(proposal.data.map((item) => kyivClock(item.date))).toEqual(['10:35', '12:35']);
      // The second waits for the first's gap; the rest for the cap.
      expect(proposal.data[1]!.reason).toContain('раніше не можна — проміжок 120 хв між публікаціями профілю');
      expect(proposal.unplaced.map((item) => item.videoId)).toEqual(request.videos.slice(2).map((video) => video.id));
      for (const item of proposal.unplaced) {
        expect(item.reason).toBe(`Профіль #${profile.id} full-${env().kind}: немає вільних слотів до 01.12 — ліміт Instagram 2 на добу`);
      }

      // A post already planned for that day takes one of its two places.
      const other = await renderedRequest(env(), owner.id, 1, 1000);
      const payload = publishPayload(other, [profile.id], { inYouTube: false, inInstagram: true, date: '2026-12-01T15:00' });
      const planned = await send(owner, 'POST', `/api/upload-video/${other.idUpload}`, payload);
      expect(planned.statusCode, planned.body).toBe(200);
      const squeezed = await spread(owner, request, [profile.id], '2026-12-01', '2026-12-02', soonest);
      // 15:00 is taken: 10:35 fits, then the day is full; the moving day frees at 10:35 and 15:00 the next.
      expect(squeezed.data.map((item) => kyivWallTime(Date.parse(item.date)))).toEqual([
        '2026-12-01T10:35',
        '2026-12-02T10:35',
        '2026-12-02T15:00',
      ]);
      expect(squeezed.data[1]!.reason).toContain('раніше не можна — ліміт Instagram 2 на добу');
      expect(squeezed.unplaced).toHaveLength(2);
    });

    it('prefers the hour in which a profile with 30 posts of history gained the most views, and says so', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await instagramProfile(owner, 'history');
      const past = await renderedRequest(env(), owner.id, 30, 100);
      // 30 posts over the last 30 days: those at 18:xx Kyiv gained 5 000 views in 48 h, the others 100.
      for (const [index, video] of past.videos.entries()) {
        const kyivHour = index % 3 === 0 ? 18 : 11;
        const at = Date.parse(`2026-11-${String(index + 1).padStart(2, '0')}T${String(kyivHour - 2).padStart(2, '0')}:10:00Z`);
        const { rows } = await env().db.sql(
          `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, published_at)
           VALUES ($1, 'instagram', $2, 'done', $3, $3) RETURNING id`,
          [video.id, profile.id, new Date(at)],
        );
        await env().db.sql(`INSERT INTO stats_points (post_id, at, views, likes, comments) VALUES ($1, $2, $3, 0, 0), ($1, $4, $5, 0, 0)`, [
          rows[0].id,
          new Date(at + 47 * hour),
          kyivHour === 18 ? 5000 : 100,
          new Date(at + 72 * hour),
          999_999,
        ]);
      }
      const request = await renderedRequest(env(), owner.id, 2, 1000);
      const proposal = await spread(owner, request, [profile.id], '2026-12-02', '2026-12-03', soonest);
      // Only 18:00 gains more than the profile's mean; once it is taken that day, the day's first free slot.
      expect(proposal.data.map((item) => kyivWallTime(Date.parse(item.date)))).toEqual(['2026-12-02T18:00', '2026-12-02T09:00']);
      // Ukrainian groups digits with a no-break space.
      const bestHour =
        '18:00 — найкраща година профілю: відео, що виходять о цій порі, набирають за перші 48 год у середньому 5 000 переглядів, а всі разом — 1 733 (враховано: 30 публікацій)';
      expect(proposal.data.map((item) => item.reason.replace(/\s/g, ' '))).toEqual([bestHour, t.spread.firstFreeBestTaken]);

      // Spread evenly, each day takes one, at the best hour.
      const even = await spread(owner, request, [profile.id], '2026-12-02', '2026-12-03');
      expect(even.data.map((item) => kyivWallTime(Date.parse(item.date)))).toEqual(['2026-12-02T18:00', '2026-12-03T18:00']);
      expect(even.data.map((item) => item.reason.replace(/\s/g, ' '))).toEqual([bestHour, bestHour]);
      expect(even.days).toEqual([
        { day: '2026-12-02', accountId: profile.id, posts: 1 },
        { day: '2026-12-03', accountId: profile.id, posts: 1 },
      ]);
    });

    it('refuses a calendar move that breaks a cap or the hours with the reason, and takes one that keeps them', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await instagramProfile(owner, 'moves');
      const request = await renderedRequest(env(), owner.id, 3, 1000);
      const payload = publishPayload(request, [profile.id], { inYouTube: false, inInstagram: true });
      const dates = ['2026-12-02T10:00', '2026-12-02T14:00', '2026-12-03T10:00'];
      for (const [index, video] of payload.video.entries()) {
        video.account = option(profile.id);
        video.date = dates[index]!;
      }
      const published = await send(owner, 'POST', `/api/upload-video/${request.idUpload}`, payload);
      expect(published.statusCode, published.body).toBe(200);
      const move = (videoId: number, date: string) =>
        send(owner, 'PATCH', `/api/upload-video/${request.idUpload}/video/${videoId}`, { date });
      const third = request.videos[2]!.id;
      const title = `#${profile.id} moves-${env().kind}`;

      const overCap = await move(third, '2026-12-02T18:00');
      expect([overCap.statusCode, overCap.json().message]).toEqual([409, `Не перенесено: профіль ${title} — ліміт Instagram 2 на добу`]);
      const atNight = await move(third, '2026-12-04T03:00');
      expect(atNight.json().message).toBe(`Не перенесено: профіль ${title} — години публікацій профілю 09:00–22:00`);
      const tooClose = await move(third, '2026-12-03T15:00');
      expect(tooClose.statusCode).toBe(200);
      // Within the gap: a possible duplicate (issue 43.5), which the operator may overrule; a cap they may not.
      const nearFirst = await move(request.videos[0]!.id, '2026-12-03T14:00');
      expect([nearFirst.statusCode, nearFirst.json().message]).toEqual([
        409,
        [
          t.spread.duplicatesFound,
          `Відео #${request.videos[0]!.id}: профіль ${title} публікує відео #${third} о 03.12 15:00 — ближче, ніж його проміжок 120 хв`,
        ],
      ]);
      const overCapAnyway = await send(owner, 'PATCH', `/api/upload-video/${request.idUpload}/video/${third}`, {
        date: '2026-12-02T18:00',
        allowDuplicates: true,
      });
      expect(overCapAnyway.json().message).toBe(`Не перенесено: профіль ${title} — ліміт Instagram 2 на добу`);
      const { rows } = await env().db.sql(`SELECT video_id, scheduled_at FROM video_posts ORDER BY video_id`, []);
      expect(rows.map((row) => kyivWallTime(new Date(row.scheduled_at as string).getTime()))).toEqual([
        '2026-12-02T10:00',
        '2026-12-02T14:00',
        '2026-12-03T15:00',
      ]);
    });

    it('refuses bad ranges in Ukrainian (more than a year ahead too), and another owner’s request or profiles', async () => {
      const owner = await createUser(env(), 'owner');
      const stranger = await createUser(env(), 'stranger');
      const profile = await instagramProfile(owner, 'own');
      const foreign = await instagramProfile(stranger, 'foreign');
      const request = await renderedRequest(env(), owner.id, 2, 1000);
      const url = `/api/upload-video/${request.idUpload}/spread`;
      const refusal = async (user: TestUser, body: object) => {
        const response = await send(user, 'POST', url, body);
        return [response.statusCode, response.json().message];
      };
      const body = spreadBody(request, [profile.id], '2026-12-01', '2026-12-03');
      expect(await refusal(owner, { ...body, from: '2026-02-30' })).toEqual([400, [t.spread.fromInvalid]]);
      expect(await refusal(owner, { ...body, to: '2026-11-30' })).toEqual([400, [t.spread.toPast]]);
      expect(await refusal(owner, { ...body, from: '2026-12-05' })).toEqual([400, [t.spread.toBeforeFrom]]);
      expect(await refusal(owner, { ...body, to: '2027-01-10' })).toEqual([400, ['Щонайбільше 31 день за раз']]);
      // A year ahead at most, by the clock: the last day must end within it, as every publish must.
      expect(await refusal(owner, { ...body, from: '2027-11-20', to: '2027-12-01' })).toEqual([400, [t.spread.tooFarAhead]]);
      expect(await refusal(owner, { ...body, from: '9999-12-01', to: '9999-12-31' })).toEqual([400, [t.spread.tooFarAhead]]);
      expect((await send(owner, 'POST', url, { ...body, from: '2027-11-20', to: '2027-11-30' })).statusCode).toBe(200);
      expect(await refusal(owner, { ...body, accounts: [{ id: foreign.id }] })).toEqual([400, t.publish.unknownAccount]);
      expect(await refusal(owner, { ...body, inInstagram: false })).toEqual([400, t.postTruth.noPlatformTicked]);
      expect((await refusal(stranger, body))[0]).toBe(404);
    });
  },
  { clock, sandbox, queue: 'send' },
);
