import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readJson, readParams, type PlatformCall } from './common';
import { sendConsentPage } from './consent';

/**
 * The Telegram Bot API as a bot sees it (core.telegram.org/bots/api): getMe, getUpdates with its
 * offset (an update is forgotten once an offset past it is asked for), sendMessage, which answers
 * 400 "chat not found" for a chat that never wrote to the bot and 403 for one that blocked it.
 * Any token shaped `<digits>:<secret>` is a bot; another is 401, as Telegram answers.
 */

export interface TelegramChat {
  id: number;
  username: string;
  firstName: string;
  /** The chat page's key (/sandbox/t.me/<bot>/chat/<key>): a chat opened there is read by whoever holds its address alone. */
  pageKey?: string;
}

/** What the bot sent, or (in `heard`) what a user wrote to it: where, what, when (the sandbox's clock). */
export interface SentTelegramMessage {
  chatId: number;
  text: string;
  at: string;
}

interface PendingUpdate {
  update_id: number;
  message: {
    message_id: number;
    from: { id: number; is_bot: false; first_name: string; username: string };
    chat: { id: number; type: 'private'; first_name: string; username: string };
    date: number;
    text: string;
  };
}

export interface PersistedTelegram {
  nextUpdateId: number;
  chats: TelegramChat[];
  blocked: number[];
  sent: SentTelegramMessage[];
  heard?: SentTelegramMessage[];
}

const sentKept = 2000;
export const sandboxBotUsername = 'shorts_office_sandbox_bot';

/** The sandbox's Telegram: the chats that wrote to the bot, their messages not yet read, and what the bot sent. */
export class TelegramSandbox {
  private nextUpdateId = 1;
  private nextMessageId = 1;
  private readonly updates: PendingUpdate[] = [];
  readonly chats = new Map<number, TelegramChat>();
  private readonly blocked = new Set<number>();
  readonly sent: SentTelegramMessage[] = [];
  private readonly heard: SentTelegramMessage[] = [];

  constructor(
    private readonly now: () => number,
    private readonly persist: () => void,
  ) {}

  load(saved: PersistedTelegram | undefined) {
    if (!saved) return;
    this.nextUpdateId = saved.nextUpdateId;
    for (const chat of saved.chats) this.chats.set(chat.id, chat);
    for (const id of saved.blocked) this.blocked.add(id);
    this.sent.push(...saved.sent);
    this.heard.push(...(saved.heard ?? []));
  }

  toJSON(): PersistedTelegram {
    return {
      nextUpdateId: this.nextUpdateId,
      chats: [...this.chats.values()],
      blocked: [...this.blocked],
      sent: this.sent,
      heard: this.heard,
    };
  }

  /** A user writes `text` to the bot from their private chat (a new chat gets the next free id). */
  userSays(text: string, chat: Partial<TelegramChat> = {}): PendingUpdate {
    const id = chat.id ?? 700_000_000 + this.chats.size + 1;
    const known = this.chats.get(id);
    const username = chat.username ?? known?.username ?? `sandbox_user_${id}`;
    const firstName = chat.firstName ?? known?.firstName ?? 'Оператор';
    this.chats.set(id, { id, username, firstName, pageKey: chat.pageKey ?? known?.pageKey });
    this.blocked.delete(id);
    this.keep(this.heard, { chatId: id, text, at: new Date(this.now()).toISOString() });
    const update: PendingUpdate = {
      update_id: this.nextUpdateId++,
      message: {
        message_id: this.nextMessageId++,
        from: { id, is_bot: false, first_name: firstName, username },
        chat: { id, type: 'private', first_name: firstName, username },
        date: Math.floor(this.now() / 1000),
        text,
      },
    };
    this.updates.push(update);
    this.persist();
    return update;
  }

  block(chatId: number) {
    this.blocked.add(chatId);
    this.persist();
  }

  /** getUpdates: those at `offset` or later; asking with an offset confirms (forgets) every earlier one. */
  updatesFrom(offset: number, limit: number): PendingUpdate[] {
    if (offset > 0) this.updates.splice(0, this.updates.filter((update) => update.update_id < offset).length);
    return this.updates.filter((update) => update.update_id >= offset).slice(0, limit);
  }

  /** sendMessage: the message, or Telegram's refusal. */
  send(chatId: number, text: string): { ok: true; message: SentTelegramMessage } | { ok: false; code: number; description: string } {
    if (!this.chats.has(chatId)) return { ok: false, code: 400, description: 'Bad Request: chat not found' };
    if (this.blocked.has(chatId)) return { ok: false, code: 403, description: 'Forbidden: bot was blocked by the user' };
    if (text.trim() === '') return { ok: false, code: 400, description: 'Bad Request: message text is empty' };
    if ([...text].length > 4096) return { ok: false, code: 400, description: 'Bad Request: message is too long' };
    const message = { chatId, text, at: new Date(this.now()).toISOString() };
    this.keep(this.sent, message);
    this.persist();
    return { ok: true, message };
  }

  private keep(list: SentTelegramMessage[], message: SentTelegramMessage) {
    list.push(message);
    if (list.length > sentKept) list.splice(0, list.length - sentKept);
  }

  /** A new chat, as a new Telegram user, opened from the chat page: it writes `text` to the bot first. */
  startChat(text: string, firstName: string): TelegramChat {
    let id = 700_000_001 + this.chats.size;
    while (this.chats.has(id)) id++;
    this.userSays(text, { id, firstName, pageKey: crypto.randomBytes(18).toString('base64url') });
    return this.chats.get(id)!;
  }

  chatOfPage(pageKey: string): TelegramChat | undefined {
    return [...this.chats.values()].find((chat) => chat.pageKey !== undefined && chat.pageKey === pageKey);
  }

  /** The chat as its user sees it: what they wrote and what the bot answered, oldest first. */
  historyOf(chatId: number): (SentTelegramMessage & { fromBot: boolean })[] {
    const mine = (message: SentTelegramMessage) => message.chatId === chatId;
    return [
      ...this.heard.filter(mine).map((message) => ({ ...message, fromBot: false })),
      ...this.sent.filter(mine).map((message) => ({ ...message, fromBot: true })),
    ].sort((a, b) => a.at.localeCompare(b.at));
  }

  reset() {
    this.updates.splice(0);
    this.sent.splice(0);
    this.heard.splice(0);
    this.chats.clear();
    this.blocked.clear();
    this.persist();
  }
}

const botToken = /^\d{1,20}:[A-Za-z0-9_-]{1,100}$/;

const failure = (reply: FastifyReply, code: number, description: string) =>
  reply.status(code).send({ ok: false, error_code: code, description });

/** The Bot API's parameters: the query string, then a JSON body over it. */
async function paramsOf(request: FastifyRequest<PlatformCall>): Promise<Record<string, unknown>> {
  return { ...request.query, ...(request.method === 'POST' ? await readJson(request) : {}) };
}

const whole = (value: unknown, fallback: number) => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : fallback;
};

/** The Bot API host, mounted at /sandbox/api.telegram.org. */
export function telegramSandbox(telegram: TelegramSandbox) {
  return async (api: FastifyInstance) => {
    api.route<PlatformCall>({
      method: ['GET', 'POST'],
      url: '/bot:token/:method',
      handler: async (request, reply) => {
        if (!botToken.test(request.params.token ?? '')) return failure(reply, 401, 'Unauthorized');
        const params = await paramsOf(request);
        const botId = Number(request.params.token!.split(':')[0]);
        switch (request.params.method) {
          case 'getMe':
            return { ok: true, result: { id: botId, is_bot: true, first_name: 'Shorts Office', username: sandboxBotUsername } };
          case 'getUpdates':
            return {
              ok: true,
              result: telegram.updatesFrom(whole(params.offset, 0), Math.min(100, Math.max(1, whole(params.limit, 100)))),
            };
          case 'sendMessage': {
            const chatId = whole(params.chat_id, NaN);
            if (Number.isNaN(chatId)) return failure(reply, 400, 'Bad Request: chat_id is empty');
            const sent = telegram.send(chatId, typeof params.text === 'string' ? params.text : '');
            if (!sent.ok) return failure(reply, sent.code, sent.description);
            const chat = telegram.chats.get(chatId)!;
            return {
              ok: true,
              result: {
                message_id: telegram.sent.length,
                from: { id: botId, is_bot: true, first_name: 'Shorts Office', username: sandboxBotUsername },
                chat: { id: chatId, type: 'private', first_name: chat.firstName, username: chat.username },
                date: Math.floor(Date.parse(sent.message.at) / 1000),
                text: sent.message.text,
              },
            };
          }
          default:
            return failure(reply, 404, 'Not Found');
        }
      },
    });
  };
}

/**
 * The sandbox's Telegram controls: `GET /sandbox/_telegram` (what the bot sent, oldest first, and
 * the chats that wrote to it), `POST /sandbox/_telegram/send` ({ text, chatId?, username?,
 * firstName? }: a user writes to the bot, as when they send it their code), `POST
 * /sandbox/_telegram/block` ({ chatId }: the user blocks the bot), `DELETE /sandbox/_telegram`.
 */
export function telegramControls(telegram: TelegramSandbox) {
  return async (sandbox: FastifyInstance) => {
    sandbox.get('/_telegram', async () => ({ messages: telegram.sent, chats: [...telegram.chats.values()] }));
    sandbox.post('/_telegram/send', async (request, reply) => {
      const body = await readJson(request);
      const text = body.text;
      const chatId = body.chatId === undefined ? undefined : whole(body.chatId, NaN);
      const named = (value: unknown) => value === undefined || (typeof value === 'string' && value.length > 0 && value.length <= 64);
      if (typeof text !== 'string' || text === '' || Number.isNaN(chatId) || !named(body.username) || !named(body.firstName)) {
        return reply.status(400).send({ message: 'Expected { text, chatId?, username?, firstName? }' });
      }
      const update = telegram.userSays(text, { id: chatId, username: body.username, firstName: body.firstName });
      return reply.status(201).send({ update });
    });
    sandbox.post('/_telegram/block', async (request, reply) => {
      const chatId = whole((await readJson(request)).chatId, NaN);
      if (!telegram.chats.has(chatId)) return reply.status(404).send({ message: 'No chat with that id wrote to the bot' });
      telegram.block(chatId);
      return reply.status(204).send();
    });
    sandbox.delete('/_telegram', async () => {
      telegram.reset();
      return { messages: telegram.sent, chats: [] };
    });
  };
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function chatPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="uk"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:0 .75rem;background:#e7ebf0;color:#0f172a}main{max-width:34rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px #0002}h1{font-size:1.25rem;margin-top:0}.note{color:#475569;font-size:.9rem}.bubble{margin:.5rem 0;padding:.5rem .75rem;border-radius:12px;max-width:85%;white-space:pre-wrap;overflow-wrap:anywhere}.user{background:#dbeafe;margin-left:auto}.bot{background:#f1f5f9}.who{display:block;font-size:.75rem;color:#475569}ol{list-style:none;padding:0;display:flex;flex-direction:column}label{display:block;margin-top:1rem;font-weight:600}input[type=text]{font:inherit;width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #64748b;border-radius:8px}.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.25rem;align-items:center}button,.button{font:inherit;padding:.6rem 1.4rem;border-radius:8px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer;text-decoration:none}.secondary{background:#fff;color:#1d4ed8}code{overflow-wrap:anywhere}</style>
</head><body><main>${body}</main></body></html>`;
}

const sandboxNote = '<p class="note">Це чат пісочниці: у режимі live посилання відкриває справжній Telegram.</p>';

/**
 * What t.me is to a user, for the sandbox's bot: `GET /sandbox/t.me/<bot>?start=<code>` shows the
 * bot and the message the link sends, `/start <code>`; 'Почати' sends it from a new chat, as a new
 * Telegram user would, and opens that chat's page, where the bot's answers appear (the settings
 * screen's link goes here in sandbox mode). Not a control: every operator connecting Telegram in
 * the sandbox comes here, and a chat's page is reached only by the address its 'Почати' gave.
 */
export function telegramChatPages(telegram: TelegramSandbox, mount: string) {
  return async (pages: FastifyInstance) => {
    const notFound = (reply: FastifyReply) =>
      sendConsentPage(reply.status(404), chatPage('Не знайдено', '<h1>Такого бота чи чату в пісочниці немає</h1>'));

    pages.get<PlatformCall>('/:bot', async (request, reply) => {
      const { bot } = request.params;
      if (bot !== sandboxBotUsername) return notFound(reply);
      const start = request.query.start ?? '';
      const text = start ? `/start ${start}` : '/start';
      return sendConsentPage(
        reply,
        chatPage(
          `Telegram пісочниці: @${bot}`,
          `<h1>Бот @${escapeHtml(bot)}</h1>
<p>Кнопка «Почати» надішле боту повідомлення:</p>
<p><code>${escapeHtml(text)}</code></p>
${sandboxNote}
<form method="post">
<label for="firstName">Ваше імʼя в Telegram пісочниці</label>
<input type="text" id="firstName" name="firstName" maxlength="64" autocomplete="name" value="Оператор">
<div class="actions"><button type="submit">Почати</button></div>
</form>`,
        ),
      );
    });

    pages.post<PlatformCall>('/:bot', async (request, reply) => {
      const { bot } = request.params;
      if (bot !== sandboxBotUsername) return notFound(reply);
      const params = await readParams(request);
      const start = request.query.start ?? '';
      const firstName = (params.firstName ?? '').trim().slice(0, 64) || 'Оператор';
      const chat = telegram.startChat(start ? `/start ${start}` : '/start', firstName);
      return reply.redirect(`${mount}/t.me/${bot}/chat/${chat.pageKey}`, 303);
    });

    pages.get<PlatformCall>('/:bot/chat/:key', async (request, reply) => {
      const { bot, key } = request.params;
      const chat = bot === sandboxBotUsername ? telegram.chatOfPage(key ?? '') : undefined;
      if (!chat) return notFound(reply);
      const messages = telegram
        .historyOf(chat.id)
        .map(
          (message) =>
            `<li class="bubble ${message.fromBot ? 'bot' : 'user'}"><span class="who">${message.fromBot ? `@${escapeHtml(bot!)}` : escapeHtml(chat.firstName)}</span>${escapeHtml(message.text)}</li>`,
        )
        .join('');
      return sendConsentPage(
        reply,
        chatPage(
          `Telegram пісочниці: чат із @${bot}`,
          `<h1>Чат із ботом @${escapeHtml(bot!)}</h1>
<p class="note">Ви: ${escapeHtml(chat.firstName)} (@${escapeHtml(chat.username)}). Бот відповідає за кілька секунд: оновіть сторінку, щоб побачити відповідь.</p>
<ol aria-label="Повідомлення">${messages}</ol>
${sandboxNote}
<div class="actions"><a class="button" href="${mount}/t.me/${escapeHtml(bot!)}/chat/${escapeHtml(key!)}">Оновити</a><a class="button secondary" href="/setting">До налаштувань</a></div>`,
        ),
      );
    });
  };
}
