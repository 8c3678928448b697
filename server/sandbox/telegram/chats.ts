import crypto from 'node:crypto';
import { sandboxBotToken } from '../../alerts/telegram-bot';
import type { TelegramFaults } from './bot-api';
import { botCommands, type Formatted, type MessageEntity } from './formatting';

/**
 * The sandbox's Telegram as its one bot sees it (core.telegram.org/bots/api): the chats that wrote
 * to it, the updates not yet confirmed, a webhook when one is set, and what it sent.
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
  /** The formatting the text carries (parse_mode parsed, or entities given), when any. */
  entities?: MessageEntity[];
}

export interface TelegramUpdate {
  update_id: number;
  message: {
    message_id: number;
    from: { id: number; is_bot: false; first_name: string; username: string };
    chat: { id: number; type: 'private'; first_name: string; username: string };
    date: number;
    text: string;
    entities?: MessageEntity[];
  };
}

export interface TelegramWebhook {
  url: string;
  maxConnections: number;
  allowedUpdates?: string[];
  secretToken?: string;
}

export interface PersistedTelegram {
  nextUpdateId: number;
  chats: TelegramChat[];
  blocked: number[];
  sent: SentTelegramMessage[];
  heard?: SentTelegramMessage[];
  webhook?: TelegramWebhook | null;
  allowedUpdates?: string[];
}

const sentKept = 2000;
/** Telegram keeps an update for 24 hours until it is confirmed (getUpdates). */
const updateKeptMs = 24 * 3600_000;
export const sandboxBotUsername = 'shorts_office_sandbox_bot';
export const sandboxBotName = 'Shorts Office';

/** Update types a bot gets when it asks for none in particular (getUpdates' allowed_updates). */
const defaultUpdateTypes = (type: string) => !['chat_member', 'message_reaction', 'message_reaction_count'].includes(type);

/** The sandbox's Telegram: the chats that wrote to the bot, their messages not yet read, and what the bot sent. */
export class TelegramSandbox {
  private nextUpdateId = 1;
  private readonly nextMessageId = new Map<number, number>();
  private readonly updates: TelegramUpdate[] = [];
  readonly chats = new Map<number, TelegramChat>();
  private readonly blocked = new Set<number>();
  readonly sent: SentTelegramMessage[] = [];
  private readonly heard: SentTelegramMessage[] = [];
  /** The one token that is this bot (TELEGRAM_BOT_TOKEN, else the sandbox's own); any other is 401, as Telegram answers. */
  private token = sandboxBotToken;
  webhook: TelegramWebhook | null = null;
  /** The update types the last getUpdates or setWebhook asked for; absent: the default ones. */
  allowedUpdates: string[] | undefined;
  /** The long poll held open, if any: waking it answers it now; a second getUpdates ends it with 409. */
  private held: { wake: () => void; end: () => void } | null = null;

  constructor(
    private readonly now: () => number,
    private readonly persist: () => void,
    /** The sandbox's fault plan for a Bot API method (`POST /sandbox/_faults` with platform telegram). */
    readonly takeFault: TelegramFaults = () => undefined,
  ) {}

  load(saved: PersistedTelegram | undefined) {
    if (!saved) return;
    this.nextUpdateId = saved.nextUpdateId;
    for (const chat of saved.chats) this.chats.set(chat.id, chat);
    for (const id of saved.blocked) this.blocked.add(id);
    this.sent.push(...saved.sent);
    this.heard.push(...(saved.heard ?? []));
    this.webhook = saved.webhook ?? null;
    this.allowedUpdates = saved.allowedUpdates;
  }

  toJSON(): PersistedTelegram {
    return {
      nextUpdateId: this.nextUpdateId,
      chats: [...this.chats.values()],
      blocked: [...this.blocked],
      sent: this.sent,
      heard: this.heard,
      webhook: this.webhook,
      allowedUpdates: this.allowedUpdates,
    };
  }

  /** The bot's token from now on (the app passes TELEGRAM_BOT_TOKEN, or the sandbox's own bot's). */
  useToken(token: string) {
    this.token = token;
  }

  isBot(token: string): boolean {
    return token === this.token;
  }

  get botId(): number {
    return Number(this.token.split(':')[0]);
  }

  /** A user writes `text` to the bot from their private chat (a new chat gets the next free id). */
  userSays(text: string, chat: Partial<TelegramChat> = {}): TelegramUpdate {
    const id = chat.id ?? 700_000_000 + this.chats.size + 1;
    const known = this.chats.get(id);
    const username = chat.username ?? known?.username ?? `sandbox_user_${id}`;
    const firstName = chat.firstName ?? known?.firstName ?? 'Оператор';
    this.chats.set(id, { id, username, firstName, pageKey: chat.pageKey ?? known?.pageKey });
    this.blocked.delete(id);
    this.keep(this.heard, { chatId: id, text, at: new Date(this.now()).toISOString() });
    // The user's Telegram app marks the commands in what they write (a t.me link's `/start <code>` among them).
    const entities = botCommands(text);
    const update: TelegramUpdate = {
      update_id: this.nextUpdateId++,
      message: {
        message_id: this.messageIdIn(id),
        from: { id, is_bot: false, first_name: firstName, username },
        chat: { id, type: 'private', first_name: firstName, username },
        date: Math.floor(this.now() / 1000),
        text,
        ...(entities.length > 0 ? { entities } : {}),
      },
    };
    // Updates of a type the bot did not ask for are not kept for it (getUpdates' allowed_updates).
    const wanted = this.webhook?.allowedUpdates ?? this.allowedUpdates;
    if (wanted && wanted.length > 0 ? wanted.includes('message') : defaultUpdateTypes('message')) {
      this.updates.push(update);
      this.held?.wake();
    }
    this.persist();
    return update;
  }

  block(chatId: number) {
    this.blocked.add(chatId);
    this.persist();
  }

  /** Updates still kept: unconfirmed and younger than a day. */
  private pending(): TelegramUpdate[] {
    const oldest = Math.floor((this.now() - updateKeptMs) / 1000);
    const stale = this.updates.findIndex((update) => update.message.date >= oldest);
    this.updates.splice(0, stale < 0 ? this.updates.length : stale);
    return this.updates;
  }

  get pendingCount(): number {
    return this.pending().length;
  }

  /**
   * getUpdates: those from `offset` on; an offset confirms (forgets) every earlier update, a
   * negative one keeps only the last -offset of them.
   */
  updatesFrom(offset: number, limit: number): TelegramUpdate[] {
    const updates = this.pending();
    if (offset < 0) updates.splice(0, Math.max(0, updates.length + offset));
    else if (offset > 0) updates.splice(0, updates.filter((update) => update.update_id < offset).length);
    return updates.slice(0, limit);
  }

  /**
   * Holds a getUpdates with nothing to answer until an update comes, `ms` pass, `abandoned`
   * settles (the client left, the server closes) or another getUpdates comes: then 'conflict'.
   */
  async hold(ms: number, abandoned: Promise<void>): Promise<'woken' | 'conflict'> {
    let outcome: 'woken' | 'conflict' = 'woken';
    let timer: NodeJS.Timeout | undefined;
    const poll = {} as { wake: () => void; end: () => void };
    await new Promise<void>((resolve) => {
      poll.wake = resolve;
      poll.end = () => {
        outcome = 'conflict';
        resolve();
      };
      this.held = poll;
      timer = setTimeout(resolve, ms);
      void abandoned.then(resolve);
    });
    clearTimeout(timer);
    if (this.held === poll) this.held = null;
    return outcome;
  }

  /** A getUpdates came: the one held open, if any, ends in conflict, as Telegram lets one bot instance poll. */
  endHeld() {
    this.held?.end();
  }

  /** Answers the long poll held open, if any, as a server that closes does. */
  releaseHeld() {
    this.held?.wake();
  }

  get pollHeld(): boolean {
    return this.held !== null;
  }

  /** Drops every update not yet confirmed (deleteWebhook's or setWebhook's drop_pending_updates). */
  dropPending() {
    this.updates.splice(0);
    this.persist();
  }

  setWebhook(webhook: TelegramWebhook | null) {
    this.webhook = webhook;
    if (webhook) this.held?.end();
    this.persist();
  }

  setAllowedUpdates(types: string[] | undefined) {
    if (types === undefined) return;
    this.allowedUpdates = types.length > 0 ? types : undefined;
    this.persist();
  }

  /** Whether the chat can be written to, or Telegram's refusal. */
  refusalFor(chatId: number): { code: number; description: string } | null {
    if (!this.chats.has(chatId)) return { code: 400, description: 'Bad Request: chat not found' };
    if (this.blocked.has(chatId)) return { code: 403, description: 'Forbidden: bot was blocked by the user' };
    return null;
  }

  /** sendMessage once the chat and the text passed: the message, with its id in that chat. */
  send(chatId: number, content: string | Formatted): SentTelegramMessage & { messageId: number } {
    const { text, entities } = typeof content === 'string' ? { text: content, entities: [] } : content;
    const message: SentTelegramMessage = {
      chatId,
      text,
      at: new Date(this.now()).toISOString(),
      ...(entities.length > 0 ? { entities } : {}),
    };
    this.keep(this.sent, message);
    this.persist();
    return { ...message, messageId: this.messageIdIn(chatId) };
  }

  private messageIdIn(chatId: number): number {
    const id = this.nextMessageId.get(chatId) ?? 1;
    this.nextMessageId.set(chatId, id + 1);
    return id;
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
    this.nextMessageId.clear();
    this.webhook = null;
    this.allowedUpdates = undefined;
    this.persist();
  }
}
