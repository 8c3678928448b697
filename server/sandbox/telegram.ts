import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readJson, type PlatformCall } from './common';

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
}

/** What the bot sent: where, what, when (the sandbox's clock). */
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
  }

  toJSON(): PersistedTelegram {
    return { nextUpdateId: this.nextUpdateId, chats: [...this.chats.values()], blocked: [...this.blocked], sent: this.sent };
  }

  /** A user writes `text` to the bot from their private chat (a new chat gets the next free id). */
  userSays(text: string, chat: Partial<TelegramChat> = {}): PendingUpdate {
    const id = chat.id ?? 700_000_000 + this.chats.size + 1;
    const known = this.chats.get(id);
    const username = chat.username ?? known?.username ?? `sandbox_user_${id}`;
    const firstName = chat.firstName ?? known?.firstName ?? 'Оператор';
    this.chats.set(id, { id, username, firstName });
    this.blocked.delete(id);
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
    this.sent.push(message);
    if (this.sent.length > sentKept) this.sent.splice(0, this.sent.length - sentKept);
    this.persist();
    return { ok: true, message };
  }

  reset() {
    this.updates.splice(0);
    this.sent.splice(0);
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
