import crypto from 'node:crypto';
import { beforeEach, expect, it, vi } from 'vitest';
import { dayjs } from '../../src/lib/dates';
import { t } from '../../server/messages';
import { findDuplicates, type DuplicateCandidate } from '../../server/services/planning/duplicates';
import { SandboxState } from '../../server/sandbox/index';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, withSandboxServer } from './helpers';
import { ManualClock } from './manual-clock';
import { option, publishPayload, renderedRequest } from './publishing-fixtures';

/** Issue 43.5: a video twice on a platform, or two posts of a profile within its gap, are refused until the operator allows them. */

// Tuesday 1 December 2026, 10:17 in Kyiv.
const start = Date.parse('2026-12-01T08:17:00Z');
const clock = new ManualClock(start);
const sandbox = new SandboxState({ now: () => clock.now() });
const kyiv = (wall: string) => dayjs.tz(wall, 'Europe/Kiev').valueOf();
const installationSlots = { from: '09:00', to: '22:00', minGapMinutes: 90, days: [1, 2, 3, 4, 5, 6, 7] };

describeEachDatabase(
  'Duplicates: warned before saving, saved only when allowed',
  (env) => {
    const network = withSandboxServer(env);
    beforeEach(() => clock.set(start));

    const send = (user: TestUser, method: 'POST' | 'PATCH', url: string, payload: object) =>
      env().app.inject({ method, url, headers: user.headers, payload });

    async function tiktokProfile(user: TestUser, name: string, minGapMinutes: number) {
      const account = await createAccount(env(), user, {
        proxy: network().proxy.url,
        comments: `${name}-${env().kind}`,
        isActiveTikTok: true,
        TikTiokAuthStr: `sandbox-tt-${name}-${crypto.randomUUID().slice(0, 8)}`,
      });
      const slots = { ...installationSlots, minGapMinutes };
      expect(
        (await env().app.inject({ method: 'PUT', url: `/api/accounts/${account.id}/slots`, headers: user.headers, payload: slots }))
          .statusCode,
      ).toBe(200);
      return account;
    }

    async function savedPost(videoId: number, accountId: number, platform: string, status: 'pending' | 'done' | 'error', at: number) {
      await env().db.sql(
        `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, published_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [videoId, platform, accountId, status, new Date(at), status === 'done' ? new Date(at) : null],
      );
    }

    it('finds repeats and posts within the gap, per candidate, in a fixed number of queries', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await tiktokProfile(owner, 'gap', 120);
      const other = await tiktokProfile(owner, 'other', 120);
      const saved = await renderedRequest(env(), owner.id, 4, 100);
      const [waiting, sent, failed, elsewhere] = saved.videos.map((video) => video.id) as [number, number, number, number];
      await savedPost(waiting, profile.id, 'tiktok', 'pending', kyiv('2026-12-02T10:00'));
      await savedPost(sent, profile.id, 'tiktok', 'done', kyiv('2026-12-02T18:00'));
      await savedPost(failed, profile.id, 'tiktok', 'error', kyiv('2026-12-02T14:00'));
      await savedPost(elsewhere, other.id, 'tiktok', 'pending', kyiv('2026-12-02T12:00'));
      const fresh = (await renderedRequest(env(), owner.id, 4, 100)).videos.map((video) => video.id) as [number, number, number, number];

      const candidates: DuplicateCandidate[] = [
        // The waiting video again on TikTok, on another profile, far from anything: a repeat all the same.
        { videoId: waiting, accountId: other.id, platform: 'tiktok', at: kyiv('2026-12-05T10:00') },
        // The same video on YouTube: no repeat.
        { videoId: waiting, accountId: profile.id, platform: 'youtube', at: kyiv('2026-12-04T10:00') },
        // 90 minutes after the waiting post, within its 120.
        { videoId: fresh[0], accountId: profile.id, platform: 'tiktok', at: kyiv('2026-12-02T11:30') },
        // Exactly the gap after the one above, and a failed post 60 minutes away: nothing.
        { videoId: fresh[1], accountId: profile.id, platform: 'tiktok', at: kyiv('2026-12-02T13:30') },
        // 30 minutes before the post that went out; the other profile's post is not this one's.
        { videoId: fresh[2], accountId: profile.id, platform: 'tiktok', at: kyiv('2026-12-02T17:30') },
        // Twice in one batch, 20 minutes from the fresh[1] candidate.
        { videoId: fresh[3], accountId: profile.id, platform: 'tiktok', at: kyiv('2026-12-02T13:50') },
        { videoId: fresh[3], accountId: profile.id, platform: 'tiktok', at: kyiv('2026-12-02T13:50') },
      ];
      const query = vi.spyOn(env().db, 'sql');
      const orm = vi.spyOn(env().db.orm, 'select');
      const found = await findDuplicates(env().db, candidates, { installationSlots });
      const queries = query.mock.calls.length + orm.mock.calls.length;
      // The profiles' slots, the videos' posts, the profiles' posts around the times.
      expect(queries).toBe(3);
      const summary = found.map((each) => each.map((duplicate) => [duplicate.kind, duplicate.with.videoId, duplicate.with.candidate]));
      expect(summary).toEqual([
        [['repeat', waiting, null]],
        [],
        [['gap', waiting, null]],
        [['gap', fresh[3], 5]],
        [['gap', sent, null]],
        [['gap', fresh[1], 3]],
        [
          ['repeat', fresh[3], 5],
          ['gap', fresh[1], 3],
        ],
      ]);
      expect(found[2]![0]).toMatchObject({
        kind: 'gap',
        minutes: 120,
        with: { accountId: profile.id, platform: 'tiktok', at: kyiv('2026-12-02T10:00') },
      });

      // A hundred times the candidates: the same queries.
      query.mockClear();
      orm.mockClear();
      const many = Array.from({ length: 100 }, () => candidates).flat();
      expect(await findDuplicates(env().db, many, { installationSlots })).toHaveLength(700);
      expect(query.mock.calls.length + orm.mock.calls.length).toBe(queries);
      query.mockRestore();
      orm.mockRestore();

      // A moved video's own post is not in its way.
      const moved = await findDuplicates(
        env().db,
        [{ videoId: waiting, accountId: profile.id, platform: 'tiktok', at: kyiv('2026-12-02T10:30') }],
        {
          installationSlots,
          skipVideos: [waiting],
        },
      );
      expect(moved).toEqual([[]]);
    });

    it('refuses a publish that asks (checkDuplicates) whose dated videos fall within a profile’s gap, naming them; saves it sent as SPEC sends it; leaves a publish at once alone', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await tiktokProfile(owner, 'publish', 120);
      const request = await renderedRequest(env(), owner.id, 3, 100);
      const payload = publishPayload(request, [profile.id], { inYouTube: false, inTikTok: true });
      const dates = ['2026-12-02T10:00', '2026-12-02T11:00', '2026-12-02T15:00'];
      for (const [index, video] of payload.video.entries()) {
        video.account = option(profile.id);
        video.date = dates[index]!;
      }
      const url = `/api/upload-video/${request.idUpload}`;
      const refused = await send(owner, 'POST', url, { ...payload, checkDuplicates: true });
      expect([refused.statusCode, refused.json().message]).toEqual([
        409,
        [
          t.spread.duplicatesFound,
          `Відео 1: профіль #${profile.id} publish-${env().kind} публікує відео 2 о 02.12 11:00 — ближче, ніж його проміжок 120 хв`,
        ],
      ]);
      const { rows } = await env().db.sql(`SELECT count(*)::int AS posts FROM video_posts`, []);
      expect(rows[0].posts).toBe(0);

      const allowed = await send(owner, 'POST', url, payload);
      expect(allowed.statusCode, allowed.body).toBe(200);
      const saved = await env().db.sql(`SELECT count(*)::int AS posts FROM video_posts`, []);
      expect(saved.rows[0].posts).toBe(3);

      // A publish at once: three variants to one profile together are no duplicates, even when asked.
      const atOnce = await renderedRequest(env(), owner.id, 3, 100);
      const spec = await send(owner, 'POST', `/api/upload-video/${atOnce.idUpload}`, {
        ...publishPayload(atOnce, [profile.id], { inYouTube: false, inTikTok: true }),
        checkDuplicates: true,
      });
      expect(spec.statusCode, spec.body).toBe(200);
    });

    it('refuses a calendar move within the gap as a possible duplicate, and takes it when allowed', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await tiktokProfile(owner, 'move', 120);
      const request = await renderedRequest(env(), owner.id, 2, 100);
      const payload = publishPayload(request, [profile.id], { inYouTube: false, inTikTok: true });
      payload.video[0]!.date = '2026-12-02T10:00';
      payload.video[1]!.date = '2026-12-03T10:00';
      expect((await send(owner, 'POST', `/api/upload-video/${request.idUpload}`, payload)).statusCode).toBe(200);
      const [first, second] = request.videos.map((video) => video.id) as [number, number];
      const url = `/api/upload-video/${request.idUpload}/video/${second}`;

      const refused = await send(owner, 'PATCH', url, { date: '2026-12-02T11:00', platform: 'tiktok' });
      expect([refused.statusCode, refused.json().message]).toEqual([
        409,
        [
          t.spread.duplicatesFound,
          `Відео #${second}: профіль #${profile.id} move-${env().kind} публікує відео #${first} о 02.12 10:00 — ближче, ніж його проміжок 120 хв`,
        ],
      ]);
      const allowed = await send(owner, 'PATCH', url, { date: '2026-12-02T11:00', platform: 'tiktok', allowDuplicates: true });
      expect(allowed.statusCode, allowed.body).toBe(200);
      const { rows } = await env().db.sql(`SELECT scheduled_at FROM video_posts WHERE video_id = $1`, [second]);
      expect(new Date(rows[0].scheduled_at as string).getTime()).toBe(kyiv('2026-12-02T11:00'));
    });
  },
  { clock, sandbox, queue: 'send' },
);
