import { beforeEach, expect, it } from 'vitest';
import { sandboxBotToken } from '../../server/alerts/telegram-bot';
import { SandboxState } from '../../server/sandbox/index';
import { buildAppOn, describeEachDatabase, sandboxControl } from './helpers';

/**
 * Issue 42.4: the sandbox's Bot API answers as Telegram's (core.telegram.org/bots/api): only its
 * bot's token, methods in any case, parameters from JSON, form, multipart bodies and the query
 * string, getUpdates' offset, limit, allowed_updates and long polling, webhooks and their 409,
 * parse_mode with Telegram's refusals and the length counted after parsing, and the faults planned
 * for it.
 */
const sandbox = new SandboxState();

describeEachDatabase(
  "the sandbox's Telegram Bot API",
  (env) => {
    const bot = `/sandbox/api.telegram.org/bot${sandboxBotToken}`;
    const call = (method: string, payload?: object) =>
      env().app.inject({ method: 'POST', url: `${bot}/${method}`, ...(payload ? { payload } : {}) });

    beforeEach(async () => {
      sandbox.telegram.reset();
      sandbox.faults.splice(0);
      sandbox.telegram.releaseHeld();
    });

    it('takes only its bot’s token, and methods in any case', async () => {
      expect((await call('getMe')).json()).toEqual({
        ok: true,
        result: {
          id: 1000000001,
          is_bot: true,
          first_name: 'Shorts Office',
          username: 'shorts_office_sandbox_bot',
          can_join_groups: true,
          can_read_all_group_messages: false,
          supports_inline_queries: false,
          can_connect_to_business: false,
          has_main_web_app: false,
        },
      });
      expect((await env().app.inject({ url: `${bot}/GETME` })).json().ok).toBe(true);
      const stranger = await env().app.inject({ url: '/sandbox/api.telegram.org/bot123456:AAHstrangerstrangerstranger/getMe' });
      expect([stranger.statusCode, stranger.json()]).toEqual([401, { ok: false, error_code: 401, description: 'Unauthorized' }]);
      const malformed = await env().app.inject({ url: '/sandbox/api.telegram.org/botnot-a-token/getMe' });
      expect([malformed.statusCode, malformed.json()]).toEqual([404, { ok: false, error_code: 404, description: 'Not Found' }]);
      expect((await call('sendPigeon')).json()).toEqual({ ok: false, error_code: 404, description: 'Not Found' });

      // TELEGRAM_BOT_TOKEN, when set, is the bot instead.
      const configured = '4242:AAHconfiguredconfiguredconfigured';
      const app = await buildAppOn(env(), { telegramBotToken: configured, sandbox: { state: new SandboxState() } });
      try {
        expect((await app.inject({ url: `/sandbox/api.telegram.org/bot${configured}/getMe` })).json().result.id).toBe(4242);
        expect((await app.inject({ url: `${bot}/getMe` })).statusCode).toBe(401);
      } finally {
        await app.close();
      }
    }, 30_000);

    it('reads JSON, form and multipart bodies and the query string alike', async () => {
      sandbox.telegram.userSays('привіт', { id: 501 });
      const json = await call('sendMessage', { chat_id: 501, text: 'json' });
      const form = await env().app.inject({
        method: 'POST',
        url: `${bot}/SendMessage`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'chat_id=501&text=%3Cb%3Eform%3C%2Fb%3E&parse_mode=HTML',
      });
      const multipart = new FormData();
      multipart.set('chat_id', '501');
      multipart.set('text', '*multipart*');
      multipart.set('parse_mode', 'MarkdownV2');
      const request = new Request('http://x', { method: 'POST', body: multipart });
      const parts = await env().app.inject({
        method: 'POST',
        url: `${bot}/sendmessage`,
        headers: { 'content-type': request.headers.get('content-type')! },
        payload: Buffer.from(await request.arrayBuffer()),
      });
      const query = await env().app.inject({ url: `${bot}/sendMessage?chat_id=501&text=query` });
      const results = [json, form, parts, query].map((answer) => answer.json().result);
      expect(results.map((message) => [message.message_id, message.text, message.entities])).toEqual([
        [2, 'json', undefined],
        [3, 'form', [{ type: 'bold', offset: 0, length: 4 }]],
        [4, 'multipart', [{ type: 'bold', offset: 0, length: 9 }]],
        [5, 'query', undefined],
      ]);
      expect(sandbox.telegram.sent.map((message) => message.text)).toEqual(['json', 'form', 'multipart', 'query']);
    });

    it('parses parse_mode, refuses bad markup as Telegram does, and counts the 4096 characters after parsing', async () => {
      sandbox.telegram.userSays('/start', { id: 502 });
      const refused = await call('sendMessage', { chat_id: 502, text: '<b>жирний</i>', parse_mode: 'HTML' });
      expect([refused.statusCode, refused.json()]).toEqual([
        400,
        {
          ok: false,
          error_code: 400,
          description: 'Bad Request: can\'t parse entities: Unmatched end tag at byte offset 15, expected "</b>", found "</i>"',
        },
      ]);
      const v2 = await call('sendMessage', { chat_id: 502, text: 'Ціна 5.00', parse_mode: 'MarkdownV2' });
      expect(v2.json().description).toBe(
        "Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'",
      );
      expect((await call('sendMessage', { chat_id: 502, text: 'x', parse_mode: 'BBCode' })).json().description).toBe(
        'Bad Request: unsupported parse_mode',
      );
      expect((await call('sendMessage', { chat_id: 502, text: '<b> </b>', parse_mode: 'HTML' })).json().description).toBe(
        'Bad Request: message text is empty',
      );
      // Markup errors come before the chat is looked at.
      expect((await call('sendMessage', { chat_id: 999, text: '<x>', parse_mode: 'HTML' })).json().description).toMatch(
        /^Bad Request: can't parse/,
      );
      expect((await call('sendMessage', { chat_id: 999, text: 'x' })).json().description).toBe('Bad Request: chat not found');

      const letters = 'я'.repeat(4096);
      const long = await call('sendMessage', { chat_id: 502, text: `<b>${letters}</b>`, parse_mode: 'HTML' });
      expect(long.json().result.entities).toEqual([{ type: 'bold', offset: 0, length: 4096 }]);
      expect((await call('sendMessage', { chat_id: 502, text: `${letters}!` })).json()).toEqual({
        ok: false,
        error_code: 400,
        description: 'Bad Request: message is too long',
      });
      const commands = await call('sendMessage', { chat_id: 502, text: 'Надішліть /start' });
      expect(commands.json().result.entities).toEqual([{ type: 'bot_command', offset: 10, length: 6 }]);
    });

    it('gives updates from an offset, the last ones for a negative offset, up to a limit, of the types asked for', async () => {
      for (const text of ['/start ABCD2345', 'один', 'два', 'три']) sandbox.telegram.userSays(text, { id: 503 });
      const first = (await call('getUpdates', { limit: 2 })).json().result;
      expect(first.map((update: any) => update.message.text)).toEqual(['/start ABCD2345', 'один']);
      expect(first[0].message.entities).toEqual([{ type: 'bot_command', offset: 0, length: 6 }]);
      expect(first[1].message.entities).toBeUndefined();
      const ids = first.map((update: any) => update.update_id);
      // An offset confirms every update before it.
      expect((await call('getUpdates', { offset: ids[1] })).json().result.map((update: any) => update.message.text)).toEqual([
        'один',
        'два',
        'три',
      ]);
      expect((await call('getUpdates', { offset: -1 })).json().result.map((update: any) => update.message.text)).toEqual(['три']);
      expect((await call('getUpdates')).json().result.map((update: any) => update.message.text)).toEqual(['три']);

      const form = await env().app.inject({
        method: 'POST',
        url: `${bot}/getUpdates`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `offset=${ids[1] + 3}&allowed_updates=${encodeURIComponent('["callback_query"]')}`,
      });
      expect(form.json()).toEqual({ ok: true, result: [] });
      sandbox.telegram.userSays('не для цього бота', { id: 503 });
      expect((await call('getUpdates')).json().result).toEqual([]);
      expect((await call('getUpdates', { allowed_updates: [] })).json().result).toEqual([]);
      sandbox.telegram.userSays('знову', { id: 503 });
      expect((await call('getUpdates')).json().result.map((update: any) => update.message.text)).toEqual(['знову']);
    });

    it('holds a long poll until an update comes, ends it for a newer getUpdates, and never holds the server from closing', async () => {
      const held = call('getUpdates', { timeout: 30 });
      await expect.poll(() => sandbox.telegram.pollHeld).toBe(true);
      const started = Date.now();
      sandbox.telegram.userSays('/start QWERTY23', { id: 504 });
      expect((await held).json().result.map((update: any) => update.message.text)).toEqual(['/start QWERTY23']);
      expect(Date.now() - started).toBeLessThan(2000);

      const older = call('getUpdates', { offset: 1_000_000, timeout: 30 });
      await expect.poll(() => sandbox.telegram.pollHeld).toBe(true);
      const newer = call('getUpdates', { offset: 1_000_000, timeout: 0 });
      expect((await older).json()).toEqual({
        ok: false,
        error_code: 409,
        description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      });
      expect((await newer).json()).toEqual({ ok: true, result: [] });

      const state = new SandboxState();
      const app = await buildAppOn(env(), { sandbox: { state } });
      const poll = app.inject({ method: 'POST', url: `${bot}/getUpdates`, payload: { timeout: 30 } });
      await expect.poll(() => state.telegram.pollHeld).toBe(true);
      const closing = Date.now();
      await app.close();
      expect((await poll).json()).toEqual({ ok: true, result: [] });
      expect(Date.now() - closing).toBeLessThan(5000);
    }, 30_000);

    it('sets, reads and deletes a webhook, and refuses getUpdates with 409 while it is set', async () => {
      expect((await call('getWebhookInfo')).json()).toEqual({
        ok: true,
        result: { url: '', has_custom_certificate: false, pending_update_count: 0 },
      });
      expect((await call('setWebhook', { url: 'http://bot.example/hook' })).json()).toEqual({
        ok: false,
        error_code: 400,
        description: 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook',
      });
      expect((await call('setWebhook', { url: 'https://bot.example:9000/hook' })).json().description).toBe(
        'Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443',
      );
      expect((await call('setWebhook', { url: 'https://bot.example/hook', allowed_updates: ['message'] })).json()).toEqual({
        ok: true,
        result: true,
        description: 'Webhook was set',
      });
      expect((await call('setWebhook', { url: 'https://bot.example/hook' })).json().description).toBe('Webhook is already set');
      sandbox.telegram.userSays('привіт', { id: 505 });
      expect((await call('getWebhookInfo')).json().result).toEqual({
        url: 'https://bot.example/hook',
        has_custom_certificate: false,
        pending_update_count: 1,
        max_connections: 40,
      });
      const conflict = await call('getUpdates');
      expect([conflict.statusCode, conflict.json().description]).toEqual([
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      ]);
      expect((await call('deleteWebhook', { drop_pending_updates: true })).json()).toEqual({
        ok: true,
        result: true,
        description: 'Webhook was deleted',
      });
      expect((await call('deleteWebhook')).json().description).toBe('Webhook is already deleted');
      expect((await call('getUpdates')).json()).toEqual({ ok: true, result: [] });
    });

    it('answers the faults planned for Telegram: 429 with retry_after, 500', async () => {
      sandbox.telegram.userSays('привіт', { id: 506 });
      const plan = (fault: object) =>
        sandboxControl(env().app, { method: 'POST', url: '/sandbox/_faults', payload: { platform: 'telegram', ...fault } });
      expect((await plan({ step: 'sendMessage', kind: 'status-429', retryAfterSeconds: 7 })).statusCode).toBe(201);
      expect((await plan({ step: 'publish', kind: 'status-429' })).statusCode).toBe(400);
      const limited = await call('sendMessage', { chat_id: 506, text: 'x' });
      expect([limited.statusCode, limited.json()]).toEqual([
        429,
        { ok: false, error_code: 429, description: 'Too Many Requests: retry after 7', parameters: { retry_after: 7 } },
      ]);
      expect((await call('sendMessage', { chat_id: 506, text: 'x' })).json().ok).toBe(true);
      await plan({ step: 'getMe', kind: 'status-500' });
      expect((await call('getme')).json()).toEqual({ ok: false, error_code: 500, description: 'Internal Server Error' });
    });
  },
  { sandbox },
);
