import { Agent, fetch } from 'undici';
import type { PlatformsMode } from '../platforms/types';

/**
 * The installation's Telegram bot (TELEGRAM_BOT_TOKEN), through the Bot API's own methods: getMe
 * for its name, getUpdates for the codes users send it, sendMessage for alerts. Live mode calls
 * api.telegram.org; sandbox mode its mirror under `/sandbox/api.telegram.org` of this server
 * (server/sandbox/telegram/). Calls go straight out, not through a profile's proxy: the bot
 * is the installation's, not a profile's.
 */

/** The sandbox's own bot, used in sandbox mode when TELEGRAM_BOT_TOKEN is unset. */
export const sandboxBotToken = '1000000001:sandbox-bot-token';

export interface TelegramSettings {
  mode: PlatformsMode;
  /** Where this server's sandbox answers, as config.sandboxOrigin. */
  sandboxOrigin: string;
  /** TELEGRAM_BOT_TOKEN; in sandbox mode the sandbox's bot when unset; null in live mode without it (no Telegram). */
  botToken: string | null;
}

/** The token in use: the one given, else in sandbox mode the sandbox's bot. */
export function botTokenOf(mode: PlatformsMode, configured: string | undefined): string | null {
  return configured ?? (mode === 'sandbox' ? sandboxBotToken : null);
}

/**
 * Where the settings screen sends the user with their code: Telegram's own link in live mode; in
 * sandbox mode the sandbox's chat page on this server (server/sandbox/telegram/), so no real
 * Telegram is opened for a bot that is not there.
 */
export function botLink(mode: PlatformsMode, bot: string, code: string): string {
  const start = `${encodeURIComponent(bot)}?start=${encodeURIComponent(code)}`;
  return mode === 'live' ? `https://t.me/${start}` : `/sandbox/t.me/${start}`;
}

/** A token is `<bot id>:<secret>`; the id keys what is kept per bot. */
export function botIdOf(token: string): string {
  return token.slice(0, token.indexOf(':'));
}

/** A Bot API answer with `ok: false`: its error_code and description, and retry_after on a 429. */
export class TelegramError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(`Telegram ${code}: ${description}`);
  }

  /** How long Telegram's flood control asks to wait before the next call (a 429's parameters.retry_after), if it asked. */
  get retryAfterMs(): number | undefined {
    return this.code === 429 && this.retryAfterSeconds !== undefined ? this.retryAfterSeconds * 1000 : undefined;
  }

  /** The chat is gone for this bot (blocked, deleted, never started): sending again cannot help. */
  get chatLost(): boolean {
    return this.code === 403 || (this.code === 400 && /chat not found/i.test(this.description));
  }
}

export interface TelegramUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}

export interface TelegramMessage {
  message_id: number;
  from?: TelegramUser;
  chat: { id: number; type: string; first_name?: string; username?: string; title?: string };
  date: number;
  text?: string;
}

export interface TelegramUpdate {
  update_id: number;
  message?: TelegramMessage;
}

// Bot API calls are small: a silent Telegram costs one tick or one retry, not a worker.
const dispatcher = new Agent({ connect: { timeout: 10_000 }, headersTimeout: 15_000, bodyTimeout: 15_000 });
const totalMs = 20_000;

function baseUrl({ mode, sandboxOrigin }: Pick<TelegramSettings, 'mode' | 'sandboxOrigin'>): string {
  return mode === 'live' ? 'https://api.telegram.org' : `${sandboxOrigin.replace(/\/$/, '')}/sandbox/api.telegram.org`;
}

async function call<T>(settings: TelegramSettings, method: string, params: object): Promise<T> {
  if (!settings.botToken) throw new Error('TELEGRAM_BOT_TOKEN is not set');
  const response = await fetch(`${baseUrl(settings)}/bot${settings.botToken}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
    dispatcher,
    signal: AbortSignal.timeout(totalMs),
  });
  const answer = (await response.json().catch(() => ({ ok: false, error_code: response.status, description: response.statusText }))) as {
    ok: boolean;
    result?: T;
    error_code?: number;
    description?: string;
    parameters?: { retry_after?: number };
  };
  if (!answer.ok) {
    throw new TelegramError(answer.error_code ?? response.status, answer.description ?? '', answer.parameters?.retry_after);
  }
  return answer.result as T;
}

export const telegramBot = {
  getMe: (settings: TelegramSettings) => call<TelegramUser>(settings, 'getMe', {}),
  /** Short polling: what came since `offset`, at once (no long poll holding a worker's tick). */
  getUpdates: (settings: TelegramSettings, offset: number) =>
    call<TelegramUpdate[]>(settings, 'getUpdates', { offset, timeout: 0, limit: 100, allowed_updates: ['message'] }),
  /** Plain text: alerts carry titles and platform words that Markdown or HTML would have to escape. */
  sendMessage: (settings: TelegramSettings, chatId: string, text: string) =>
    call<TelegramMessage>(settings, 'sendMessage', { chat_id: chatId, text, link_preview_options: { is_disabled: true } }),
};
