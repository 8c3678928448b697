import crypto from 'node:crypto';
import type PgBoss from 'pg-boss';
import type { Static } from '@sinclair/typebox';
import type { TelegramSettings, TelegramTestResult } from '../../src/lib/contract/alerts';
import type { TelegramEvent } from '../../src/lib/contract/lists';
import { t } from '../messages';
import type { Database, RunSql } from '../db/connect';
import type { PlatformsMode } from '../platforms/types';
import { botIdOf, botLink, TelegramError, telegramBot, type TelegramMessage, type TelegramSettings as BotSettings } from './telegram-bot';
import { sendTelegramJobName, type SendTelegramData } from './buckets';

/**
 * A user's Telegram chat (issue 32.3). The settings screen asks for a one-time code; the user
 * sends it to the installation's bot (or opens https://t.me/<bot>?start=<code>, which sends
 * `/start <code>`); a worker reading the bot's updates finds the code and binds the chat it came
 * from (pollTelegram), and the bot says so in the chat. A code lasts `codeTtlMs`; a new one
 * replaces it, and the chat already connected stays until a code comes from another.
 */

type SettingsView = Static<typeof TelegramSettings>;

// No 0/O or 1/I: the code is read off a screen and typed.
const codeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const codeLength = 8;
export const codeTtlMs = 15 * 60_000;
/** How long one worker may read the bot's updates before another may take over. */
const pollLeaseMs = 60_000;

function newCode(): string {
  return Array.from({ length: codeLength }, () => codeAlphabet[crypto.randomInt(codeAlphabet.length)]).join('');
}

/** What the settings screen shows: whether there is a bot, the code while connecting, the chat once connected, the choices. */
export async function telegramSettingsOf(
  db: Database,
  userId: number,
  { mode, botToken }: { mode: PlatformsMode; botToken: string | null },
  now: number,
): Promise<SettingsView> {
  const [{ rows: links }, { rows: bots }] = await Promise.all([
    db.sql(`SELECT * FROM telegram_links WHERE user_id = $1`, [userId]),
    botToken ? db.sql(`SELECT username FROM telegram_bots WHERE bot_id = $1`, [botIdOf(botToken)]) : Promise.resolve({ rows: [] }),
  ]);
  const link = links[0];
  const bot: string | null = bots[0]?.username ?? null;
  const codeLive = link?.connect_code && new Date(link.code_expires_at).getTime() > now;
  return {
    available: botToken !== null,
    bot,
    state: codeLive ? 'connecting' : link?.chat_id != null ? 'connected' : 'off',
    code: codeLive ? link.connect_code : null,
    codeExpiresAt: codeLive ? new Date(link.code_expires_at).toISOString() : null,
    link: codeLive && bot ? botLink(mode, bot, link.connect_code) : null,
    chatName: link?.chat_id != null ? link.chat_name : null,
    failure: link?.chat_id != null ? link.failure : null,
    events: link?.events ?? ['post.failed', 'post.held', 'grant.revoked', 'profile.unhealthy'],
    digest: link?.digest ?? true,
  };
}

/** A new one-time code for the user, valid for codeTtlMs from `now`. */
export async function issueTelegramCode(db: Database, userId: number, now: number): Promise<void> {
  await db.sql(
    `INSERT INTO telegram_links (user_id, connect_code, code_expires_at) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET connect_code = EXCLUDED.connect_code, code_expires_at = EXCLUDED.code_expires_at`,
    [userId, newCode(), new Date(now + codeTtlMs)],
  );
}

export async function saveTelegramChoices(db: Database, userId: number, choices: { events: TelegramEvent[]; digest: boolean }) {
  await db.sql(
    `INSERT INTO telegram_links (user_id, events, digest) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET events = EXCLUDED.events, digest = EXCLUDED.digest`,
    [userId, [...new Set(choices.events)], choices.digest],
  );
}

export async function disconnectTelegram(db: Database, userId: number): Promise<void> {
  await db.sql(`DELETE FROM telegram_links WHERE user_id = $1`, [userId]);
}

/**
 * A test message to the user's connected chat, sent now through the bot (not the queue, so the
 * answer is the outcome). A chat Telegram refuses is marked as an alert's would be; one that takes
 * the test is no longer marked. Undefined when no chat is connected.
 */
export async function sendTelegramTest(
  db: Database,
  settings: BotSettings,
  userId: number,
): Promise<Static<typeof TelegramTestResult> | undefined> {
  const { rows } = await db.sql(`SELECT chat_id::text AS chat_id FROM telegram_links WHERE user_id = $1 AND chat_id IS NOT NULL`, [userId]);
  const chatId: string | undefined = rows[0]?.chat_id;
  if (!chatId) return undefined;
  try {
    await telegramBot.sendMessage(settings, chatId, t.alertTests.telegramMessage);
  } catch (error) {
    if (error instanceof TelegramError && error.chatLost) {
      await markChatLost(db, chatId);
      return { outcome: 'blocked' };
    }
    return { outcome: 'unreachable' };
  }
  await db.sql(`UPDATE telegram_links SET failure = NULL WHERE user_id = $1 AND chat_id = $2::bigint`, [userId, chatId]);
  return { outcome: 'sent' };
}

/** Telegram refused to deliver to the chat: every user it was connected for is told on the settings screen. */
export async function markChatLost(db: Database, chatId: string): Promise<void> {
  await db.sql(`UPDATE telegram_links SET failure = 'blocked' WHERE chat_id = $1::bigint`, [chatId]);
}

/** Whether the bot's name is known (rememberBot). */
export async function botKnown(db: Database, settings: BotSettings): Promise<boolean> {
  const { rows } = await db.sql(`SELECT 1 FROM telegram_bots WHERE bot_id = $1 AND username IS NOT NULL`, [botIdOf(settings.botToken!)]);
  return rows.length > 0;
}

/** The bot's name (getMe), kept per bot for the settings screen's link; its token's id keys it. */
export async function rememberBot(db: Database, settings: BotSettings): Promise<void> {
  const me = await telegramBot.getMe(settings);
  await db.sql(
    `INSERT INTO telegram_bots (bot_id, username) VALUES ($1, $2) ON CONFLICT (bot_id) DO UPDATE SET username = EXCLUDED.username`,
    [botIdOf(settings.botToken!), me.username ?? null],
  );
}

/** The code a message carries: the text itself, or `/start <code>` (a t.me link, or a group's `/start@bot <code>`). */
function codeIn(text: string | undefined): string | null {
  const match = /^\s*(?:\/start(?:@\w+)?\s+)?([A-Za-z0-9]{8})\s*$/.exec(text ?? '');
  return match ? match[1]!.toUpperCase() : null;
}

function chatNameOf(message: TelegramMessage): string {
  const { chat } = message;
  return (chat.username ? `@${chat.username}` : (chat.title ?? chat.first_name ?? String(chat.id))).slice(0, 200);
}

async function reply(run: RunSql, queue: PgBoss, chatId: number, text: string) {
  const data: SendTelegramData = { chatId: String(chatId), text };
  await queue.send(sendTelegramJobName, data, { db: { executeSql: run } });
}

/**
 * Reads what users wrote to the bot since last time, while anyone waits for a code to arrive (no
 * calls otherwise), one worker at a time. A message with a live code binds its chat and is
 * answered; any other recent text in a private chat is answered with how to get a code. Answers how many
 * chats were bound.
 */
export async function pollTelegram(db: Database, queue: PgBoss, settings: BotSettings, now: number): Promise<number> {
  const { rows: waiting } = await db.sql(`SELECT 1 FROM telegram_links WHERE connect_code IS NOT NULL AND code_expires_at > $1 LIMIT 1`, [
    new Date(now),
  ]);
  if (waiting.length === 0) return 0;
  const botId = botIdOf(settings.botToken!);
  const { rows: claimed } = await db.sql(
    `INSERT INTO telegram_bots (bot_id, polling_until) VALUES ($1, $2)
     ON CONFLICT (bot_id) DO UPDATE SET polling_until = EXCLUDED.polling_until
      WHERE telegram_bots.polling_until IS NULL OR telegram_bots.polling_until < $3
     RETURNING next_update_id::text AS next_update_id`,
    [botId, new Date(now + pollLeaseMs), new Date(now)],
  );
  if (claimed.length === 0) return 0;
  let offset = Number(claimed[0].next_update_id);
  try {
    const updates = await telegramBot.getUpdates(settings, offset);
    return await db.transaction(async (run) => {
      let bound = 0;
      for (const update of updates) {
        offset = Math.max(offset, update.update_id + 1);
        const message = update.message;
        if (!message) continue;
        const code = codeIn(message.text);
        const { rows } = code
          ? await run(
              `UPDATE telegram_links SET chat_id = $2, chat_name = $3, connect_code = NULL, code_expires_at = NULL, failure = NULL,
                      connected_at = $4
                WHERE connect_code = $1 AND code_expires_at > $4 RETURNING user_id`,
              [code, message.chat.id, chatNameOf(message), new Date(now)],
            )
          : { rows: [] };
        if (rows.length > 0) {
          bound++;
          await reply(run, queue, message.chat.id, t.alerts.connected);
        } else if (message.chat.type === 'private' && message.date * 1000 > now - codeTtlMs) {
          await reply(run, queue, message.chat.id, t.alerts.unknownCode);
        }
      }
      await run(`UPDATE telegram_bots SET next_update_id = $2, polling_until = NULL WHERE bot_id = $1`, [botId, offset]);
      return bound;
    });
  } catch (error) {
    // Telegram's 429 names the wait: no worker reads the updates again before it has passed.
    const pause = error instanceof TelegramError ? error.retryAfterMs : undefined;
    await db
      .sql(`UPDATE telegram_bots SET polling_until = $2 WHERE bot_id = $1`, [botId, pause === undefined ? null : new Date(now + pause)])
      .catch(() => undefined);
    throw error;
  }
}
