import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { AccountDetail } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { systemClock } from '../../server/clock';
import { stopPollMs } from '../../server/jobs/publish-stops';
import { publishPost } from '../../server/jobs/publish';
import type { PublishJobData } from '../../server/services/publishing/post-lifecycle';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, withSandboxServer, testJobContext, type TestEnv } from './helpers';
import { startHoldingRelay, type HoldingRelay } from './holding-relay';
import { ManualClock } from './manual-clock';
import { publishPayload, renderedRequest, type RenderedRequest } from './publishing-fixtures';

/**
 * A delete that races an upload completing on the platform ends in one of two ways only: refused
 * with 409 and the post on record as the platform has it, or done with the platform's copy deleted
 * again (docs/deleting.md). The relay holds each upload short of its last bytes until the test lets
 * them through; the delete's wait and the workers' look for stop requests go by a clock the test
 * moves, so which comes first is the test's choice, not the machine's.
 */

const videoBytes = 300_000;
/** Half of each connection's bytes pass: an upload reaches the platform short of its end, nothing else is held. */
const passBytes = videoBytes / 2;
const sandbox = new SandboxState();

type RacePlatform = 'youtube' | 'tiktok';

/** What each suite needs around a held upload: its profiles, its publish and its delete. */
function raceSetup(env: () => TestEnv) {
  const network = withSandboxServer(env);
  let relay: HoldingRelay;
  let owner: TestUser;
  let videosBefore: number;

  beforeEach(async () => {
    relay = await startHoldingRelay(network().proxy.port, passBytes);
    // The connectors' own pauses (TikTok's status checks) pass on their own, a few milliseconds each.
    env().platforms.clock = systemClock;
    sandbox.requests.splice(0);
    videosBefore = sandbox.videos.length;
    owner = await createUser(env(), 'owner');
  });
  afterEach(async () => {
    await relay.close();
  });

  /** A profile behind the holding relay on one platform: YouTube connected through its consent link, TikTok by its string. */
  async function profile(platform: RacePlatform): Promise<AccountDetail> {
    const label = `${platform}-${env().kind}-${crypto.randomUUID().slice(0, 8)}`;
    if (platform === 'tiktok') {
      return createAccount(env(), owner, {
        proxy: relay.url,
        comments: label,
        isActiveTikTok: true,
        TikTiokAuthStr: issueSandboxToken('tiktok', `${label}@tiktok`),
      });
    }
    const account = await createAccount(env(), owner, {
      proxy: relay.url,
      comments: label,
      isActiveYouTube: true,
      YouTubeAuthClientId: `${label}.apps.googleusercontent.com`,
      YouTubeAuthClientSecret: 'client-secret',
    });
    const link = await fetch(`${network().baseUrl}/api/accounts/connect-youtube/${account.id}`, { method: 'POST', headers: owner.headers });
    await answerSandboxConsent(link);
    return account;
  }

  /** Publishes the request's one video on `platform`, at once. */
  async function publish(request: RenderedRequest, account: AccountDetail, platform: RacePlatform) {
    const response = await env().app.inject({
      method: 'POST',
      url: `/api/upload-video/${request.idUpload}`,
      headers: owner.headers,
      payload: publishPayload(request, [account.id], {
        inYouTube: platform === 'youtube',
        inTikTok: platform === 'tiktok',
        inInstagram: false,
      }),
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  /** Waits until the upload under way reached the platform short of its last bytes, the rest held. */
  async function uploadHeld() {
    await vi.waitFor(() => expect(relay.held().some((bytes) => bytes > 0)).toBe(true), { timeout: 20_000, interval: 20 });
  }

  const deleteRequest = (request: RenderedRequest) =>
    env().app.inject({ method: 'DELETE', url: `/api/create-video/${request.id}`, headers: owner.headers });

  /** The platform's videos that came since the test began, as it holds them now. */
  const newVideos = () => sandbox.videos.slice(videosBefore);

  /** The `videos.delete` calls YouTube answered since the test began, by video id. */
  const youtubeDeletes = () =>
    sandbox.requests
      .filter((entry) => entry.method === 'DELETE' && entry.url.includes('/youtube/v3/videos?'))
      .map((entry) => new URL(entry.url, 'http://sandbox').searchParams.get('id'));

  /**
   * The only two ends a delete that raced an upload may have: 204 with none of the upload left on
   * the platform, or 409 with the request kept and each video the platform holds on record as
   * published there, at its address. Never a video online that no post records.
   */
  async function expectRecordedOrDeleted(answer: LightMyRequestResponse, request: RenderedRequest) {
    const { rows: posts } = await env().db.sql(
      `SELECT p.platform, p.status, p.url FROM video_posts p JOIN videos v ON v.id = p.video_id WHERE v.request_id = $1`,
      [request.id],
    );
    if (answer.statusCode === 204) {
      expect(posts).toEqual([]);
      expect(newVideos()).toEqual([]);
      return;
    }
    expect(answer.statusCode, answer.body).toBe(409);
    for (const video of newVideos()) {
      expect(posts).toContainEqual({ platform: video.platform, status: 'done', url: video.url });
    }
  }

  return {
    relay: () => relay,
    owner: () => owner,
    profile,
    publish,
    uploadHeld,
    deleteRequest,
    newVideos,
    youtubeDeletes,
    expectRecordedOrDeleted,
  };
}

const workerClock = new ManualClock();

describeEachDatabase(
  'A delete racing an upload that completes while the delete waits for it',
  (env) => {
    const race = raceSetup(env);

    /** The publish jobs a worker is running now. */
    async function runningUploads(): Promise<number> {
      const { rows } = await env().db.sql(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'publish-video' AND state = 'active'`);
      return rows[0].n;
    }

    /** Sends the delete and waits until it has written its stop request and waits for the upload to answer. */
    async function deleteWaiting(request: RenderedRequest): Promise<{ deleting: Promise<LightMyRequestResponse> }> {
      const deleting = race.deleteRequest(request);
      await vi.waitFor(
        async () => {
          const { rows } = await env().db.sql(`SELECT count(*)::int AS n FROM publish_stops`);
          expect(rows[0].n).toBe(1);
        },
        { timeout: 10_000, interval: 20 },
      );
      // No worker was told to abort it: the clock of their look for stop requests has not moved.
      expect(await runningUploads()).toBe(1);
      return { deleting };
    }

    /**
     * Once the upload's job has answered or ended, by itself, the clock moves so the delete looks
     * again and decides. Before that it does not move: no worker aborts the upload.
     */
    async function decided(deleting: Promise<LightMyRequestResponse>) {
      await vi.waitFor(async () => expect(await runningUploads()).toBe(0), { timeout: 20_000, interval: 20 });
      return workerClock.flowing(() => deleting, stopPollMs);
    }

    it('YouTube finishes the upload just before the delete commits: the job deletes the video again and the delete answers 204', async () => {
      const account = await race.profile('youtube');
      const request = await renderedRequest(env(), race.owner().id, 1, videoBytes);
      await race.publish(request, account, 'youtube');
      await race.uploadHeld();
      const { deleting } = await deleteWaiting(request);

      race.relay().release();
      const deleted = await decided(deleting);

      await race.expectRecordedOrDeleted(deleted, request);
      expect(deleted.statusCode, deleted.body).toBe(204);
      // The upload did complete (YouTube answered with its video's id), and that video was deleted again.
      expect(race.youtubeDeletes()).toHaveLength(1);
      expect(sandbox.findVideo('youtube', race.youtubeDeletes()[0]!)).toBeUndefined();
      const { rows } = await env().db.sql(`SELECT count(*)::int AS n FROM creation_requests WHERE id = $1`, [request.id]);
      expect(rows[0].n).toBe(0);
    });

    it('TikTok posts just before the delete commits: TikTok has no delete, so the post is kept on record and the delete answers 409', async () => {
      const account = await race.profile('tiktok');
      const request = await renderedRequest(env(), race.owner().id, 1, videoBytes);
      await race.publish(request, account, 'tiktok');
      await race.uploadHeld();
      const { deleting } = await deleteWaiting(request);

      race.relay().release();
      const deleted = await decided(deleting);

      await race.expectRecordedOrDeleted(deleted, request);
      expect(deleted.statusCode, deleted.body).toBe(409);
      // The publish form's title, 'Ранкова пробіжка', names the video.
      expect(deleted.json().message).toBe(
        t.finalDelete.inFlight([t.finalDelete.item('Ранкова пробіжка', 1, 'TikTok', t.accounts.optionTitle(account.id, account.comments))]),
      );
      // The request stays, its post marked published at the address TikTok gave, as the set's page shows it.
      const [posted] = race.newVideos();
      expect(posted?.platform).toBe('tiktok');
      const { rows } = await env().db.sql(
        `SELECT p.status, p.url, p.remote_id, v.url_tiktok FROM video_posts p JOIN videos v ON v.id = p.video_id WHERE v.request_id = $1`,
        [request.id],
      );
      expect(rows).toEqual([{ status: 'done', url: posted!.url, remote_id: posted!.id, url_tiktok: posted!.url }]);
    });
  },
  { queue: 'work', sandbox, clock: workerClock },
);

describeEachDatabase(
  'A delete racing an upload that completes after the delete went through',
  (env) => {
    const race = raceSetup(env);

    /**
     * A run the queue no longer counts as running (its worker taken for dead and its job handed
     * on) is one a delete cannot wait for. The test runs the publish handler itself, outside the
     * queue, so the delete finds no running job and commits while the upload's last bytes are held.
     */
    async function runOutsideQueue(): Promise<void> {
      const { rows } = await env().db.sql(`SELECT data FROM pgboss.job WHERE name = 'publish-video'`);
      expect(rows).toHaveLength(1);
      await publishPost(rows[0].data as PublishJobData, testJobContext(env()));
    }

    it('YouTube finishes the upload just after the delete committed: the job finds its post gone and deletes the video again', async () => {
      const account = await race.profile('youtube');
      const request = await renderedRequest(env(), race.owner().id, 1, videoBytes);
      await race.publish(request, account, 'youtube');
      const publishing = runOutsideQueue();
      await race.uploadHeld();

      const deleted = await race.deleteRequest(request);
      expect(deleted.statusCode, deleted.body).toBe(204);
      race.relay().release();
      await publishing;

      await race.expectRecordedOrDeleted(deleted, request);
      expect(race.youtubeDeletes()).toHaveLength(1);
      expect(sandbox.findVideo('youtube', race.youtubeDeletes()[0]!)).toBeUndefined();
    });
  },
  { queue: 'send', sandbox, clock: new ManualClock() },
);
