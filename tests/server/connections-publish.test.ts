import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { UploadDetail } from '../../src/lib/contract';
import { SandboxState } from '../../server/platforms/sandbox/index';
import { startLoopbackProxy, type LoopbackProxy } from '../../server/platforms/sandbox/loopback-proxy';
import { createAccount } from './backoffice-fixtures';
import { createUser, describeEachDatabase } from './helpers';
import { publishPayload, renderedRequest } from './publishing-fixtures';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';

// SANDBOX_TOKEN_TTL_SECONDS=20: every access token the sandbox issues ends 20 s after it is issued.
const sandbox = new SandboxState({ tokenTtlSeconds: 20 });

describeEachDatabase(
  'A profile connected only through the consent pages keeps publishing past its tokens’ end',
  (env) => {
    let baseUrl: string;
    let proxy: LoopbackProxy;

    beforeAll(async () => {
      baseUrl = await env().app.listen({ port: 0, host: '127.0.0.1' });
      env().platforms.sandboxOrigin = baseUrl;
      proxy = await startLoopbackProxy();
    });
    afterAll(async () => {
      await proxy?.close();
    });

    it(
      'publishes on TikTok and Instagram on time, 70 s after connecting, with the real queue and refresher',
      { timeout: 150_000 },
      async () => {
        const user = await createUser(env(), 'operator');
        const label = `late-${env().kind}`;
        const account = await createAccount(env(), user, { proxy: proxy.url, comments: label });
        for (const [platform, login] of [
          ['tiktok', `${label}@tiktok`],
          ['instagram', `${label}.insta`],
        ] as const) {
          const link = await fetch(`${baseUrl}/api/accounts/connect-${platform}/${account.id}`, { method: 'POST', headers: user.headers });
          const followed = await answerSandboxConsent(((await link.json()) as { url: string }).url, 'allow', 'follow', { username: login });
          expect(new URL(followed.url).search).toBe(`?${platform}=connected`);
        }

        const request = await renderedRequest(env(), user.id, 1);
        const due = new Date(Date.now() + 70_000);
        due.setMilliseconds(0);
        const response = await env().app.inject({
          method: 'POST',
          url: `/api/upload-video/${request.idUpload}`,
          headers: user.headers,
          payload: publishPayload(request, [account.id], { inYouTube: false, inTikTok: true, inInstagram: true, date: due.toISOString() }),
        });
        expect(response.statusCode, response.body).toBe(200);

        let detail: UploadDetail | undefined;
        await vi.waitFor(
          async () => {
            const answer = await env().app.inject({ method: 'GET', url: `/api/upload-video/${request.idUpload}`, headers: user.headers });
            detail = answer.json<UploadDetail>();
            expect(detail.video.every((video) => video.status === 'success' || video.status === 'error')).toBe(true);
          },
          { timeout: 120_000, interval: 1000 },
        );
        const [video] = detail!.video;
        expect(video).toMatchObject({ status: 'success', errorTiktok: null, errorInstagram: null });
        expect(video!.urlTiktok).toBeTruthy();
        expect(video!.urlInstagram).toBeTruthy();
        // On time: within the engine's polling of the due minute.
        const { rows } = await env().db.sql(`SELECT platform, updated_at FROM video_posts WHERE video_id = $1`, [request.videos[0]!.id]);
        for (const row of rows) expect(new Date(row.updated_at).getTime() - due.getTime()).toBeLessThan(20_000);
      },
    );
  },
  { queue: 'work', sandbox },
);
