import net from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { UploadDetail } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { platformNetwork } from '../../server/net/http';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, type TestEnv, withSandboxServer } from './helpers';
import { publishPayload, renderedRequest } from './publishing-fixtures';

/** Short limits so a silent proxy costs this test seconds, not the production minutes. */
const timeouts = { connectMs: 4000, headersMs: 4000, idleMs: 4000, totalMs: 6000 };
const sandbox = new SandboxState();

describeEachDatabase(
  'A silent proxy slows only its own profile',
  (env) => {
    const network = withSandboxServer(env);
    let silent: net.Server;
    let silentUrl: string;
    const held: net.Socket[] = [];

    beforeAll(async () => {
      // Accepts every connection and never says a word, like a proxy whose upstream hangs.
      silent = net.createServer((socket) => held.push(socket.on('error', () => undefined)));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      silentUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    });
    afterAll(async () => {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent?.close(resolve));
    });

    /**
     * A TikTok profile behind `proxyUrl`. It is saved through the working proxy and then pointed at
     * `proxyUrl`: the save asks TikTok whom the token reaches, which through the silent proxy would
     * wait out the connect limit before this test's publishing even began.
     */
    async function tiktokProfile(test: TestEnv, user: TestUser, label: string, proxyUrl: string) {
      const profile = await createAccount(test, user, {
        proxy: network().proxy.url,
        comments: label,
        isActiveTikTok: true,
        TikTiokAuthStr: issueSandboxToken('tiktok', `${label}-${test.kind}@tiktok`),
      });
      await test.db.sql(`UPDATE accounts SET proxy = $2 WHERE id = $1`, [profile.id, proxyUrl]);
      return profile;
    }

    async function detail(user: TestUser, idUpload: string): Promise<UploadDetail> {
      const response = await env().app.inject({ method: 'GET', url: `/api/upload-video/${idUpload}`, headers: user.headers });
      return response.json<UploadDetail>();
    }

    it("B's posts finish while A's proxy hangs; A's post ends as a timeout in Ukrainian and is retried later", async () => {
      const test = env();
      const userA = await createUser(test, 'operator-a');
      const userB = await createUser(test, 'operator-b');
      const profileA = await tiktokProfile(test, userA, 'silent', silentUrl);
      const profileB = await tiktokProfile(test, userB, 'working', network().proxy.url);
      const requestA = await renderedRequest(test, userA.id, 1);
      const requestB = await renderedRequest(test, userB.id, 3);
      const flags = { inYouTube: false, inTikTok: true, inInstagram: false };
      sandbox.requests.splice(0);

      for (const [user, request, profile] of [
        [userA, requestA, profileA],
        [userB, requestB, profileB],
      ] as const) {
        const response = await test.app.inject({
          method: 'POST',
          url: `/api/upload-video/${request.idUpload}`,
          headers: user.headers,
          payload: publishPayload(request, [profile.id], flags),
        });
        expect(response.statusCode, response.body).toBe(200);
      }
      // The publish route itself asks creator_info through each profile's proxy, with the same short
      // limits (A's answers nothing, so A's publish is accepted after its connect timeout); the job's own limit counts from here.
      const queued = Date.now();

      // B's three posts (one profile: one upload at a time) are done while A's call still hangs.
      await vi.waitFor(
        async () =>
          expect((await detail(userB, requestB.idUpload)).video.map((video) => video.status)).toEqual(['success', 'success', 'success']),
        { timeout: timeouts.connectMs, interval: 50 },
      );
      const { rows: hanging } = await test.db.sql(`SELECT failure FROM video_posts WHERE video_id = $1`, [requestA.videos[0]!.id]);
      expect(hanging).toEqual([{ failure: null }]);
      // One upload at a time per profile and platform: each post's upload ends before the next one starts.
      const steps = sandbox.requests
        .map((request) => (request.url.includes('/video/init/') ? 'init' : request.method === 'PUT' ? 'upload' : null))
        .filter(Boolean);
      expect(steps).toEqual(['init', 'upload', 'init', 'upload', 'init', 'upload']);

      // A's post: a timeout, kept on the post as its kind, within the configured limit.
      const [videoA] = requestA.videos;
      let postA: { id: number; failure: string | null; status: string } | undefined;
      await vi.waitFor(
        async () => {
          const { rows } = await test.db.sql(`SELECT id, failure, status FROM video_posts WHERE video_id = $1`, [videoA!.id]);
          postA = rows[0];
          expect(postA?.failure).toBe('timed_out');
        },
        { timeout: timeouts.totalMs + 2000, interval: 50 },
      );
      expect(Date.now() - queued).toBeLessThan(timeouts.totalMs + 2000);
      expect(postA!.failure).toBe('timed_out');
      expect(postA!.status).toBe('pending');
      expect((await detail(userA, requestA.idUpload)).video[0]!.waitReason).toBe(t.postTruth.waitRetry(`TikTok: ${t.platform.timedOut}`));

      // pg-boss holds the job for a retry after its backoff, not stuck in a run.
      await vi.waitFor(async () => {
        const { rows } = await test.db.sql(
          `SELECT state, start_after > now() + interval '20 seconds' AS later FROM pgboss.job WHERE name = 'publish-video' AND data->>'postId' = $1`,
          [String(postA!.id)],
        );
        expect(rows).toEqual([{ state: 'retry', later: true }]);
      });

      // Once the profile's proxy works, the retry publishes it.
      await test.db.sql(`UPDATE accounts SET proxy = $2 WHERE id = $1`, [profileA.id, network().proxy.url]);
      await test.db.sql(`UPDATE pgboss.job SET start_after = now() WHERE name = 'publish-video' AND data->>'postId' = $1`, [
        String(postA!.id),
      ]);
      await vi.waitFor(async () => expect((await detail(userA, requestA.idUpload)).video[0]!.status).toBe('success'), {
        timeout: 10_000,
        interval: 100,
      });
    });
  },
  { queue: 'work', sandbox, network: platformNetwork({ timeouts, policy: { mode: 'sandbox', allowPrivate: false } }) },
);
