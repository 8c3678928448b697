import { expect, it, vi } from 'vitest';
import type { NotificationList } from '../../src/lib/contract';
import * as t from '../../src/lib/i18n';
import { SandboxState } from '../../server/sandbox/index';
import { accountOfLogin } from '../../server/sandbox/consent';
import { createAccount } from './backoffice-fixtures';
import { createUser, describeEachDatabase, withSandboxServer } from './helpers';
import { ManualClock } from './manual-clock';
import { publishPayload, renderedRequest, settledSet } from './publishing-fixtures';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';

const clock = new ManualClock();
// SANDBOX_TOKEN_TTL_SECONDS=20: every access token the sandbox issues ends 20 s after it is issued, on the test's clock.
const sandbox = new SandboxState({ tokenTtlSeconds: 20, now: clock.now });

describeEachDatabase(
  'A profile connected only through the consent pages keeps publishing past its tokens’ end',
  (env) => {
    const network = withSandboxServer(env);

    async function connect(
      user: Awaited<ReturnType<typeof createUser>>,
      accountId: number,
      platform: 'tiktok' | 'instagram',
      login: string,
    ) {
      const link = await fetch(`${network().baseUrl}/api/accounts/connect-${platform}/${accountId}`, {
        method: 'POST',
        headers: user.headers,
      });
      const followed = await answerSandboxConsent(link, 'allow', 'follow', { username: login });
      expect(new URL(followed.url).search).toBe(`?${platform}=connected`);
    }

    it.each([
      { platform: 'tiktok' as const, name: 'TikTok' },
      { platform: 'instagram' as const, name: 'Instagram' },
    ])(
      'a post of a profile whose $name grant was revoked waits, and goes out once the profile is connected again',
      { timeout: 90_000 },
      async ({ platform }) => {
        const user = await createUser(env(), `operator-${platform}`);
        const login = `revoked-${env().kind}-${platform}`;
        const account = await createAccount(env(), user, { proxy: network().proxy.url, comments: login });
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
        await clock.flowing(() =>
          vi.waitFor(async () => expect(await post()).toMatchObject({ status: 'pending', wait_kind: 'reconnect' }), {
            timeout: 30_000,
            interval: 500,
          }),
        );
        expect((await post()).next_attempt_at).toBeNull();
        const profile = await env().app.inject({ method: 'GET', url: `/api/accounts/${account.id}`, headers: user.headers });
        expect(profile.json()).toMatchObject({ status: 'error', connections: [{ platform, state: 'down', kind: 'revoked' }] });
        const bell = await env().app.inject({ method: 'GET', url: '/api/notifications', headers: user.headers });
        expect(bell.json<NotificationList>().items).toContainEqual(
          expect.objectContaining({
            kind: 'credentials_failed',
            failure: 'revoked',
            platform,
            account: expect.objectContaining({ id: account.id }),
          }),
        );
        // The waiting post is told on its set, as held.
        expect(bell.json<NotificationList>().items).toContainEqual(
          expect.objectContaining({ kind: 'set_posts', posts: { published: 0, failed: 0, held: 1 } }),
        );

        // The catalog's words are reworded while the post waits: what it waits for is its kind, not its sentence.
        const revokedWords = vi.spyOn(t.connections, 'revoked').mockImplementation((platform) => `${platform}: доступ більше не діє`);
        try {
          await connect(user, account.id, platform, login);
          await clock.flowing(() =>
            vi.waitFor(async () => expect(await post()).toMatchObject({ status: 'done', wait_kind: null, wait_detail: null }), {
              timeout: 30_000,
              interval: 500,
            }),
          );
        } finally {
          revokedWords.mockRestore();
        }
      },
    );

    it('publishes on TikTok and Instagram on time, 70 s after connecting, with the real queue and refresher', async () => {
      const user = await createUser(env(), 'operator');
      const label = `late-${env().kind}`;
      const account = await createAccount(env(), user, { proxy: network().proxy.url, comments: label });
      await connect(user, account.id, 'tiktok', `${label}@tiktok`);
      await connect(user, account.id, 'instagram', `${label}.insta`);

      const request = await renderedRequest(env(), user.id, 1);
      const due = new Date(clock.now() + 70_000);
      due.setMilliseconds(0);
      const response = await env().app.inject({
        method: 'POST',
        url: `/api/upload-video/${request.idUpload}`,
        headers: user.headers,
        payload: publishPayload(request, [account.id], { inYouTube: false, inTikTok: true, inInstagram: true, date: due.toISOString() }),
      });
      expect(response.statusCode, response.body).toBe(200);

      // The 70 s pass on the clock, a second at a time, so the refresher runs at each of its beats
      // while both tokens (20 s each) end three times over.
      const videosBefore = sandbox.videos.length;
      while (clock.now() < due.getTime()) await clock.advance(1000);
      // pg-boss tells due jobs by the database's now(), which no test can move: the jobs due by the
      // clock's time are made due now, and the runner told to look.
      await env().db.sql(
        `UPDATE pgboss.job SET start_after = now() WHERE name = 'publish-video' AND state = 'created' AND start_after <= $1`,
        [due],
      );
      env().queue!.nudge('publish-video');

      const detail = await clock.flowing(() => settledSet(env(), user.headers, request.idUpload));
      const [video] = detail.video;
      expect(video).toMatchObject({ status: 'success', errorTiktok: null, errorInstagram: null });
      expect(video!.urlTiktok).toBeTruthy();
      expect(video!.urlInstagram).toBeTruthy();
      // On time: the platforms received both at the due minute, with tokens renewed past their ends.
      const published = sandbox.videos.slice(videosBefore);
      expect(published.map((entry) => entry.platform).sort()).toEqual(['instagram', 'tiktok']);
      for (const entry of published) {
        expect(entry.createdAt).toBeGreaterThanOrEqual(due.getTime());
        expect(entry.createdAt - due.getTime()).toBeLessThan(20_000);
      }
    });
  },
  { queue: 'work', sandbox, clock },
);
