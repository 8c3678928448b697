import { beforeEach, expect, it, vi } from 'vitest';
import { sendTelegramJobName } from '../../server/alerts/buckets';
import { issueTelegramCode, pollTelegram } from '../../server/alerts/telegram-links';
import { telegramSettingsOf } from '../../server/jobs/alerts';
import { SandboxState } from '../../server/sandbox/index';
import { createUser, describeEachDatabase, sandboxControl, withSandboxServer } from './helpers';
import { ManualClock } from './manual-clock';

/**
 * Issue 42.4: the product's own Telegram client waits out Telegram's flood control. A 429's
 * `retry_after` (core.telegram.org/bots/api#responseparameters) puts an alert's send back for that
 * long without spending one of its retries, and keeps the update reader away for that long on the
 * injected clock; nothing here waits on real time.
 */
const clock = new ManualClock();
const sandbox = new SandboxState({ now: clock.now });

describeEachDatabase(
  'the product’s Telegram client under a 429',
  (env) => {
    withSandboxServer(env);
    const planFault = (step: string, retryAfterSeconds: number) =>
      sandboxControl(env().app, {
        method: 'POST',
        url: '/sandbox/_faults',
        payload: { platform: 'telegram', step, kind: 'status-429', retryAfterSeconds },
      });
    const calls = (method: string) => sandbox.requests.filter((request) => request.url.endsWith(`/${method}`)).length;

    beforeEach(() => {
      sandbox.telegram.reset();
      sandbox.faults.splice(0);
    });

    it('puts an alert’s send back for the seconds retry_after asks, with no retry spent, and sends it then', async () => {
      sandbox.telegram.userSays('/start', { id: 701 });
      await planFault('sendMessage', 30);
      const before = calls('sendMessage');
      const jobId = await env().queue!.send(sendTelegramJobName, { chatId: '701', text: 'Пост не вийшов' });
      env().queue!.nudge(sendTelegramJobName);
      const job = async () =>
        (
          await env().db.sql(
            `SELECT state, retry_count, extract(epoch FROM start_after - now())::float AS wait FROM pgboss.job WHERE id = $1`,
            [jobId],
          )
        ).rows[0];
      await vi.waitFor(
        async () => {
          const { state, retry_count: retries, wait } = await job();
          expect([state, retries]).toEqual(['created', 0]);
          expect(wait).toBeGreaterThan(25);
          expect(wait).toBeLessThanOrEqual(30);
        },
        { timeout: 15_000, interval: 50 },
      );
      expect(calls('sendMessage')).toBe(before + 1);
      expect(sandbox.telegram.sent).toEqual([]);

      // The 30 seconds pass (the queue goes by the database's clock).
      await env().db.sql(`UPDATE pgboss.job SET start_after = now() WHERE id = $1`, [jobId]);
      env().queue!.nudge(sendTelegramJobName);
      await vi.waitFor(() => expect(sandbox.telegram.sent.map((message) => message.text)).toEqual(['Пост не вийшов']), {
        timeout: 15_000,
        interval: 50,
      });
      await vi.waitFor(async () => expect((await job()).state).toBe('completed'), { timeout: 5000, interval: 50 });
      expect((await job()).retry_count).toBe(0);
    });

    it('reads the bot’s updates again only once retry_after has passed', async () => {
      const owner = await createUser(env(), 'owner');
      await issueTelegramCode(env().db, owner.id, clock.now());
      const code = (await env().db.sql(`SELECT connect_code FROM telegram_links WHERE user_id = $1`, [owner.id])).rows[0].connect_code;
      const settings = telegramSettingsOf(env().platforms);
      const now = clock.now();
      await planFault('getUpdates', 20);
      await expect(pollTelegram(env().db, env().queue!, settings, now)).rejects.toMatchObject({ code: 429, retryAfterSeconds: 20 });
      sandbox.telegram.userSays(`/start ${code}`, { id: 702 });
      const asked = calls('getUpdates');
      expect(await pollTelegram(env().db, env().queue!, settings, now + 19_000)).toBe(0);
      expect(calls('getUpdates')).toBe(asked);
      expect(await pollTelegram(env().db, env().queue!, settings, now + 20_001)).toBe(1);
      expect(calls('getUpdates')).toBe(asked + 1);
    });
  },
  { queue: 'work', sandbox, clock },
);
