import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dropConnection, readBody, type PlatformCall } from '../common';
import type { SandboxFault } from '../state';
import { sandboxBotName, sandboxBotUsername, type TelegramSandbox } from './chats';
import { botCommands, formatted, MarkupError, type Formatted, type MessageEntity } from './formatting';

/**
 * The Bot API (https://core.telegram.org/bots/api) for the sandbox's one bot: getMe, getUpdates
 * (long polling with `timeout`, `offset`, `limit`, `allowed_updates`), setWebhook, deleteWebhook,
 * getWebhookInfo and sendMessage with `parse_mode`, answered `{ ok, result }` or `{ ok: false,
 * error_code, description, parameters? }` as Telegram answers. Parameters come from the query
 * string and a JSON, form or multipart body alike, method names in any case ("Making requests").
 */

export const telegramMethods = ['getMe', 'getUpdates', 'setWebhook', 'deleteWebhook', 'getWebhookInfo', 'sendMessage'] as const;
export type TelegramMethod = (typeof telegramMethods)[number];

/** Faults the sandbox's controls plan for one Bot API method (`POST /sandbox/_faults` with platform telegram). */
export type TelegramFaults = (method: TelegramMethod) => SandboxFault | undefined;

const tokenShape = /^\d{1,20}:[A-Za-z0-9_-]{1,100}$/;
/** The longest Telegram holds a long poll, whatever `timeout` asks. */
const longestPollSeconds = 50;
const webhookPorts = ['80', '88', '443', '8443'];

class BotApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: { retry_after: number },
  ) {
    super(description);
  }
}

const badRequest = (description: string) => new BotApiError(400, `Bad Request: ${description}`);

/** An answer Telegram gives with a `description` beside its `result` (the webhook methods). */
class Described {
  constructor(
    readonly result: unknown,
    readonly description: string,
  ) {}
}

/** The Bot API's parameters: the query string, then the body over it, whichever of JSON, form or multipart it is. */
async function paramsOf(request: FastifyRequest<PlatformCall>): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = { ...request.query };
  const body = await readBody(request);
  const type = request.headers['content-type'] ?? '';
  if (body.length === 0) return params;
  if (/^application\/json/i.test(type)) {
    try {
      const value: unknown = JSON.parse(body.toString('utf8'));
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) Object.assign(params, value);
    } catch {
      throw badRequest("can't parse JSON object");
    }
  } else if (/^multipart\/form-data/i.test(type)) {
    const form = await new Response(new Uint8Array(body), { headers: { 'content-type': type } }).formData();
    for (const [key, value] of form) params[key] = value;
  } else {
    for (const [key, value] of new URLSearchParams(body.toString('utf8'))) params[key] = value;
  }
  return params;
}

/** An Integer parameter, sent as a JSON number or as text. */
function integer(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
}

const boolean = (value: unknown) => value === true || (typeof value === 'string' && /^(true|1)$/i.test(value));

/** A parameter the Bot API takes as a JSON-serialized list: a JSON array, or its text in a form. */
function list<T>(value: unknown, name: string): T[] | undefined {
  if (value === undefined || value === '') return undefined;
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw badRequest(`can't parse ${name} JSON object`);
    }
  }
  if (!Array.isArray(parsed)) throw badRequest(`field "${name}" must be of type Array`);
  return parsed as T[];
}

const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

function faultAnswer(fault: SandboxFault): BotApiError {
  if (fault.kind === 'status-500') return new BotApiError(500, 'Internal Server Error');
  if (fault.kind === 'unauthorized') return new BotApiError(401, 'Unauthorized');
  // Telegram's only quota is its flood control: 429 with the seconds to wait.
  const seconds = fault.retryAfterSeconds ?? 1;
  return new BotApiError(429, `Too Many Requests: retry after ${seconds}`, { retry_after: seconds });
}

/** The text a sendMessage carries once its markup is parsed: refused as Telegram refuses it. */
function messageText(params: Record<string, unknown>): Formatted {
  const markup = text(params.text);
  if (markup === '') throw badRequest('message text is empty');
  const given = list<MessageEntity>(params.entities, 'entities');
  let content: Formatted | null;
  try {
    content = given
      ? { text: markup, entities: given }
      : formatted(markup, params.parse_mode === undefined ? undefined : text(params.parse_mode));
  } catch (error) {
    if (error instanceof MarkupError) throw badRequest(`can't parse entities: ${error.description}`);
    throw error;
  }
  if (!content) throw badRequest('unsupported parse_mode');
  if (content.text.trim() === '') throw badRequest('message text is empty');
  // "1-4096 characters after entities parsing".
  if ([...content.text].length > 4096) throw badRequest('message is too long');
  const commands = botCommands(content.text).filter((command) => !content.entities.some((entity) => entity.offset === command.offset));
  const entities = [...content.entities, ...commands].sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text: content.text, entities };
}

/** Settles when the client leaves before its answer. */
const leaves = (reply: FastifyReply) => new Promise<void>((resolve) => reply.raw.once('close', () => resolve()));

/** The Bot API host, mounted at /sandbox/api.telegram.org. */
export function telegramSandbox(telegram: TelegramSandbox) {
  return async (api: FastifyInstance) => {
    // A held long poll must not keep the server from closing: it is answered (empty) at once.
    api.addHook('preClose', (done) => {
      telegram.releaseHeld();
      done();
    });

    const bot = () => ({ id: telegram.botId, is_bot: true, first_name: sandboxBotName, username: sandboxBotUsername });

    /** deleteWebhook, or setWebhook with an empty url. */
    const removeWebhook = (params: Record<string, unknown>) => {
      if (boolean(params.drop_pending_updates)) telegram.dropPending();
      const had = telegram.webhook !== null;
      telegram.setWebhook(null);
      return new Described(true, had ? 'Webhook was deleted' : 'Webhook is already deleted');
    };

    const methods: Record<TelegramMethod, (params: Record<string, unknown>, reply: FastifyReply) => Promise<unknown>> = {
      getMe: async () => ({
        ...bot(),
        can_join_groups: true,
        can_read_all_group_messages: false,
        supports_inline_queries: false,
        can_connect_to_business: false,
        has_main_web_app: false,
      }),
      getUpdates: async (params, reply) => {
        telegram.endHeld();
        if (telegram.webhook) {
          throw new BotApiError(
            409,
            "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
          );
        }
        const offset = integer(params.offset) ?? 0;
        const limit = Math.min(100, Math.max(1, integer(params.limit) ?? 100));
        const timeout = Math.min(longestPollSeconds, Math.max(0, integer(params.timeout) ?? 0));
        telegram.setAllowedUpdates(list<string>(params.allowed_updates, 'allowed_updates'));
        const updates = telegram.updatesFrom(offset, limit);
        if (updates.length > 0 || timeout === 0) return updates;
        if ((await telegram.hold(timeout * 1000, leaves(reply))) === 'conflict') {
          throw new BotApiError(409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running');
        }
        return telegram.updatesFrom(offset, limit);
      },
      setWebhook: async (params) => {
        const url = text(params.url);
        if (url === '') return removeWebhook(params);
        let parsed: URL;
        try {
          parsed = new URL(url);
        } catch {
          throw badRequest('invalid webhook URL specified');
        }
        if (parsed.protocol !== 'https:') throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
        if (parsed.port !== '' && !webhookPorts.includes(parsed.port)) {
          throw badRequest('bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443');
        }
        const maxConnections = Math.min(100, Math.max(1, integer(params.max_connections) ?? 40));
        const allowedUpdates = list<string>(params.allowed_updates, 'allowed_updates');
        const secretToken = text(params.secret_token) || undefined;
        if (secretToken !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secretToken))
          throw badRequest('secret token contains unallowed characters');
        if (boolean(params.drop_pending_updates)) telegram.dropPending();
        const already = telegram.webhook?.url === url;
        telegram.setWebhook({ url, maxConnections, allowedUpdates, secretToken });
        return new Described(true, already ? 'Webhook is already set' : 'Webhook was set');
      },
      deleteWebhook: async (params) => removeWebhook(params),
      getWebhookInfo: async () => {
        const { webhook } = telegram;
        return {
          url: webhook?.url ?? '',
          has_custom_certificate: false,
          pending_update_count: telegram.pendingCount,
          ...(webhook ? { max_connections: webhook.maxConnections } : {}),
          ...(webhook?.allowedUpdates ? { allowed_updates: webhook.allowedUpdates } : {}),
        };
      },
      sendMessage: async (params) => {
        if (params.chat_id === undefined || params.chat_id === '') throw badRequest('chat_id is empty');
        const content = messageText(params);
        const chatId = integer(params.chat_id);
        const refusal = chatId === undefined ? { code: 400, description: 'Bad Request: chat not found' } : telegram.refusalFor(chatId);
        if (refusal) throw new BotApiError(refusal.code, refusal.description);
        const sent = telegram.send(chatId!, content);
        const chat = telegram.chats.get(chatId!)!;
        return {
          message_id: sent.messageId,
          from: bot(),
          chat: { id: chat.id, first_name: chat.firstName, username: chat.username, type: 'private' },
          date: Math.floor(Date.parse(sent.at) / 1000),
          text: sent.text,
          ...(sent.entities ? { entities: sent.entities } : {}),
        };
      },
    };

    api.route<PlatformCall>({
      method: ['GET', 'POST'],
      url: '/bot:token/:method',
      handler: async (request, reply) => {
        const { token = '', method = '' } = request.params;
        const answerError = (error: BotApiError) =>
          reply.status(error.code).send({
            ok: false,
            error_code: error.code,
            description: error.description,
            ...(error.parameters ? { parameters: error.parameters } : {}),
          });
        // A token of the wrong shape reaches no bot route at all; one of the right shape that is no bot is refused.
        if (!tokenShape.test(token)) return answerError(new BotApiError(404, 'Not Found'));
        if (!telegram.isBot(token)) return answerError(new BotApiError(401, 'Unauthorized'));
        const name = telegramMethods.find((known) => known.toLowerCase() === method.toLowerCase());
        if (!name) return answerError(new BotApiError(404, 'Not Found'));
        const fault = telegram.takeFault(name);
        if (fault?.kind === 'drop-connection') return dropConnection(request, reply);
        if (fault && fault.kind !== 'drop-response') return answerError(faultAnswer(fault));
        try {
          const answer = await methods[name](await paramsOf(request), reply);
          if (fault?.kind === 'drop-response') return dropConnection(request, reply);
          // A client that left a long poll gets nothing: the next getUpdates reads what it would have.
          if (reply.raw.destroyed) return reply.hijack();
          return answer instanceof Described
            ? { ok: true, result: answer.result, description: answer.description }
            : { ok: true, result: answer };
        } catch (error) {
          if (error instanceof BotApiError) return answerError(error);
          throw error;
        }
      },
    });
  };
}
