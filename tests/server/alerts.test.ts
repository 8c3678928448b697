import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { beforeEach, expect, it, vi } from 'vitest';
import type { TelegramSettings, WebhookDelivery } from '../../src/lib/contract/alerts';
import type { Static } from '@sinclair/typebox';
import { t } from '../../server/messages';
import { SandboxState } from '../../server/sandbox/index';
import { sandboxBotUsername } from '../../server/sandbox/telegram';
import { recordAccessFailure, recordConnection } from '../../server/platforms/connections';
import { failPost, holdPost } from '../../server/services/publishing/post-lifecycle';
import { failureText, type PostFailure } from '../../src/lib/post-failures';
import { raiseAlert, type PostAlert } from '../../server/alerts/buckets';
import { digestText, queueDigests } from '../../server/alerts/digest';
import { attemptDelivery } from '../../server/alerts/webhooks';
import { alertTickMs } from '../../server/jobs/alerts';
import { engineSettings } from '../../server/config';
import { buildLiveApp, createUser, describeEachDatabase, withSandboxServer } from './helpers';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { ManualClock } from './manual-clock';

const refused: PostFailure = { kind: 'rejected', answer: 'відео відхилено' };
import { receiverOfFile, verifyAt } from './webhook-receiver';

type Delivery = Static<typeof WebhookDelivery>;

/**
 * Issue 32.3, alerts where the team is: a local receiver gets signed deliveries, gets every one
 * after being down for two minutes, and a burst of 200 failures arrives as one Telegram message and
 * one delivery with the count. The worker runs with the real queue on a clock the test moves: the
 * group window, the retry pauses and the ticker all go by it, so nothing waits on real time.
 */

const clock = new ManualClock();
const sandbox = new SandboxState({ now: clock.now });
const secret = 'receiver-shared-secret-0123';

describeEachDatabase(
  'alerts where the team is',
  (env) => {
    withSandboxServer(env);
    const receiver = receiverOfFile();
    beforeEach(() => sandbox.telegram.reset());

    /** Until every message and delivery handed to the queue has run. */
    async function settle() {
      await vi.waitFor(
        async () => {
          const { rows } = await env().db.sql(
            `SELECT count(*)::int AS n FROM pgboss.job WHERE name IN ('deliver-webhook', 'send-telegram') AND state IN ('created', 'retry', 'active')`,
          );
          expect(rows[0].n).toBe(0);
        },
        { timeout: 20_000, interval: 20 },
      );
    }

    /** The next moment something falls due on the clock: a bucket's window closes or a delivery's retry comes. */
    async function nextDueAt(): Promise<number> {
      const { rows } = await env().db.sql(
        `SELECT (SELECT min(next_attempt_at) FROM webhook_deliveries WHERE state = 'pending') AS retry,
                (SELECT min(opened_at) FROM alert_buckets) AS opened`,
      );
      const { retry, opened } = rows[0];
      return Math.min(
        retry === null ? Infinity : new Date(retry).getTime(),
        opened === null ? Infinity : new Date(opened).getTime() + engineSettings().alertGroupSeconds * 1000,
      );
    }

    /**
     * Moves the clock `ms` forward as the worker lives it, minus the idle ticks: one tick's time,
     * letting its work finish (what was just raised, the answers of the deliveries it sent), then a
     * leap to the next moment something falls due, or to the end. A due bucket or retry stays due,
     * so the tick at a leap's end sees what each tick on the way would have.
     */
    async function passTime(ms: number) {
      const end = clock.now() + ms;
      while (clock.now() < end) {
        await clock.advance(Math.min(alertTickMs, end - clock.now()));
        await settle();
        const next = Math.min(end, await nextDueAt());
        if (next <= clock.now()) continue;
        await clock.leap(next - clock.now());
        await settle();
      }
    }

    async function addWebhook(user: TestUser, events: string[], url = receiver.url) {
      const response = await env().app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: user.headers,
        payload: { url, events, secret },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ id: number }>().id;
    }

    async function deliveries(user: TestUser, webhookId: number): Promise<Delivery[]> {
      const response = await env().app.inject({ url: `/api/webhooks/${webhookId}/deliveries`, headers: user.headers });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: Delivery[] }>().data;
    }

    /** A Telegram chat connected for `user`, as after the code came (the code itself is its own test). */
    async function connectChat(user: TestUser, chatId: number) {
      sandbox.telegram.chats.set(chatId, { id: chatId, username: `chat_${chatId}`, firstName: 'Команда' });
      await env().db.sql(`INSERT INTO telegram_links (user_id, chat_id, chat_name, connected_at) VALUES ($1, $2, $3, now())`, [
        user.id,
        chatId,
        `@chat_${chatId}`,
      ]);
    }

    const sentTo = (chatId: number) => sandbox.telegram.sent.filter((message) => message.chatId === chatId).map((message) => message.text);

    /** `count` TikTok posts of one set, pending, each with its job token. */
    async function pendingPosts(user: TestUser, accountId: number, count: number) {
      const { rows: requests } = await env().db.sql(
        `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, title)
         VALUES (gen_random_uuid(), $1, 'published', $2, 'gone', 'Ранкова пробіжка') RETURNING id, id_upload`,
        [user.id, count],
      );
      await env().db.sql(
        `INSERT INTO videos (request_id, user_id, position, status) SELECT $1, $2, n, 'publication' FROM generate_series(0, $3 - 1) AS n`,
        [requests[0].id, user.id, count],
      );
      const { rows } = await env().db.sql(
        `INSERT INTO video_posts (video_id, platform, account_id, scheduled_at, job_token)
         SELECT id, 'tiktok', $2, now(), gen_random_uuid() FROM videos WHERE request_id = $1 ORDER BY position
         RETURNING id, video_id, job_token`,
        [requests[0].id, accountId],
      );
      return {
        idUpload: requests[0].id_upload as string,
        posts: rows.map((row) => ({
          id: row.id as number,
          videoId: row.video_id as number,
          platform: 'tiktok' as const,
          token: row.job_token as string,
        })),
      };
    }

    it('delivers a failed post to a local receiver, signed so that the secret verifies it', async () => {
      const owner = await createUser(env(), 'owner');
      const webhookId = await addWebhook(owner, ['post.failed']);
      const account = await createAccount(env(), owner, { comments: 'Основний' });
      const { idUpload, posts } = await pendingPosts(owner, account.id, 1);
      const failedAt = new Date(clock.now());
      await failPost(env().db, posts[0]!, posts[0]!.token, refused, failedAt);

      // Nothing leaves before the group window closes, then exactly one delivery.
      await passTime(58_000);
      expect(receiver.received).toHaveLength(0);
      await passTime(4000);
      expect(receiver.received).toHaveLength(1);
      const [{ headers, body }] = receiver.received;
      const timestamp = String(headers['x-shorts-timestamp']);
      const expected = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
      expect(headers['x-shorts-signature']).toBe(`sha256=${expected}`);
      const forged = crypto.createHmac('sha256', 'another-secret-of-enough-length').update(`${timestamp}.${body}`).digest('hex');
      expect(headers['x-shorts-signature']).not.toBe(`sha256=${forged}`);
      expect(Number(timestamp) * 1000).toBeGreaterThan(failedAt.getTime());
      expect(Number(timestamp) * 1000).toBeLessThanOrEqual(clock.now());
      expect(headers['x-shorts-event']).toBe('post.failed');
      expect(headers['content-type']).toBe('application/json');
      // Issue 42.2: the same attempt carries Standard Webhooks' headers, which the library verifies;
      // this secret is of the form before `whsec_`, so its UTF-8 bytes are the key.
      const verified = verifyAt(new Webhook(new TextEncoder().encode(secret), { format: 'raw' }), receiver.received[0]!, clock.now());
      expect(verified).toEqual(JSON.parse(body));
      expect(headers['webhook-timestamp']).toBe(timestamp);
      expect(headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      const post: PostAlert = {
        postId: posts[0]!.id,
        videoId: posts[0]!.videoId,
        idUpload,
        title: 'Ранкова пробіжка',
        platform: 'tiktok',
        accountId: account.id,
        profile: t.accounts.optionTitle(account.id, 'Основний'),
      };
      expect(JSON.parse(body)).toEqual({
        event: 'post.failed',
        at: failedAt.toISOString(),
        data: { count: 1, items: [{ ...post, failure: 'rejected', error: failureText('tiktok', refused) }] },
      });

      const [logged] = await deliveries(owner, webhookId);
      expect(logged).toMatchObject({
        event: 'post.failed',
        state: 'delivered',
        attempts: 1,
        status: 200,
        answer: 'got it',
        error: null,
        body,
      });
      expect(String(logged!.id)).toBe(headers['x-shorts-delivery']);
      expect(logged!.messageId).toBe(headers['webhook-id']);
      const listed = await env().app.inject({ url: '/api/webhooks', headers: owner.headers });
      expect(listed.json().data).toEqual([
        {
          id: webhookId,
          url: receiver.url,
          events: ['post.failed'],
          createdAt: expect.any(String),
          lastDelivery: { state: 'delivered', at: logged!.lastAttemptAt, status: 200, error: null },
        },
      ]);
    });

    it('gets every delivery once each after its receiver was down for two minutes', async () => {
      const owner = await createUser(env(), 'owner');
      const webhookId = await addWebhook(owner, ['post.failed', 'post.held', 'post.published']);
      receiver.state.down = true;
      const at = new Date(clock.now());
      const post: PostAlert = {
        postId: 1,
        videoId: 1,
        idUpload: crypto.randomUUID(),
        title: 'Набір',
        platform: 'youtube',
        accountId: null,
        profile: null,
      };
      await raiseAlert(env().db.sql, {
        userId: owner.id,
        event: 'post.failed',
        data: { ...post, failure: 'rejected', error: 'YouTube: відмова' },
        at,
      });
      await raiseAlert(env().db.sql, { userId: owner.id, event: 'post.held', data: { ...post, until: at.toISOString() }, at });
      await raiseAlert(env().db.sql, { userId: owner.id, event: 'post.published', data: { ...post, url: 'https://youtu.be/x' }, at });

      await passTime(62_000);
      const failing = await deliveries(owner, webhookId);
      expect(failing.map(({ state, attempts, error }) => ({ state, attempts, error }))).toEqual(
        Array(3).fill({ state: 'pending', attempts: 1, error: 'network' }),
      );
      // Down for two minutes from the first attempt: the 10 s, 30 s and 60 s retries meet it down too.
      await passTime(120_000);
      expect(receiver.received).toHaveLength(0);
      receiver.state.down = false;
      await passTime(6 * 60_000);

      expect(receiver.received).toHaveLength(3);
      expect(receiver.received.map(({ headers }) => headers['x-shorts-event']).sort()).toEqual([
        'post.failed',
        'post.held',
        'post.published',
      ]);
      expect(new Set(receiver.received.map(({ headers }) => headers['x-shorts-delivery'])).size).toBe(3);
      // Each message kept the id it was made with through its four failed attempts.
      expect(new Set(receiver.received.map(({ headers }) => headers['webhook-id']))).toEqual(
        new Set((await deliveries(owner, webhookId)).map((delivery) => delivery.messageId)),
      );
      const delivered = await deliveries(owner, webhookId);
      expect(delivered.map(({ state, error, status }) => ({ state, error, status }))).toEqual(
        Array(3).fill({ state: 'delivered', error: null, status: 200 }),
      );
      expect(delivered.every((delivery) => delivery.attempts === 5)).toBe(true);
      // Nothing is sent again.
      await passTime(30 * 60_000);
      expect(receiver.received).toHaveLength(3);
    });

    it('tells 200 failures in a minute as one Telegram message and one webhook delivery with the count', async () => {
      const owner = await createUser(env(), 'owner');
      await connectChat(owner, 4242);
      await addWebhook(owner, ['post.failed']);
      const account = await createAccount(env(), owner, { comments: 'Основний' });
      const { posts } = await pendingPosts(owner, account.id, 200);
      for (const [index, post] of posts.entries()) {
        await failPost(env().db, post, post.token, { kind: 'rejected', answer: `відмова ${index}` }, new Date(clock.now()));
        // 200 failures over 50 seconds.
        if (index % 4 === 3) await clock.advance(1000);
      }
      await settle();
      expect(sentTo(4242)).toEqual([]);
      await passTime(12_000);

      const messages = sentTo(4242);
      expect(messages).toHaveLength(1);
      const lines = messages[0]!.split('\n');
      expect(lines[0]).toBe(t.alerts.heading['post.failed']!(200));
      expect(lines[0]).toBe('❌ 200 публікацій не вдалося');
      expect(lines.slice(1, 6)).toEqual(
        posts
          .slice(0, 5)
          .map(
            (_, index) =>
              `• ${t.alerts.post('TikTok', t.accounts.optionTitle(account.id, 'Основний'), 'Ранкова пробіжка')}: ${t.alerts.failedBecause(`TikTok: ${t.platform.rejected} (відмова ${index})`)}`,
          ),
      );
      expect(lines[6]).toBe(t.alerts.more(195));
      expect(receiver.received).toHaveLength(1);
      const body = JSON.parse(receiver.received[0]!.body);
      expect(body.data.count).toBe(200);
      expect(body.data.items).toHaveLength(20);

      await passTime(2 * 60_000);
      expect(sentTo(4242)).toHaveLength(1);
      expect(receiver.received).toHaveLength(1);
    });

    it('connects a Telegram chat by the one-time code its user sends the bot, and tells only what was chosen', async () => {
      const owner = await createUser(env(), 'owner');
      await passTime(2000);
      const get = async () =>
        (await env().app.inject({ url: '/api/telegram', headers: owner.headers })).json<Static<typeof TelegramSettings>>();
      expect(await get()).toEqual({
        available: true,
        bot: sandboxBotUsername,
        state: 'off',
        code: null,
        codeExpiresAt: null,
        link: null,
        chatName: null,
        failure: null,
        events: ['post.failed', 'post.held', 'grant.revoked', 'profile.unhealthy'],
        digest: true,
      });
      const issued = await env().app.inject({ method: 'POST', url: '/api/telegram/code', headers: owner.headers });
      expect(issued.statusCode, issued.body).toBe(201);
      const { code, link, state } = issued.json<Static<typeof TelegramSettings>>();
      expect(state).toBe('connecting');
      expect(code).toMatch(/^[A-Z2-9]{8}$/);
      // In sandbox mode the link opens the sandbox’s own chat page (issue 40.9), not Telegram.
      expect(link).toBe(`/sandbox/t.me/${sandboxBotUsername}?start=${code}`);

      sandbox.telegram.userSays('/start WRONG234', { id: 5551, username: 'stranger' });
      sandbox.telegram.userSays(`/start ${code}`, { id: 5550, username: 'team_lead' });
      await passTime(2000);
      expect(await get()).toMatchObject({ state: 'connected', chatName: '@team_lead', code: null, link: null });
      expect(sentTo(5550)).toEqual([t.alerts.connected]);
      expect(sentTo(5551)).toEqual([t.alerts.unknownCode]);

      const saved = await env().app.inject({
        method: 'PUT',
        url: '/api/telegram',
        headers: owner.headers,
        payload: { events: ['post.failed'], digest: false },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toMatchObject({ state: 'connected', events: ['post.failed'], digest: false });

      const account = await createAccount(env(), owner, { comments: 'Основний' });
      const { posts } = await pendingPosts(owner, account.id, 2);
      const cap = { detail: { limit: 15, windowHours: 24 }, until: new Date(clock.now() + 3_600_000) };
      await holdPost(env().db, env().queue!, { postId: posts[0]!.id, token: posts[0]!.token }, cap, new Date(clock.now()));
      await failPost(env().db, posts[1]!, posts[1]!.token, refused, new Date(clock.now()));
      await passTime(62_000);
      expect(
        sentTo(5550)
          .slice(1)
          .map((text) => text.split('\n')[0]),
      ).toEqual([t.alerts.heading['post.failed']!(1)]);

      const removed = await env().app.inject({ method: 'DELETE', url: '/api/telegram', headers: owner.headers });
      expect(removed.statusCode).toBe(204);
      expect((await get()).state).toBe('off');
    });

    it('marks a chat that blocked the bot, says so on Settings, and keeps nothing more for it', async () => {
      const owner = await createUser(env(), 'owner');
      await connectChat(owner, 6060);
      sandbox.telegram.block(6060);
      const account = await createAccount(env(), owner, { comments: 'Основний' });
      const { posts } = await pendingPosts(owner, account.id, 2);
      await failPost(env().db, posts[0]!, posts[0]!.token, refused, new Date(clock.now()));
      await passTime(62_000);
      expect(sentTo(6060)).toEqual([]);
      const settings = await env().app.inject({ url: '/api/telegram', headers: owner.headers });
      expect(settings.json()).toMatchObject({ state: 'connected', failure: 'blocked' });

      await failPost(env().db, posts[1]!, posts[1]!.token, refused, new Date(clock.now()));
      const { rows } = await env().db.sql(`SELECT count(*)::int AS count FROM alert_buckets WHERE user_id = $1`, [owner.id]);
      expect(rows[0].count).toBe(0);
    });

    it('tells a profile’s lost access once per failure', async () => {
      const owner = await createUser(env(), 'owner');
      await connectChat(owner, 777);
      const account = await createAccount(env(), owner, { comments: 'Основний' });
      await env().db.sql(`INSERT INTO account_connections (account_id, platform, method) VALUES ($1, 'tiktok', 'oauth')`, [account.id]);
      const revoke = () =>
        env().db.transaction(async (run) => {
          await run(`UPDATE account_connections SET state = 'revoked' WHERE account_id = $1 AND platform = 'tiktok'`, [account.id]);
          await recordAccessFailure(run, { accountId: account.id, platform: 'tiktok', source: 'publish', at: new Date(clock.now()) });
        });
      await revoke();
      // A publish meeting the same revoked grant records the same failure: nothing new to tell.
      await revoke();
      await passTime(64_000);
      const told = [
        t.alerts.heading['grant.revoked']!(1),
        `• ${t.notifications.accessRevoked(t.accounts.optionTitle(account.id, 'Основний'), 'TikTok')}`,
      ].join('\n');
      expect(sentTo(777)).toEqual([told]);

      const mended = { state: 'connected', kind: null, source: 'consent', at: new Date(clock.now()) } as const;
      await recordConnection(env().db.sql, { accountId: account.id, platform: 'tiktok', ...mended });
      await revoke();
      await passTime(64_000);
      expect(sentTo(777)).toEqual([told, told]);
    });

    it('sends the morning digest of yesterday in Kyiv: posts out by platform, failures and the top videos', async () => {
      const owner = await createUser(env(), 'owner');
      const account = await createAccount(env(), owner, { comments: 'Основний' });
      const { posts } = await pendingPosts(owner, account.id, 5);
      const [a, b, c, late, failed] = posts;
      const set = (post: typeof a, status: string, platform: string, at: string) =>
        env().db.sql(`UPDATE video_posts SET status = $2, platform = $3, published_at = $4, updated_at = $4 WHERE id = $1`, [
          post!.id,
          status,
          platform,
          at,
        ]);
      // Yesterday in Kyiv, 21.11.2026, runs from 2026-11-20T22:00Z to 2026-11-21T22:00Z.
      await set(a, 'done', 'tiktok', '2026-11-21T10:00:00Z');
      await set(b, 'done', 'tiktok', '2026-11-20T22:30:00Z');
      await set(c, 'done', 'youtube', '2026-11-21T21:30:00Z');
      await set(late, 'done', 'youtube', '2026-11-21T22:30:00Z');
      await set(failed, 'error', 'tiktok', '2026-11-21T12:00:00Z');
      await env().db.sql(
        `INSERT INTO stats_points (post_id, at, views, likes, comments) VALUES
           ($1, '2026-11-20T20:00:00Z', 100, 0, 0), ($1, '2026-11-21T20:00:00Z', 1100, 0, 0), ($2, '2026-11-21T09:00:00Z', 50, 0, 0)`,
        [a!.id, c!.id],
      );
      const text = await digestText(env().db, owner.id, Date.parse('2026-11-22T07:00:00Z'));
      expect(text.split('\n')).toEqual([
        t.alerts.digest.title('21.11.2026'),
        t.alerts.digest.out(3, 'YouTube 1, TikTok 2'),
        t.alerts.digest.failed(1),
        t.alerts.digest.top,
        t.alerts.digest.topLine(1, 'Ранкова пробіжка', 'TikTok', 1000),
        t.alerts.digest.topLine(2, 'Ранкова пробіжка', 'YouTube', 50),
      ]);
      expect(text).toContain('Вийшло: 3 публікації (YouTube 1, TikTok 2)');
      const quiet = await createUser(env(), 'quiet');
      expect(await digestText(env().db, quiet.id, Date.parse('2026-11-22T07:00:00Z'))).toBe(
        [t.alerts.digest.title('21.11.2026'), t.alerts.digest.quiet].join('\n'),
      );

      await connectChat(owner, 909);
      expect(await queueDigests(env().db, env().queue!, clock.now())).toBe(1);
      env().queue!.nudge('send-telegram');
      await settle();
      expect(sentTo(909)).toEqual([await digestText(env().db, owner.id, clock.now())]);
    });

    it('keeps webhooks personal: another user, an admin included, neither reads nor removes them', async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const admin = await createUser(env(), 'root', { role: 'admin' });
      const webhookId = await addWebhook(owner, ['post.failed']);
      for (const user of [other, admin]) {
        expect((await env().app.inject({ url: `/api/webhooks/${webhookId}/deliveries`, headers: user.headers })).statusCode).toBe(404);
        expect((await env().app.inject({ method: 'DELETE', url: `/api/webhooks/${webhookId}`, headers: user.headers })).statusCode).toBe(
          404,
        );
        expect((await env().app.inject({ url: '/api/webhooks', headers: user.headers })).json()).toEqual({ data: [] });
      }
      expect((await env().app.inject({ url: '/api/webhooks' })).statusCode).toBe(401);
      const listed = (await env().app.inject({ url: '/api/webhooks', headers: owner.headers })).json();
      expect(JSON.stringify(listed)).not.toContain(secret);
      const { rows } = await env().db.sql(`SELECT secret FROM webhooks WHERE id = $1`, [webhookId]);
      expect(rows[0].secret).not.toContain(secret);
      expect((await env().app.inject({ method: 'DELETE', url: `/api/webhooks/${webhookId}`, headers: owner.headers })).statusCode).toBe(
        204,
      );
      expect((await env().app.inject({ url: '/api/webhooks', headers: owner.headers })).json()).toEqual({ data: [] });
    });

    it('refuses a webhook form that breaks its rules, with the form’s Ukrainian messages', async () => {
      const owner = await createUser(env(), 'owner');
      const post = (payload: object) => env().app.inject({ method: 'POST', url: '/api/webhooks', headers: owner.headers, payload });
      const refused = await post({ url: 'ftp://example.com', events: [], secret: 'short' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toEqual([t.webhooks.urlInvalid, t.webhooks.eventsRequired, t.webhooks.secretTooShort]);
      const unknownEvent = await post({ url: receiver.url, events: ['post.deleted'], secret });
      expect(unknownEvent.statusCode).toBe(400);
    });

    it('refuses in live mode a webhook that is not HTTPS or leads to a private address, when saved and when delivered', async () => {
      const owner = await createUser(env(), 'owner');
      const live = await buildLiveApp(env());
      try {
        const post = (url: string) =>
          live.inject({ method: 'POST', url: '/api/webhooks', headers: owner.headers, payload: { url, events: ['post.failed'], secret } });
        const http = await post('http://hooks.example.com/shorts');
        expect([http.statusCode, http.json().message]).toEqual([400, t.webhooks.httpsRequired]);
        for (const url of [
          'https://127.0.0.1/hook',
          'https://10.1.2.3/hook',
          'https://192.168.0.10/hook',
          'https://169.254.169.254/latest/meta-data',
          'https://[::1]/hook',
          'https://[::ffff:127.0.0.1]/hook',
          // IPv6 forms that carry an IPv4 address: compatible, translated, NAT64, 6to4, Teredo.
          'https://[::127.0.0.1]/hook',
          'https://[::ffff:0:127.0.0.1]/hook',
          'https://[64:ff9b::169.254.169.254]/hook',
          'https://[64:ff9b:1::a00:1]/hook',
          'https://[2002:7f00:1::1]/hook',
          'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook',
          'https://localhost/hook',
        ]) {
          const answer = await post(url);
          expect([answer.statusCode, answer.json().message], url).toEqual([400, t.webhooks.addressRefused]);
        }
        expect((await live.inject({ url: '/api/webhooks', headers: owner.headers })).json()).toEqual({ data: [] });
      } finally {
        await live.close();
      }

      // A name that led elsewhere when saved and to this machine when called (DNS rebinding) is refused where the connection is made.
      const webhookId = await addWebhook(owner, ['post.failed'], `https://localhost:${receiver.port}/hooks/shorts`);
      const { rows } = await env().db.sql(
        `INSERT INTO webhook_deliveries (webhook_id, event, body, state, next_attempt_at, created_at)
         VALUES ($1, 'post.failed', '{}', 'pending', $2, now()) RETURNING id::text AS id`,
        [webhookId, new Date(clock.now() + 86_400_000)],
      );
      await attemptDelivery(env().db, env().tokenSettings.keys.secretsAtRest, rows[0].id, { mode: 'live', now: clock.now });
      const [refused] = await deliveries(owner, webhookId);
      expect(refused).toMatchObject({ state: 'pending', attempts: 1, error: 'address', status: null });
      expect(receiver.received).toHaveLength(0);
    });
  },
  { queue: 'work', sandbox, clock },
);
