import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { NotificationList, UploadDetail } from '../../src/lib/contract';
import { t } from '../../src/lib/i18n';
import { SandboxState } from '../../server/platforms/sandbox/index';
import { accountOfLogin } from '../../server/platforms/sandbox/consent';
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

    async function connect(
      user: Awaited<ReturnType<typeof createUser>>,
      accountId: number,
      platform: 'tiktok' | 'instagram',
      login: string,
    ) {
      const link = await fetch(`${baseUrl}/api/accounts/connect-${platform}/${accountId}`, { method: 'POST', headers: user.headers });
      const followed = await answerSandboxConsent(((await link.json()) as { url: string }).url, 'allow', 'follow', { username: login });
      expect(new URL(followed.url).search).toBe(`?${platform}=connected`);
    }

    it.each([
      { platform: 'tiktok' as const, name: 'TikTok' },
      { platform: 'instagram' as const, name: 'Instagram' },
    ])(
      'a post of a profile whose $name grant was revoked waits, and goes out once the profile is connected again',
      { timeout: 90_000 },
      async ({ platform, name }) => {
        const user = await createUser(env(), `operator-${platform}`);
        const login = `revoked-${env().kind}-${platform}`;
        const account = await createAccount(env(), user, { proxy: proxy.url, comments: login });
        await connect(user, account.id, platform, login);
        sandbox.revoke(platform, accountOfLogin(login)!);

        const request = await renderedRequest(env(), user.id, 1);
        const response = await env().app.inject({
          method: 'POST',
          url: `/api/upload-video/${request.idUpload}`,
          headers: user.headers,
          payload: publishPayload(request, [account.id], {
            inYouTube: false,
            inTikTok: platform === 'tiktok',
            inInstagram: platform === 'instagram',
          }),
        });
        expect(response.statusCode, response.body).toBe(200);
        const post = async () =>
          (
            await env().db.sql(`SELECT status, wait_kind, wait_detail, next_attempt_at FROM video_posts WHERE video_id = $1`, [
              request.videos[0]!.id,
            ])
          ).rows[0];
        await vi.waitFor(async () => expect(await post()).toMatchObject({ status: 'pending', wait_kind: 'reconnect' }), {
          timeout: 30_000,
          interval: 500,
        });
        expect((await post()).next_attempt_at).toBeNull();
        const profile = await env().app.inject({ method: 'GET', url: `/api/accounts/${account.id}`, headers: user.headers });
        expect(profile.json()).toMatchObject({ status: 'error', connections: [{ platform, state: 'revoked' }] });
        const bell = await env().app.inject({ method: 'GET', url: '/api/notifications', headers: user.headers });
        expect(bell.json<NotificationList>().items).toContainEqual(
          expect.objectContaining({
            kind: 'credentials_failed',
            message: expect.stringContaining(t.connections.revoked(name)),
            account: expect.objectContaining({ id: account.id }),
          }),
        );

        // The catalog's words are reworded while the post waits: what it waits for is its kind, not its sentence.
        const revokedWords = vi.spyOn(t.connections, 'revoked').mockImplementation((platform) => `${platform}: доступ більше не діє`);
        try {
          await connect(user, account.id, platform, login);
          await vi.waitFor(async () => expect(await post()).toMatchObject({ status: 'done', wait_kind: null, wait_detail: null }), {
            timeout: 30_000,
            interval: 500,
          });
        } finally {
          revokedWords.mockRestore();
        }
      },
    );

    it(
      'publishes on TikTok and Instagram on time, 70 s after connecting, with the real queue and refresher',
      { timeout: 150_000 },
      async () => {
        const user = await createUser(env(), 'operator');
        const label = `late-${env().kind}`;
        const account = await createAccount(env(), user, { proxy: proxy.url, comments: label });
        await connect(user, account.id, 'tiktok', `${label}@tiktok`);
        await connect(user, account.id, 'instagram', `${label}.insta`);

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
