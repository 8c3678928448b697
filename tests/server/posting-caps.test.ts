import crypto from 'node:crypto';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PostingBudgets, UploadDetail } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { waitText, type CapDetail, type PostWait } from '../../src/lib/post-waits';
import { postingCapSettings } from '../../server/config';
import { accounts } from '../../server/db/schema';
import { publishJobName } from '../../server/services/publishing/post-lifecycle';
import { publishPost } from '../../server/jobs/publish';
import { forgetInstagramLimits } from '../../server/platforms/instagram/caps';
import { pacificDay } from '../../server/platforms/youtube/caps';
import { capOf, freeAt, holdFor, windowStart } from '../../server/services/planning/posting-caps';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import { eq } from 'drizzle-orm';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, storedPosts, testJobContext, withSandboxServer } from './helpers';
import { kyivDay, publishPayload, renderedRequest, type RenderedRequest } from './publishing-fixtures';

const hour = 3_600_000;
const day = 24 * hour;
const clock = { now: Date.now() };
// The sandbox answers Instagram's cap as 2 posts a day and TikTok's as 1, below this product's TikTok setting.
const sandbox = new SandboxState({ now: () => clock.now, limits: { instagramDailyPosts: 2, tiktokDailyPosts: 1 } });

describeEachDatabase(
  'Posting caps: posts past a cap are held, never failed',
  (env) => {
    const network = withSandboxServer(env);
    beforeEach(() => {
      forgetInstagramLimits();
    });

    const context = testJobContext;

    function profile(user: TestUser, name: string, fields: object) {
      return createAccount(env(), user, { proxy: network().proxy.url, comments: `${name}-${env().kind}`, ...fields });
    }
    const instagramFields = (name: string) => ({
      isActiveInstagram: true,
      InstagramLogin: `${name}-${env().kind}-${crypto.randomUUID().slice(0, 8)}.insta`,
      InstagramPassword: 'instagram-password',
    });

    async function publish(user: TestUser, request: RenderedRequest, accountId: number, flags: object) {
      const response = await env().app.inject({
        method: 'POST',
        url: `/api/upload-video/${request.idUpload}`,
        headers: user.headers,
        payload: publishPayload(request, [accountId], { inYouTube: false, inTikTok: false, inInstagram: false, ...flags }),
      });
      expect(response.statusCode, response.body).toBe(200);
    }

    async function posts(request: RenderedRequest) {
      const rows = await storedPosts(
        env(),
        { requestId: request.id },
        'p.id, p.status, p.job_token, p.failure, p.wait_kind, p.wait_detail, p.next_attempt_at, p.published_at, v.status AS video_status',
      );
      return rows as {
        id: number;
        status: string;
        job_token: string;
        failure: string | null;
        wait_kind: string | null;
        wait_detail: PostWait['detail'] | null;
        next_attempt_at: string | null;
        published_at: string | null;
        video_status: string;
      }[];
    }

    async function jobStart(postId: number, token: string) {
      const { rows } = await env().db.sql(
        `SELECT start_after FROM pgboss.job WHERE name = $1 AND (data->>'postId')::int = $2 AND data->>'token' = $3`,
        [publishJobName, postId, token],
      );
      return rows.map((row) => new Date(row.start_after as string).toISOString());
    }

    it('holds the third Instagram post of a 2-a-day account with the reason and the time the window frees, then releases it', async () => {
      const owner = await createUser(env(), 'owner');
      const account = await profile(owner, 'ig', instagramFields('capped'));
      const request = await renderedRequest(env(), owner.id, 3);
      await publish(owner, request, account.id, { inInstagram: true });

      for (const post of await posts(request)) await publishPost({ postId: post.id, token: post.job_token }, context(env()));
      const [first, second, third] = await posts(request);
      expect([first!.status, second!.status]).toEqual(['done', 'done']);
      expect(third).toMatchObject({
        status: 'pending',
        failure: null,
        wait_kind: 'cap',
        wait_detail: { limit: 2, windowHours: 24 },
        video_status: 'publication',
      });
      expect(waitText('instagram', { kind: 'cap', detail: third!.wait_detail as CapDetail })).toBe(
        'Ліміт Instagram: 2 публікації за 24 год вичерпано',
      );
      const frees = new Date(new Date(first!.published_at!).getTime() + day);
      expect(Math.abs(new Date(third!.next_attempt_at!).getTime() - frees.getTime())).toBeLessThan(1000);
      expect(await jobStart(third!.id, third!.job_token)).toEqual([new Date(third!.next_attempt_at!).toISOString()]);

      // A day later (on the product's count and the platform's) the window has room again.
      await env().db.sql(`UPDATE video_posts SET published_at = published_at - interval '24 hours' WHERE id = ANY($1::int[])`, [
        [first!.id, second!.id],
      ]);
      clock.now += day;
      await publishPost({ postId: third!.id, token: third!.job_token }, context(env()));
      expect((await posts(request))[2]).toMatchObject({
        status: 'done',
        wait_kind: null,
        wait_detail: null,
        next_attempt_at: null,
        video_status: 'success',
      });
    });

    it('holds a TikTok post when the platform answers its cap first, and keeps holding it rather than failing', async () => {
      const owner = await createUser(env(), 'owner');
      const account = await profile(owner, 'tt', {
        isActiveTikTok: true,
        TikTiokAuthStr: issueSandboxToken('tiktok', `capped-${env().kind}-${crypto.randomUUID().slice(0, 8)}@tiktok`),
      });
      const request = await renderedRequest(env(), owner.id, 2);
      await publish(owner, request, account.id, { inTikTok: true });

      for (const post of await posts(request)) await publishPost({ postId: post.id, token: post.job_token }, context(env()));
      let [first, second] = await posts(request);
      expect(first!.status).toBe('done');
      const held = { status: 'pending', failure: null, wait_kind: 'cap', wait_detail: { refused: true }, video_status: 'publication' };
      expect(second).toMatchObject(held);
      const frees = new Date(first!.published_at!).getTime() + day;
      expect(Math.abs(new Date(second!.next_attempt_at!).getTime() - frees)).toBeLessThan(1000);

      // Woken again before the platform's window frees: held again, still no 'Помилка'.
      await publishPost({ postId: second!.id, token: second!.job_token }, context(env()));
      [first, second] = await posts(request);
      expect(second).toMatchObject(held);
      const set = await env().app.inject({ url: `/api/upload-video/${request.idUpload}`, headers: owner.headers });
      expect(set.json<UploadDetail>().video[1]).toMatchObject({ status: 'publication', errorTiktok: null });
    });

    it('answers each profile’s budget per platform for a Kyiv day: limit, used, planned, remaining', async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const account = await profile(owner, 'both', {
        ...instagramFields('budget'),
        isActiveTikTok: true,
        TikTiokAuthStr: issueSandboxToken('tiktok', `budget-${env().kind}-${crypto.randomUUID().slice(0, 8)}@tiktok`),
      });
      const foreign = await profile(other, 'foreign', {
        isActiveTikTok: true,
        TikTiokAuthStr: issueSandboxToken('tiktok', 'foreign@tiktok'),
      });
      const request = await renderedRequest(env(), owner.id, 3);
      const planned = kyivDay(30, '10:00');
      const day = planned.wall.slice(0, 10);
      await publish(owner, request, account.id, { inInstagram: true, inTikTok: true, date: planned.wall });
      // One of them already went out earlier that day.
      await env().db.sql(
        `UPDATE video_posts SET status = 'done', published_at = $2 WHERE id = (SELECT min(id) FROM video_posts WHERE platform = 'instagram' AND account_id = $1)`,
        [account.id, kyivDay(30, '09:00').iso],
      );

      const budget = (query: string) => env().app.inject({ method: 'GET', url: `/api/accounts/budget?${query}`, headers: owner.headers });
      const answer = await budget(`accountIds=${account.id},${foreign.id}&date=${day}`);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json<PostingBudgets>()).toEqual({
        date: day,
        budgets: [
          { accountId: account.id, platform: 'tiktok', limit: 15, used: 0, planned: 3, remaining: 12 },
          { accountId: account.id, platform: 'instagram', limit: 2, used: 1, planned: 2, remaining: 0 },
        ],
      });
      const dayAfter = (await budget(`accountIds=${account.id}&date=${kyivDay(31, '10:00').wall.slice(0, 10)}`)).json<PostingBudgets>();
      expect(dayAfter.budgets.map(({ planned, used, remaining }) => ({ planned, used, remaining }))).toEqual([
        { planned: 0, used: 0, remaining: 15 },
        { planned: 0, used: 0, remaining: 2 },
      ]);

      const badDate = await budget(`accountIds=${account.id}&date=01.06.2035`);
      expect(badDate.statusCode).toBe(400);
      expect(badDate.json().message).toBe(t.postingCaps.badDate);
      const badIds = await budget(`accountIds=1,x&date=2035-06-01`);
      expect(badIds.statusCode).toBe(400);
      expect(badIds.json().message).toBe(t.postingCaps.badAccounts);
    });

    it('counts YouTube uploads per Google project per Pacific day, freeing at Pacific midnight', async () => {
      const caps = { ...postingCapSettings(), youtubeDailyUploads: 1 };
      const owner = await createUser(env(), 'owner');
      const project = { isActiveYouTube: true, YouTubeAuthClientId: 'shared.apps.googleusercontent.com', YouTubeAuthClientSecret: 's' };
      const first = await profile(owner, 'yt1', project);
      const second = await profile(owner, 'yt2', project);
      const elsewhere = await profile(owner, 'yt3', { ...project, YouTubeAuthClientId: 'other.apps.googleusercontent.com' });
      const request = await renderedRequest(env(), owner.id, 1);
      await publish(owner, request, first.id, { inYouTube: true, date: kyivDay(30, '10:00').wall });
      // 23:59 Pacific (PST) on 14 January is 07:59 UTC on the 15th.
      await env().db.sql(`UPDATE video_posts SET status = 'done', published_at = '2035-01-15T07:59:00Z' WHERE account_id = $1`, [first.id]);

      const capFor = async (id: number) => {
        const [row] = await env().db.orm.select().from(accounts).where(eq(accounts.id, id));
        return capOf('youtube', row!, null, caps)!;
      };
      const justBefore = new Date('2035-01-15T07:59:30Z');
      const held = await holdFor(env().db, 'youtube', await capFor(second.id), justBefore);
      expect(held).toEqual({ detail: { limit: 1, windowHours: null }, until: new Date('2035-01-15T08:00:00Z') });
      expect(waitText('youtube', { kind: 'cap', detail: held!.detail })).toBe(t.postingCaps.youtubeHeld(1));
      expect(await holdFor(env().db, 'youtube', await capFor(elsewhere.id), justBefore)).toBeNull();
      expect(await holdFor(env().db, 'youtube', await capFor(second.id), new Date('2035-01-15T08:00:00Z'))).toBeNull();
      // At 07:00 UTC on the 15th it is still the 14th in California: the post counts.
      expect(await holdFor(env().db, 'youtube', await capFor(first.id), new Date('2035-01-15T07:59:00Z'))).not.toBeNull();
    });
  },
  { queue: 'send', sandbox },
);

describe('Pacific days', () => {
  it('start and end at Pacific midnight, across a change to summer time', () => {
    expect(pacificDay(new Date('2035-01-15T07:59:00Z'))).toEqual({
      start: new Date('2035-01-14T08:00:00Z'),
      end: new Date('2035-01-15T08:00:00Z'),
    });
    // Summer time starts on 11 March 2035 at 02:00: that day is 23 hours long.
    expect(pacificDay(new Date('2035-03-11T20:00:00Z'))).toEqual({
      start: new Date('2035-03-11T08:00:00Z'),
      end: new Date('2035-03-12T07:00:00Z'),
    });
  });
});

describe('The budget arithmetic', () => {
  /** Runs a plan through freeAt as the publish job does: a post fits now, or waits for the time given and is tried again. */
  function run(limit: number, windowMs: number | null, plan: number[]) {
    const cap = { limit, windowMs };
    const queue = plan.map((at, id) => ({ at, id }));
    const published: number[] = [];
    for (let steps = 0; queue.length > 0; steps++) {
      if (steps > 100 * plan.length) throw new Error('the plan never drained');
      queue.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = queue.shift()!;
      const now = new Date(next.at);
      const inWindow = published.filter((at) => at >= windowStart(cap, now).getTime()).map((at) => new Date(at));
      const until = freeAt(cap, inWindow, now);
      if (until === null) published.push(next.at);
      else {
        expect(until.getTime()).toBeGreaterThan(next.at);
        queue.push({ at: until.getTime(), id: next.id });
      }
    }
    return published;
  }

  const start = Date.parse('2035-03-09T00:00:00Z');
  const plan = fc.array(fc.integer({ min: 0, max: 5 * day }), { minLength: 1, maxLength: 40 });

  it('never lets more than the limit out within any moving window, and holds nothing for ever', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: day }), plan, (limit, windowMs, offsets) => {
        const published = run(
          limit,
          windowMs,
          offsets.map((offset) => start + offset),
        );
        expect(published).toHaveLength(offsets.length);
        for (const at of published)
          expect(published.filter((other) => other > at - windowMs && other <= at).length).toBeLessThanOrEqual(limit);
      }),
    );
  });

  it('never lets more than the limit out on one Pacific day, summer time changes included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), plan, (limit, offsets) => {
        const published = run(
          limit,
          null,
          offsets.map((offset) => start + offset),
        );
        expect(published).toHaveLength(offsets.length);
        const perDay = new Map<number, number>();
        for (const at of published) {
          const key = pacificDay(new Date(at)).start.getTime();
          perDay.set(key, (perDay.get(key) ?? 0) + 1);
        }
        expect(Math.max(...perDay.values())).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 60 },
    );
  });
});
