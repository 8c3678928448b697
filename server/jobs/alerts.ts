import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/connect';
import type { Timer } from '../clock';
import type { PlatformSettings } from '../platforms/profile-context';
import { botTokenOf, TelegramError, telegramBot, type TelegramSettings } from '../alerts/telegram-bot';
import { flushDueAlerts, raiseAccessFailures, sendTelegramJobName, type SendTelegramData } from '../alerts/buckets';
import { queueDigests } from '../alerts/digest';
import { botKnown, markChatLost, pollTelegram, rememberBot } from '../alerts/telegram-links';
import { attemptDelivery, deliverWebhookJobName, queueDueDeliveries, type DeliverWebhookData } from '../alerts/webhooks';
import { DeferJob } from '../engine/runner';
import type { Queue } from './queue';
import type { JobContext } from './types';

/**
 * The alerts' moving parts in a worker (issue 32.3): the ticker, which on the injected clock
 * raises failed accesses, turns due buckets into messages and deliveries, hands due retries to the
 * queue and reads the bot's updates while a code waits; and the handlers of the messages, the
 * deliveries and the morning digest.
 */

/** How often the ticker looks: the latest a code is noticed or a due retry leaves, beyond the group window. */
export const alertTickMs = 2000;
/**
 * A bot whose getMe failed is asked again after a pause that doubles up to 10 minutes: soon while
 * this server's own sandbox is still starting, rarely for a wrong token or Telegram unreachable.
 */
const botRetryMs = { first: 5000, most: 10 * 60_000 };

export function telegramSettingsOf(platforms: PlatformSettings): TelegramSettings {
  return {
    mode: platforms.mode,
    sandboxOrigin: platforms.sandboxOrigin,
    botToken: botTokenOf(platforms.mode, platforms.telegramBotToken),
  };
}

export async function sendTelegram(data: SendTelegramData, { db, platforms, log }: JobContext): Promise<void> {
  try {
    await telegramBot.sendMessage(telegramSettingsOf(platforms), data.chatId, data.text);
  } catch (error) {
    // Flood control (core.telegram.org/bots/api#responseparameters): the send waits the seconds Telegram asked, no retry spent.
    if (error instanceof TelegramError && error.retryAfterMs !== undefined) throw new DeferJob(error.retryAfterMs / 1000);
    // A chat that blocked the bot stays blocked: retrying spends the bot's rate limit on nothing.
    if (!(error instanceof TelegramError) || !error.chatLost) throw error;
    await markChatLost(db, data.chatId);
    log.info({ code: error.code }, 'Telegram refused the chat: marked blocked');
  }
}

export async function deliverWebhook(data: DeliverWebhookData, { db, keys, platforms }: JobContext): Promise<void> {
  await attemptDelivery(db, keys.secretsAtRest, data.deliveryId, { mode: platforms.mode, now: platforms.clock.now });
}

export async function sendDigests({ db, queue, platforms, log }: JobContext): Promise<void> {
  const queued = await queueDigests(db, queue, platforms.clock.now());
  log.info({ queued }, 'morning digests queued');
}

interface TickerOptions {
  db: Database;
  queue: Queue;
  log: FastifyBaseLogger;
  platforms: PlatformSettings;
  groupSeconds: number;
}

/** Starts the ticker on the platforms' clock; `stop` waits for a tick under way. */
export function startAlertTicker({ db, queue, log, platforms, groupSeconds }: TickerOptions): { stop(): Promise<void> } {
  const { clock } = platforms;
  let botAskAt = -Infinity;
  let botPause = botRetryMs.first;
  let ticking: Promise<void> | null = null;

  const step = async (name: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      log.warn({ err: error }, `alerts: ${name} failed`);
    }
  };

  const tick = async () => {
    const now = clock.now();
    await step('raising failed accesses', () => raiseAccessFailures(db, now));
    await step('flushing alerts', async () => {
      const { messages, deliveries } = await flushDueAlerts(db, queue, now, groupSeconds * 1000);
      if (messages > 0) queue.nudge(sendTelegramJobName);
      if (deliveries > 0) queue.nudge(deliverWebhookJobName);
    });
    await step('queueing due deliveries', async () => {
      if ((await queueDueDeliveries(db, queue, now)) > 0) queue.nudge(deliverWebhookJobName);
    });
    const telegram = telegramSettingsOf(platforms);
    if (!telegram.botToken) return;
    if (now >= botAskAt) {
      await step('asking Telegram for the bot', async () => {
        if (await botKnown(db, telegram)) return;
        await rememberBot(db, telegram).then(
          () => (botPause = botRetryMs.first),
          (error: unknown) => {
            botAskAt = now + Math.max(botPause, error instanceof TelegramError ? (error.retryAfterMs ?? 0) : 0);
            botPause = Math.min(botPause * 2, botRetryMs.most);
            throw error;
          },
        );
      });
    }
    await step('reading the bot’s updates', async () => {
      if ((await pollTelegram(db, queue, telegram, now)) > 0) queue.nudge(sendTelegramJobName);
    });
  };

  const timer: Timer = clock.setInterval(() => {
    if (ticking) return ticking;
    ticking = tick().finally(() => (ticking = null));
    return ticking;
  }, alertTickMs);

  return {
    async stop() {
      timer.clear();
      await ticking;
    },
  };
}
