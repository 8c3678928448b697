import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { beforeEach, expect, it } from 'vitest';
import { alertTestThrottle } from '../../server/auth/login-throttle';
import { t } from '../../server/messages';
import { SandboxState } from '../../server/sandbox/index';
import { sandboxBotUsername } from '../../server/sandbox/telegram';
import { buildAppOn, buildLiveApp, createUser, describeEachDatabase, newSession, withSandboxServer } from './helpers';
import type { TestUser } from './backoffice-fixtures';
import { ManualClock } from './manual-clock';
import { receiverOfFile, verifyAt } from './webhook-receiver';

/**
 * Issue 40.9 on the server: 'Надіслати тестове' for a webhook (one signed event, sent now, its
 * outcome answered) and for the Telegram chat, a webhook's edit (checked as when added, the secret
 * kept), and the sandbox's t.me page the settings screen's link opens in sandbox mode.
 */

const clock = new ManualClock();
const sandbox = new SandboxState({ now: clock.now });
const secret = 'receiver-shared-secret-0123';

describeEachDatabase(
  'alerts: test sends and a webhook’s edit',
  (env) => {
    const network = withSandboxServer(env);
    const receiver = receiverOfFile();
    beforeEach(() => sandbox.telegram.reset());

    async function addWebhook(user: TestUser, url = receiver.url) {
      const response = await env().app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: user.headers,
        payload: { url, events: ['post.failed'], secret },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ id: number }>().id;
    }

    const sendTest = (user: TestUser, webhookId: number) =>
      env().app.inject({ method: 'POST', url: `/api/webhooks/${webhookId}/test`, headers: user.headers });

    const edit = (user: TestUser, webhookId: number, payload: object) =>
      env().app.inject({ method: 'PATCH', url: `/api/webhooks/${webhookId}`, headers: user.headers, payload });

    it('sends a webhook one test event now, signed with its secret, and answers how it went', async () => {
      const owner = await createUser(env(), 'owner');
      const webhookId = await addWebhook(owner);

      const answer = await sendTest(owner, webhookId);
      expect([answer.statusCode, answer.json()]).toEqual([200, { delivered: true, status: 200, error: null }]);
      expect(receiver.received).toHaveLength(1);
      const [{ headers, body }] = receiver.received;
      expect(headers['x-shorts-event']).toBe('webhook.test');
      expect(headers['x-shorts-timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
      const expected = `sha256=${crypto.createHmac('sha256', secret).update(`${headers['x-shorts-timestamp']}.${body}`).digest('hex')}`;
      const signature = String(headers['x-shorts-signature']);
      expect(crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(signature))).toBe(true);
      expect(JSON.parse(body)).toEqual({ event: 'webhook.test', at: new Date(clock.now()).toISOString(), data: { webhookId } });
      expect(headers['x-shorts-delivery']).toMatch(/^test-[0-9a-f-]{36}$/);
      // Issue 42.2: signed for Standard Webhooks too, as every delivery is.
      const verifier = new Webhook(new TextEncoder().encode(secret), { format: 'raw' });
      expect(verifyAt(verifier, receiver.received[0]!, clock.now())).toEqual(JSON.parse(body));
      expect(headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);

      // The test is not an alert: the log and the last delivery stay as they were.
      const listed = (await env().app.inject({ url: '/api/webhooks', headers: owner.headers })).json();
      expect(listed.data[0].lastDelivery).toBeNull();
      expect((await env().app.inject({ url: `/api/webhooks/${webhookId}/deliveries`, headers: owner.headers })).json()).toEqual({
        data: [],
      });

      receiver.state.status = 500;
      expect((await sendTest(owner, webhookId)).json()).toEqual({ delivered: false, status: 500, error: 'status' });
      receiver.state.down = true;
      expect((await sendTest(owner, webhookId)).json()).toEqual({ delivered: false, status: null, error: 'network' });
      expect(receiver.received).toHaveLength(2);
    });

    it('refuses in live mode to send a test to an address the policy refuses, and sends nothing', async () => {
      const owner = await createUser(env(), 'owner');
      // Saved in sandbox mode, where a receiver on this machine is allowed; live mode refuses it at the connection.
      const webhookId = await addWebhook(owner, `https://localhost:${receiver.port}/hooks/shorts`);
      const live = await buildLiveApp(env());
      try {
        const answer = await live.inject({ method: 'POST', url: `/api/webhooks/${webhookId}/test`, headers: owner.headers });
        expect(answer.json()).toEqual({ delivered: false, status: null, error: 'address' });
      } finally {
        await live.close();
      }
      expect(receiver.received).toHaveLength(0);
    });

    it('edits a webhook’s URL and events with the checks of an add, keeping its secret', async () => {
      const owner = await createUser(env(), 'owner');
      const webhookId = await addWebhook(owner, 'http://127.0.0.1:9/old');
      const before = await env().db.sql(`SELECT secret FROM webhooks WHERE id = $1`, [webhookId]);

      const refused = await edit(owner, webhookId, { url: 'ftp://example.com', events: [] });
      expect([refused.statusCode, refused.json().message]).toEqual([400, [t.webhooks.urlInvalid, t.webhooks.eventsRequired]]);
      // The secret is not the edit's to change; an unknown key is refused, not dropped.
      const withSecret = await edit(owner, webhookId, { url: receiver.url, events: ['post.held'], secret: 'another-secret-0123456' });
      expect(withSecret.statusCode).toBe(400);

      const saved = await edit(owner, webhookId, { url: ` ${receiver.url} `, events: ['post.held', 'grant.revoked', 'post.held'] });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toMatchObject({ id: webhookId, url: receiver.url, events: ['post.held', 'grant.revoked'], lastDelivery: null });
      const after = await env().db.sql(`SELECT secret FROM webhooks WHERE id = $1`, [webhookId]);
      expect(after.rows[0].secret).toBe(before.rows[0].secret);
      // The kept secret still signs: the receiver at the new address checks the test with it.
      expect((await sendTest(owner, webhookId)).json()).toMatchObject({ delivered: true });
      const [{ headers, body }] = receiver.received;
      expect(headers['x-shorts-signature']).toBe(
        `sha256=${crypto.createHmac('sha256', secret).update(`${headers['x-shorts-timestamp']}.${body}`).digest('hex')}`,
      );

      const live = await buildLiveApp(env());
      try {
        const answer = await live.inject({
          method: 'PATCH',
          url: `/api/webhooks/${webhookId}`,
          headers: owner.headers,
          payload: { url: 'https://10.1.2.3/hook', events: ['post.failed'] },
        });
        expect([answer.statusCode, answer.json().message]).toEqual([400, t.webhooks.addressRefused]);
      } finally {
        await live.close();
      }
      const listed = (await env().app.inject({ url: '/api/webhooks', headers: owner.headers })).json();
      expect(listed.data.map((webhook: { url: string }) => webhook.url)).toEqual([receiver.url]);
    });

    it('keeps a webhook’s edit and test to its owner: another user, an admin included, gets 404', async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const admin = await createUser(env(), 'root', { role: 'admin' });
      const webhookId = await addWebhook(owner);
      for (const user of [other, admin]) {
        expect((await edit(user, webhookId, { url: 'http://127.0.0.1:9/stolen', events: ['post.failed'] })).statusCode).toBe(404);
        expect((await sendTest(user, webhookId)).statusCode).toBe(404);
      }
      expect((await env().app.inject({ method: 'POST', url: `/api/webhooks/${webhookId}/test` })).statusCode).toBe(401);
      expect(receiver.received).toHaveLength(0);
      const listed = (await env().app.inject({ url: '/api/webhooks', headers: owner.headers })).json();
      expect(listed.data[0].url).toBe(receiver.url);
    });

    it('sends the connected Telegram chat a test message through the bot, and says when Telegram refuses the chat', async () => {
      const owner = await createUser(env(), 'owner');
      const test = () => env().app.inject({ method: 'POST', url: '/api/telegram/test', headers: owner.headers });
      const none = await test();
      expect([none.statusCode, none.json().message]).toEqual([409, t.alertTests.telegramNotConnected]);

      const chatId = 4242;
      sandbox.telegram.chats.set(chatId, { id: chatId, username: 'team', firstName: 'Команда' });
      await env().db.sql(
        `INSERT INTO telegram_links (user_id, chat_id, chat_name, connected_at, failure) VALUES ($1, $2, '@team', now(), 'blocked')`,
        [owner.id, chatId],
      );
      expect((await test()).json()).toEqual({ outcome: 'sent' });
      expect(sandbox.telegram.sent.map((message) => [message.chatId, message.text])).toEqual([[chatId, t.alertTests.telegramMessage]]);
      // A chat that takes the test is no longer marked blocked.
      expect((await env().app.inject({ url: '/api/telegram', headers: owner.headers })).json().failure).toBeNull();

      sandbox.telegram.block(chatId);
      expect((await test()).json()).toEqual({ outcome: 'blocked' });
      expect((await env().app.inject({ url: '/api/telegram', headers: owner.headers })).json().failure).toBe('blocked');
      const other = await createUser(env(), 'other');
      expect((await env().app.inject({ method: 'POST', url: '/api/telegram/test', headers: other.headers })).statusCode).toBe(409);
    });

    it('counts a user’s test sends, webhook and Telegram together: past 10 in 15 minutes it answers 429 with its wait and sends nothing', async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const webhookId = await addWebhook(owner);
      const chatId = 4343;
      sandbox.telegram.chats.set(chatId, { id: chatId, username: 'desk', firstName: 'Стіл' });
      await env().db.sql(`INSERT INTO telegram_links (user_id, chat_id, chat_name, connected_at) VALUES ($1, $2, '@desk', now())`, [
        owner.id,
        chatId,
      ]);
      const telegramTest = (user: TestUser) => env().app.inject({ method: 'POST', url: '/api/telegram/test', headers: user.headers });

      for (let sent = 0; sent < alertTestThrottle.maxPerUser; sent++) {
        const answer = sent % 2 === 0 ? await sendTest(owner, webhookId) : await telegramTest(owner);
        expect(answer.statusCode, answer.body).toBe(200);
      }
      await clock.advance(60_000);
      for (const refused of [await sendTest(owner, webhookId), await telegramTest(owner)]) {
        expect([refused.statusCode, refused.json().message]).toEqual([429, t.alertTests.tooMany(14 * 60)]);
        expect(refused.headers['retry-after']).toBe(String(14 * 60));
      }
      expect(receiver.received).toHaveLength(alertTestThrottle.maxPerUser / 2);
      expect(sandbox.telegram.sent).toHaveLength(alertTestThrottle.maxPerUser / 2);

      // Another user's tests are their own; the owner's window ends 15 minutes after it began.
      expect((await telegramTest(other)).statusCode).toBe(409);
      await clock.advance(14 * 60_000);
      // Past its access token's 15 minutes too: a sign-in again.
      const signedInAgain = { ...owner, ...(await newSession(env(), owner.id)) };
      expect((await sendTest(signedInAgain, webhookId)).statusCode).toBe(200);
    });

    it('links the code to the sandbox’s own chat page in sandbox mode, which sends it to the bot from a new chat', async () => {
      const owner = await createUser(env(), 'owner');
      await env().db.sql(`INSERT INTO telegram_bots (bot_id, username) VALUES ('1000000001', $1)`, [sandboxBotUsername]);
      const issued = await env().app.inject({ method: 'POST', url: '/api/telegram/code', headers: owner.headers });
      const { code, link } = issued.json();
      expect(link).toBe(`/sandbox/t.me/${sandboxBotUsername}?start=${code}`);

      const { baseUrl } = network();
      const page = await fetch(`${baseUrl}${link}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(`/start ${code}`);
      expect(html).toContain('Почати');

      const started = await fetch(`${baseUrl}${link}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ firstName: 'Олена' }),
        redirect: 'manual',
      });
      expect(started.status).toBe(303);
      const chatUrl = started.headers.get('location')!;
      expect(chatUrl).toMatch(new RegExp(`^/sandbox/t\\.me/${sandboxBotUsername}/chat/[A-Za-z0-9_-]{24}$`));
      const [chat] = [...sandbox.telegram.chats.values()];
      expect(chat).toMatchObject({ firstName: 'Олена' });
      // What the bot reads: the code from the new chat, as Telegram sends it from a t.me link.
      expect(sandbox.telegram.updatesFrom(0, 100).map((update) => [update.message.chat.id, update.message.text])).toEqual([
        [chat!.id, `/start ${code}`],
      ]);
      sandbox.telegram.send(chat!.id, t.alerts.connected);
      const chatPage = await (await fetch(`${baseUrl}${chatUrl}`)).text();
      expect(chatPage).toContain(`/start ${code}`);
      expect(chatPage).toContain(t.alerts.connected);
      // A chat's page is reached only by the address its start gave; any other bot is not the sandbox's.
      expect((await fetch(`${baseUrl}/sandbox/t.me/${sandboxBotUsername}/chat/guessed-key`)).status).toBe(404);
      expect((await fetch(`${baseUrl}/sandbox/t.me/another_bot?start=${code}`)).status).toBe(404);

      // Live mode keeps Telegram's own link.
      await env().db.sql(`INSERT INTO telegram_bots (bot_id, username) VALUES ('555', 'office_alerts_bot')`);
      const live = await buildAppOn(env(), { platforms: 'live', publicUrl: 'https://office.example', telegramBotToken: '555:live-token' });
      try {
        const settings = (await live.inject({ url: '/api/telegram', headers: owner.headers })).json();
        expect(settings.link).toBe(`https://t.me/office_alerts_bot?start=${code}`);
      } finally {
        await live.close();
      }
    });
  },
  { sandbox, clock },
);
