import crypto from 'node:crypto';
import type PgBoss from 'pg-boss';
import type { Static } from '@sinclair/typebox';
import type { Webhook, WebhookDelivery, WebhookTestResult } from '../../src/lib/contract/alerts';
import type { AlertEvent } from '../../src/lib/contract/lists';
import { t } from '../messages';
import type { Database, RunSql } from '../db/connect';
import { HttpError } from '../http-error';
import { SecretUnreadableError, secretsOfRow } from '../auth/secrets';
import { checkedWebhookUrl, postWebhook, WebhookUrlError } from './webhook-target';
import { standardSecretPrefix } from '../../src/lib/webhook-secret';
import type { PlatformsMode } from '../platforms/types';

/**
 * A user's webhooks and their deliveries (issue 32.3). Each delivery is the alert's JSON body,
 * POSTed with two sets of signed headers, both made anew at each attempt (docs/alerts.md):
 * - Standard Webhooks (issue 42.2): `webhook-id` (the message's id, the same on every attempt),
 *   `webhook-timestamp` (Unix seconds) and `webhook-signature: v1,BASE64(HMAC-SHA256(key,
 *   id + "." + timestamp + "." + body))`, which the spec's verifiers check
 *   (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md);
 * - this product's own, kept for the receivers written before: `x-shorts-event`,
 *   `x-shorts-timestamp` and `x-shorts-signature: sha256=HEX(HMAC-SHA256(secret, timestamp + "." +
 *   body))`, as Stripe signs, and `x-shorts-delivery`, the delivery's number.
 * An attempt that gets no 2xx is tried again after each pause of `retryDelaysSeconds`, then the
 * delivery fails; the log keeps the last answer.
 */

/** The queue of attempts: one job per attempt, sent when a delivery is due (jobs/alerts.ts). */
export const deliverWebhookJobName = 'deliver-webhook';

export interface DeliverWebhookData {
  /** webhook_deliveries.id, as text: a bigint. */
  deliveryId: string;
}

/** The pauses before each next attempt: a receiver down for a few minutes, or for most of a day, still gets it. */
export const retryDelaysSeconds = [10, 30, 60, 300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600];
/**
 * How long a delivery handed to the queue is not handed again: its attempt takes at most 15 s
 * (alerts/webhook-target.ts), so a job lost with its worker is replaced after this.
 */
export const attemptLeaseMs = 5 * 60_000;
export const maxWebhooksPerUser = 10;
/** Finished deliveries kept per webhook for its log; waiting ones are always kept. */
const deliveriesKept = 200;
const deliveriesShown = 50;

type WebhookView = Static<typeof Webhook>;
type DeliveryView = Static<typeof WebhookDelivery>;

/** The `x-shorts-signature` header's value for `body` sent at `timestamp`: the secret's text is the key. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * Standard Webhooks' key: the bytes a `whsec_` secret encodes, or else the UTF-8 bytes of a secret
 * saved before that form, which the spec lets an existing secret be ("Migrating to Standard
 * Webhooks"); its receiver verifies with the same bytes (docs/alerts.md).
 */
function standardKey(secret: string): Buffer {
  return secret.startsWith(standardSecretPrefix)
    ? Buffer.from(secret.slice(standardSecretPrefix.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

/** The `webhook-signature` header's value for message `messageId` with `body`, sent at `timestamp`. */
export function standardSignature(secret: string, messageId: string, timestamp: string, body: string): string {
  return `v1,${crypto.createHmac('sha256', standardKey(secret)).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`;
}

/** What one attempt is of: the event, the delivery's number and its message's id. */
interface Message {
  event: string;
  deliveryId: string;
  messageId: string;
}

/** The headers of one attempt, signed at `now`: every delivery's and the test's alike. */
function signedHeaders(secret: string, message: Message, body: string, now: number): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  return {
    'webhook-id': message.messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': standardSignature(secret, message.messageId, timestamp, body),
    'x-shorts-event': message.event,
    'x-shorts-timestamp': timestamp,
    'x-shorts-signature': webhookSignature(secret, timestamp, body),
    'x-shorts-delivery': message.deliveryId,
  };
}

const iso = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string).toISOString());

function toWebhook(row: Record<string, any>): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    createdAt: iso(row.created_at)!,
    lastDelivery: row.last_state ? { state: row.last_state, at: iso(row.last_at)!, status: row.last_status, error: row.last_error } : null,
  };
}

const webhookColumns = `w.id, w.url, w.events, w.created_at, d.state AS last_state, coalesce(d.last_attempt_at, d.created_at) AS last_at,
  d.last_status, d.last_error`;
const lastDelivery = `LEFT JOIN LATERAL (SELECT * FROM webhook_deliveries WHERE webhook_id = w.id ORDER BY id DESC LIMIT 1) AS d ON true`;

export async function listWebhooks(db: Database, userId: number): Promise<WebhookView[]> {
  const { rows } = await db.sql(`SELECT ${webhookColumns} FROM webhooks AS w ${lastDelivery} WHERE w.user_id = $1 ORDER BY w.id`, [userId]);
  return rows.map(toWebhook);
}

/** The operator's words for a URL the outbound policy refuses. */
const refusals: Record<WebhookUrlError['reason'], string> = {
  malformed: t.webhooks.urlInvalid,
  https: t.webhooks.httpsRequired,
  address: t.webhooks.addressRefused,
};

/** The URL as it will be called, or the 400 that says why the outbound policy of the mode refuses it. */
function allowedUrl(raw: string, mode: PlatformsMode): Promise<string> {
  return checkedWebhookUrl(raw.trim(), mode).catch((error: unknown) => {
    if (error instanceof WebhookUrlError) throw new HttpError(400, refusals[error.reason]);
    throw error;
  });
}

/** Adds a webhook; the URL is checked by the outbound policy of the mode, and the secret sealed to its row. */
export async function createWebhook(
  db: Database,
  key: Buffer,
  mode: PlatformsMode,
  userId: number,
  input: { url: string; events: AlertEvent[]; secret: string },
): Promise<WebhookView> {
  const url = await allowedUrl(input.url, mode);
  const events = [...new Set(input.events)];
  return db.transaction(async (run) => {
    // The count is taken under the user's row lock, so two adds at once cannot pass the limit together.
    await run('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const { rows: owned } = await run('SELECT count(*)::int AS count FROM webhooks WHERE user_id = $1', [userId]);
    if (owned[0].count >= maxWebhooksPerUser) throw new HttpError(409, t.webhooks.tooMany(maxWebhooksPerUser));
    const { rows: ids } = await run(`SELECT nextval(pg_get_serial_sequence('webhooks', 'id'))::int AS id`);
    const id = ids[0].id as number;
    const sealed = secretsOfRow(key, 'webhooks', id).seal('secret', input.secret);
    const { rows } = await run(
      `INSERT INTO webhooks (id, user_id, url, events, secret) VALUES ($1, $2, $3, $4, $5)
       RETURNING id, url, events, created_at, NULL AS last_state`,
      [id, userId, url, events, sealed],
    );
    return toWebhook(rows[0]);
  });
}

/**
 * Points one of the user's own webhooks elsewhere or at other events, checked as when added; the
 * secret stays. Undefined when the user has no such webhook.
 */
export async function updateWebhook(
  db: Database,
  mode: PlatformsMode,
  userId: number,
  id: number,
  input: { url: string; events: AlertEvent[] },
): Promise<WebhookView | undefined> {
  const url = await allowedUrl(input.url, mode);
  const { rows: updated } = await db.sql('UPDATE webhooks SET url = $3, events = $4 WHERE id = $1 AND user_id = $2 RETURNING id', [
    id,
    userId,
    url,
    [...new Set(input.events)],
  ]);
  if (updated.length === 0) return undefined;
  const { rows } = await db.sql(`SELECT ${webhookColumns} FROM webhooks AS w ${lastDelivery} WHERE w.id = $1`, [id]);
  return toWebhook(rows[0]);
}

/** The event a test carries, beside the alerts' own: a receiver can tell it apart and answer 2xx. */
export const testEvent = 'webhook.test';

/**
 * Sends one of the user's own webhooks a test event now, signed with its secret and posted under
 * the outbound policy as every delivery is, and answers how it went; nothing is kept in the log or
 * tried again. Undefined when the user has no such webhook.
 */
export async function testWebhook(
  db: Database,
  key: Buffer,
  mode: PlatformsMode,
  userId: number,
  id: number,
  now: number,
): Promise<Static<typeof WebhookTestResult> | undefined> {
  const { rows } = await db.sql('SELECT url, secret FROM webhooks WHERE id = $1 AND user_id = $2', [id, userId]);
  const webhook = rows[0];
  if (!webhook) return undefined;
  let secret: string;
  try {
    secret = secretsOfRow(key, 'webhooks', id).open('secret', webhook.secret)!;
  } catch (error) {
    if (!(error instanceof SecretUnreadableError)) throw error;
    throw new HttpError(409, t.alertTests.secretUnreadable);
  }
  const body = JSON.stringify({ event: testEvent, at: new Date(now).toISOString(), data: { webhookId: id } });
  // Shaped as a delivery's message id (migration 0049), though a test is never kept.
  const message = {
    event: testEvent,
    deliveryId: `test-${crypto.randomUUID()}`,
    messageId: `msg_${crypto.randomUUID().replaceAll('-', '')}`,
  };
  const outcome = await postWebhook(webhook.url, signedHeaders(secret, message, body, now), body, mode);
  if (!('status' in outcome)) return { delivered: false, status: null, error: outcome.error };
  const delivered = outcome.status >= 200 && outcome.status < 300;
  return { delivered, status: outcome.status, error: delivered ? null : 'status' };
}

/** Removes one of the user's own webhooks with its log; false when the user has no such webhook. */
export async function deleteWebhook(db: Database, userId: number, id: number): Promise<boolean> {
  const { rows } = await db.sql('DELETE FROM webhooks WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId]);
  return rows.length > 0;
}

/** The newest deliveries of one of the user's own webhooks; undefined when the user has no such webhook. */
export async function webhookDeliveries(db: Database, userId: number, id: number): Promise<DeliveryView[] | undefined> {
  const { rows: owned } = await db.sql('SELECT 1 FROM webhooks WHERE id = $1 AND user_id = $2', [id, userId]);
  if (owned.length === 0) return undefined;
  const { rows } = await db.sql(`SELECT * FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id DESC LIMIT ${deliveriesShown}`, [id]);
  return rows.map((row) => ({
    id: Number(row.id),
    messageId: row.message_id,
    event: row.event,
    state: row.state,
    attempts: row.attempts,
    createdAt: iso(row.created_at)!,
    lastAttemptAt: iso(row.last_attempt_at),
    nextAttemptAt: row.state === 'pending' ? iso(row.next_attempt_at) : null,
    deliveredAt: iso(row.delivered_at),
    status: row.last_status,
    answer: row.last_answer,
    error: row.last_error,
    body: row.body,
  }));
}

async function sendAttempts(run: RunSql, queue: PgBoss, ids: string[]) {
  if (ids.length === 0) return;
  await queue.insert(
    ids.map((deliveryId) => ({ name: deliverWebhookJobName, data: { deliveryId } satisfies DeliverWebhookData })),
    { db: { executeSql: run } },
  );
}

/**
 * One delivery of `body` to each of the user's webhooks that asked for `event`, each handed to the
 * queue at once, in the caller's transaction. Answers how many.
 */
export async function queueDeliveries(run: RunSql, queue: PgBoss, userId: number, event: AlertEvent, body: string, now: number) {
  const { rows } = await run(
    `INSERT INTO webhook_deliveries (webhook_id, event, body, state, next_attempt_at, created_at)
     SELECT id, $2, $3, 'pending', $4, $5 FROM webhooks WHERE user_id = $1 AND $2 = ANY (events)
     RETURNING id::text AS id, webhook_id`,
    [userId, event, body, new Date(now + attemptLeaseMs), new Date(now)],
  );
  for (const { webhook_id: webhookId } of rows) {
    await run(
      `DELETE FROM webhook_deliveries WHERE webhook_id = $1 AND state <> 'pending'
          AND id < (SELECT id FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id DESC OFFSET ${deliveriesKept - 1} LIMIT 1)`,
      [webhookId],
    );
  }
  await sendAttempts(
    run,
    queue,
    rows.map((row) => row.id),
  );
  return rows.length;
}

/** Deliveries whose next attempt is due on the clock, handed to the queue (and leased, so not twice). Answers how many. */
export async function queueDueDeliveries(db: Database, queue: PgBoss, now: number): Promise<number> {
  return db.transaction(async (run) => {
    const { rows } = await run(
      `UPDATE webhook_deliveries SET next_attempt_at = $2
        WHERE id IN (SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= $1
                      ORDER BY next_attempt_at LIMIT 500 FOR UPDATE SKIP LOCKED)
        RETURNING id::text AS id`,
      [new Date(now), new Date(now + attemptLeaseMs)],
    );
    await sendAttempts(
      run,
      queue,
      rows.map((row) => row.id),
    );
    return rows.length;
  });
}

/**
 * One attempt of a pending delivery: signed now, POSTed under the outbound policy, and its outcome
 * recorded: delivered on a 2xx, else the next attempt's time or, after the last, failed.
 */
export async function attemptDelivery(
  db: Database,
  key: Buffer,
  deliveryId: string,
  { mode, now }: { mode: PlatformsMode; now: () => number },
): Promise<void> {
  const { rows } = await db.sql(
    `SELECT d.id::text AS id, d.message_id, d.event, d.body, d.attempts, w.id AS webhook_id, w.url, w.secret
       FROM webhook_deliveries AS d JOIN webhooks AS w ON w.id = d.webhook_id
      WHERE d.id = $1 AND d.state = 'pending'`,
    [deliveryId],
  );
  const delivery = rows[0];
  if (!delivery) return;
  let secret: string;
  try {
    secret = secretsOfRow(key, 'webhooks', delivery.webhook_id).open('secret', delivery.secret)!;
  } catch (error) {
    // Sealed under another SECRET_KEY: no attempt could ever be signed.
    if (!(error instanceof SecretUnreadableError)) throw error;
    await db.sql(`UPDATE webhook_deliveries SET state = 'failed', next_attempt_at = NULL WHERE id = $1 AND state = 'pending'`, [
      deliveryId,
    ]);
    return;
  }
  const outcome = await postWebhook(
    delivery.url,
    signedHeaders(secret, { event: delivery.event, deliveryId: delivery.id, messageId: delivery.message_id }, delivery.body, now()),
    delivery.body,
    mode,
  );
  const attempts = delivery.attempts + 1;
  const answered = 'status' in outcome;
  const delivered = answered && outcome.status >= 200 && outcome.status < 300;
  const finishedAt = now();
  const state = delivered ? 'delivered' : attempts > retryDelaysSeconds.length ? 'failed' : 'pending';
  const next = state === 'pending' ? new Date(finishedAt + retryDelaysSeconds[attempts - 1]! * 1000) : null;
  await db.sql(
    `UPDATE webhook_deliveries SET state = $2, attempts = $3, next_attempt_at = $4, last_attempt_at = $5, last_status = $6,
            last_answer = $7, last_error = $8, delivered_at = $9
      WHERE id = $1 AND state = 'pending'`,
    [
      deliveryId,
      state,
      attempts,
      next,
      new Date(finishedAt),
      answered ? outcome.status : null,
      answered ? outcome.answer : null,
      delivered ? null : answered ? 'status' : outcome.error,
      delivered ? new Date(finishedAt) : null,
    ],
  );
}
