import { Bot, GrammyError, HttpError } from 'grammy';
import { beforeEach, expect, it } from 'vitest';
import { sandboxBotToken } from '../../server/alerts/telegram-bot';
import { SandboxState } from '../../server/sandbox/index';
import { describeEachDatabase, sandboxControl, withSandboxServer } from './helpers';

/**
 * Issue 42.4's check: grammY (a Bot API client nobody here wrote) pointed at the sandbox over
 * HTTP works as against Telegram: bot.start() long-polls, bot.command('start') gets the code a
 * t.me link sends, an HTML message with a bad tag is refused with Telegram's error, and a 429's
 * retry_after is waited out. Real waits are the one second a planned 429 asks for.
 */
const sandbox = new SandboxState();

describeEachDatabase(
  'grammY against the sandbox’s Telegram',
  (env) => {
    const server = withSandboxServer(env);
    const newBot = () => new Bot(sandboxBotToken, { client: { apiRoot: `${server().baseUrl}/sandbox/api.telegram.org` } });
    const userSays = (text: string, chatId: number) =>
      sandboxControl(env().app, { method: 'POST', url: '/sandbox/_telegram/send', payload: { text, chatId } });
    const planFault = (step: string, kind: string, retryAfterSeconds?: number) =>
      sandboxControl(env().app, {
        method: 'POST',
        url: '/sandbox/_faults',
        payload: { platform: 'telegram', step, kind, retryAfterSeconds },
      });
    const getUpdatesCalls = () => sandbox.requests.filter((request) => /\/getUpdates$/i.test(request.url)).length;

    /** Starts long polling; resolves once grammY has called getMe and deleteWebhook and holds its first getUpdates. */
    async function start(bot: Bot) {
      let started!: () => void;
      const onStart = new Promise<void>((resolve) => (started = resolve));
      const running = bot.start({ onStart: () => started() });
      await onStart;
      return running;
    }

    beforeEach(() => {
      sandbox.telegram.reset();
      sandbox.faults.splice(0);
    });

    it('long-polls with bot.start(), and bot.command("start") receives the code a t.me link sends', async () => {
      const bot = newBot();
      const received = new Promise<string>((resolve) =>
        bot.command('start', async (context) => {
          resolve(context.match);
          await context.reply(`Код ${context.match} отримано`);
        }),
      );
      const running = start(bot);
      await expect.poll(() => sandbox.telegram.pollHeld).toBe(true);
      expect(bot.botInfo.username).toBe('shorts_office_sandbox_bot');
      const polls = getUpdatesCalls();

      expect((await userSays('/start ABCD2345', 601)).statusCode).toBe(201);
      expect(await received).toBe('ABCD2345');
      await expect
        .poll(() => sandbox.telegram.sent.map((message) => [message.chatId, message.text]))
        .toEqual([[601, 'Код ABCD2345 отримано']]);
      // One held request delivered the update: no busy loop of short polls.
      expect(getUpdatesCalls() - polls).toBeLessThanOrEqual(1);
      await bot.stop();
      await running;
      // bot.stop() confirmed the update: a new start gets nothing old.
      expect(sandbox.telegram.updatesFrom(0, 100)).toEqual([]);
    });

    it('refuses an HTML message with a bad tag with Telegram’s error, and sends a good one with its entities', async () => {
      await userSays('/start', 602);
      const bot = newBot();
      const refusal = await bot.api
        .sendMessage(602, '<b>Увага</b> <blink>!</blink>', { parse_mode: 'HTML' })
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(GrammyError);
      expect((refusal as GrammyError).error_code).toBe(400);
      expect((refusal as GrammyError).description).toBe(
        'Bad Request: can\'t parse entities: Unsupported start tag "blink" at byte offset 18',
      );

      const sent = await bot.api.sendMessage(602, '<b>Увага</b>: <a href="https://example.com/x">деталі</a>', { parse_mode: 'HTML' });
      expect([sent.text, sent.entities]).toEqual([
        'Увага: деталі',
        [
          { type: 'bold', offset: 0, length: 5 },
          { type: 'text_link', offset: 7, length: 6, url: 'https://example.com/x' },
        ],
      ]);
      expect(sent.chat).toMatchObject({ id: 602, type: 'private' });
    });

    it('answers a planned 429 with retry_after, which grammY’s long polling waits out before it polls again', async () => {
      await userSays('/start', 603);
      const bot = newBot();
      expect((await planFault('sendMessage', 'status-429', 3)).statusCode).toBe(201);
      const limited = (await bot.api.sendMessage(603, 'x').catch((error: unknown) => error)) as GrammyError;
      expect([limited.error_code, limited.description, limited.parameters]).toEqual([
        429,
        'Too Many Requests: retry after 3',
        { retry_after: 3 },
      ]);

      await planFault('getUpdates', 'status-429', 1);
      const received = new Promise<number>((resolve) => bot.command('start', () => resolve(Date.now())));
      const startedAt = Date.now();
      const running = start(bot);
      await expect.poll(() => sandbox.telegram.pollHeld, { timeout: 5000 }).toBe(true);
      await userSays('/start AFTER429', 603);
      expect((await received) - startedAt).toBeGreaterThanOrEqual(1000);
      await bot.stop();
      await running;
    }, 20_000);

    it('drops the connection when planned, which grammY reports as a network failure', async () => {
      await planFault('getMe', 'drop-connection');
      await expect(newBot().api.getMe()).rejects.toBeInstanceOf(HttpError);
      expect((await newBot().api.getMe()).id).toBe(1000000001);
    });
  },
  { sandbox },
);
