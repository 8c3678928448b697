import { Type } from '@sinclair/typebox';
import { alertEvents, deliveryErrors, deliveryStates, telegramEvents } from './lists';
import { errorResponses, IdParams, Literals, NoContent, Nullable, Text } from './common';
import { maxLength } from './limits';

/**
 * Issue 32.3: alerts where the team is. A user's Telegram chat (`/api/telegram`) and webhooks
 * (`/api/webhooks`), each personal: an admin reads and changes only their own, as with the bell.
 */

export const AlertEvent = Literals(alertEvents);
export const TelegramEvent = Literals(telegramEvents);
const DeliveryState = Literals(deliveryStates);
const DeliveryError = Literals(deliveryErrors);

export const TelegramSettings = Type.Object({
  /** False in live mode without TELEGRAM_BOT_TOKEN: there is no bot to write to. */
  available: Type.Boolean(),
  /** The bot's @name, once a worker has asked Telegram for it; null until then. */
  bot: Nullable(Type.String()),
  /** `connecting`: a code waits to be sent to the bot; `connected`: alerts go to the chat it came from. */
  state: Literals(['off', 'connecting', 'connected']),
  code: Nullable(Type.String()),
  codeExpiresAt: Nullable(Type.String()),
  /**
   * Opens the bot with the code ready to send: https://t.me/<bot>?start=<code> in live mode; in sandbox
   * mode the sandbox's own chat page, /sandbox/t.me/<bot>?start=<code>, so no real Telegram is reached.
   */
  link: Nullable(Type.String()),
  /** The chat's @name (or first name) as Telegram gave it. */
  chatName: Nullable(Type.String()),
  /** `blocked`: Telegram refused to deliver (the bot was blocked or the chat left); connecting again mends it. */
  failure: Nullable(Literals(['blocked'])),
  events: Type.Array(TelegramEvent),
  /** The morning digest (09:00 Kyiv time): yesterday's posts, failures and top videos. */
  digest: Type.Boolean(),
});

export const TelegramChoices = Type.Object(
  { events: Type.Array(TelegramEvent, { maxItems: telegramEvents.length }), digest: Type.Boolean() },
  { additionalProperties: false },
);

/**
 * A test message sent to the connected chat now: `sent`; `blocked`: Telegram refused the chat (it is
 * marked so, as an alert would); `unreachable`: Telegram gave no answer that settles it (down, 429).
 */
export const TelegramTestResult = Type.Object({ outcome: Literals(['sent', 'blocked', 'unreachable']) });

export const telegramSchemas = {
  /** GET /api/telegram */
  get: { response: { 200: TelegramSettings, ...errorResponses } },
  /** POST /api/telegram/code: a new one-time code in place of any other; a chat connected stays until the code comes from another. */
  code: { response: { 201: TelegramSettings, ...errorResponses } },
  /** PUT /api/telegram: what to be told. */
  save: { body: TelegramChoices, response: { 200: TelegramSettings, ...errorResponses } },
  /** DELETE /api/telegram: nothing goes to Telegram any more. */
  disconnect: { response: { 204: NoContent, ...errorResponses } },
  /** POST /api/telegram/test: a test message to the connected chat, through the bot, now; 409 with no chat connected. */
  test: { response: { 200: TelegramTestResult, ...errorResponses } },
};

const LastDelivery = Type.Object({
  state: DeliveryState,
  at: Type.String(),
  status: Nullable(Type.Integer()),
  error: Nullable(DeliveryError),
});

export const Webhook = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  url: Type.String(),
  events: Type.Array(AlertEvent),
  createdAt: Type.String(),
  /** The newest delivery's outcome; null before the first. */
  lastDelivery: Nullable(LastDelivery),
});

const webhookTarget = {
  url: Text(maxLength.webhookUrl),
  events: Type.Array(AlertEvent, { maxItems: alertEvents.length }),
};

/** The secret is the user's own, so their receiver knows it; it is stored sealed and never sent back. */
export const WebhookBody = Type.Object({ ...webhookTarget, secret: Text(maxLength.webhookSecret) }, { additionalProperties: false });

/** An edit changes where and what is sent; the secret stays, so the receiver's check keeps working. */
export const WebhookEditBody = Type.Object(webhookTarget, { additionalProperties: false });

/** A test event sent now, signed as every delivery: delivered on a 2xx, else the answer's status or why none came. */
export const WebhookTestResult = Type.Object({
  delivered: Type.Boolean(),
  status: Nullable(Type.Integer()),
  error: Nullable(DeliveryError),
});

export const WebhookDelivery = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  /** Sent as `webhook-id` on every attempt (Standard Webhooks): what a receiver logs to find it here. */
  messageId: Type.String(),
  event: AlertEvent,
  state: DeliveryState,
  attempts: Type.Integer({ minimum: 0 }),
  createdAt: Type.String(),
  lastAttemptAt: Nullable(Type.String()),
  nextAttemptAt: Nullable(Type.String()),
  deliveredAt: Nullable(Type.String()),
  /** The last answer's HTTP status and the start of its body. */
  status: Nullable(Type.Integer()),
  answer: Nullable(Type.String()),
  error: Nullable(DeliveryError),
  /** The JSON body as sent (`{event, at, data}`). */
  body: Type.String(),
});

export const webhookSchemas = {
  /** GET /api/webhooks */
  list: { response: { 200: Type.Object({ data: Type.Array(Webhook) }), ...errorResponses } },
  /** POST /api/webhooks */
  create: { body: WebhookBody, response: { 201: Webhook, ...errorResponses } },
  /** PATCH /api/webhooks/{id}: a new URL and events, checked as when added; deliveries still waiting go to the new URL. */
  update: { params: IdParams, body: WebhookEditBody, response: { 200: Webhook, ...errorResponses } },
  /** POST /api/webhooks/{id}/test: one `webhook.test` event, signed and sent now; not kept in the log. */
  test: { params: IdParams, response: { 200: WebhookTestResult, ...errorResponses } },
  /** DELETE /api/webhooks/{id}: its deliveries go with it. */
  remove: { params: IdParams, response: { 204: NoContent, ...errorResponses } },
  /** GET /api/webhooks/{id}/deliveries: the newest first. */
  deliveries: { params: IdParams, response: { 200: Type.Object({ data: Type.Array(WebhookDelivery) }), ...errorResponses } },
};
