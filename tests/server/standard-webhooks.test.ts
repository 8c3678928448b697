import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { expect, it } from 'vitest';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { Static } from '@sinclair/typebox';
import type { WebhookDelivery } from '../../src/lib/contract/alerts';
import * as t from '../../src/lib/i18n';
import { newWebhookSecret } from '../../src/lib/webhook-secret';
import { attemptDelivery, queueDeliveries, retryDelaysSeconds } from '../../server/alerts/webhooks';
import { createUser, describeEachDatabase } from './helpers';
import type { TestUser } from './backoffice-fixtures';
import { ManualClock } from './manual-clock';
import { receiverOfFile, verifyAt as verifyReceivedAt, type ReceivedDelivery } from './webhook-receiver';

/**
 * Issue 42.2: a delivery verifies with the `standardwebhooks` library's own `Webhook.verify`, for a
 * `whsec_` secret and for a secret of the older form, and still with the `x-shorts-*` headers; a
 * retry keeps its `webhook-id` and is signed anew; a changed body or an old timestamp is refused.
 * Deliveries are queued as an alert queues them and each attempt is made by hand on a clock the
 * test moves, so a retry's pause takes no real time.
 */

const clock = new ManualClock();
const oldSecret = 'receiver-shared-secret-0123';
type Delivery = Static<typeof WebhookDelivery>;

/** The library's check of a delivery received now on the test's clock, or at `at`. */
const verifyAt = (verifier: Webhook, delivery: ReceivedDelivery, at = clock.now()) => verifyReceivedAt(verifier, delivery, at);

/** The old scheme as a receiver written before issue 42 checks it: the secret's text is the HMAC key. */
function oldHeadersVerify(secret: string, { headers, body }: ReceivedDelivery): boolean {
  const expected = `sha256=${crypto.createHmac('sha256', secret).update(`${headers['x-shorts-timestamp']}.${body}`).digest('hex')}`;
  const signature = Buffer.from(String(headers['x-shorts-signature']));
  return signature.length === expected.length && crypto.timingSafeEqual(Buffer.from(expected), signature);
}

const header = (headers: IncomingHttpHeaders, name: string) => String(headers[name]);

describeEachDatabase(
  'Standard Webhooks deliveries',
  (env) => {
    const receiver = receiverOfFile();

    async function addWebhook(user: TestUser, secret: string) {
      const response = await env().app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: user.headers,
        payload: { url: receiver.url, events: ['post.failed'], secret },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ id: number }>().id;
    }

    /** One post.failed alert for the user's webhooks, queued as the alert ticker queues it; its deliveries' ids. */
    async function queueAlert(user: TestUser, body: string): Promise<string[]> {
      await queueDeliveries(env().db.sql, env().queue!, user.id, 'post.failed', body, clock.now());
      const { rows } = await env().db.sql(
        `SELECT d.id::text AS id FROM webhook_deliveries AS d JOIN webhooks AS w ON w.id = d.webhook_id WHERE w.user_id = $1 ORDER BY d.id`,
        [user.id],
      );
      return rows.map((row) => row.id as string);
    }

    const attempt = (deliveryId: string) =>
      attemptDelivery(env().db, env().tokenSettings.keys.secretsAtRest, deliveryId, { mode: 'sandbox', now: clock.now });

    async function deliveries(user: TestUser, webhookId: number): Promise<Delivery[]> {
      const response = await env().app.inject({ url: `/api/webhooks/${webhookId}/deliveries`, headers: user.headers });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: Delivery[] }>().data;
    }

    it('signs a delivery so that Webhook.verify accepts it with a whsec_ secret, and the x-shorts headers still verify', async () => {
      const owner = await createUser(env(), 'owner');
      const secret = newWebhookSecret();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const webhookId = await addWebhook(owner, secret);
      const body = JSON.stringify({ event: 'post.failed', at: new Date(clock.now()).toISOString(), data: { count: 1, items: [] } });
      const [deliveryId] = await queueAlert(owner, body);
      await attempt(deliveryId!);

      expect(receiver.received).toHaveLength(1);
      const [received] = receiver.received;
      const { headers } = received!;
      expect(verifyAt(new Webhook(secret), received!)).toEqual(JSON.parse(body));
      expect(header(headers, 'webhook-id')).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(header(headers, 'webhook-timestamp')).toBe(String(Math.floor(clock.now() / 1000)));
      expect(header(headers, 'webhook-signature')).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      // Another secret's verifier refuses it.
      expect(() => verifyAt(new Webhook(newWebhookSecret()), received!)).toThrow(WebhookVerificationError);

      // The headers receivers written before issue 42 read are all still there, unchanged.
      expect(oldHeadersVerify(secret, received!)).toBe(true);
      expect(header(headers, 'x-shorts-timestamp')).toBe(header(headers, 'webhook-timestamp'));
      expect(header(headers, 'x-shorts-event')).toBe('post.failed');
      expect(header(headers, 'x-shorts-delivery')).toBe(deliveryId);

      // The log names the message as the receiver saw it.
      const [logged] = await deliveries(owner, webhookId);
      expect(logged).toMatchObject({ id: Number(deliveryId), messageId: header(headers, 'webhook-id'), state: 'delivered' });
    });

    it('signs with the UTF-8 bytes of a secret of the older form, which the library takes as a raw key', async () => {
      const owner = await createUser(env(), 'owner');
      await addWebhook(owner, oldSecret);
      const nonAscii = 'секрет-старого-вигляду-0123';
      const other = await createUser(env(), 'other');
      await addWebhook(other, nonAscii);
      const body = JSON.stringify({ event: 'post.failed', data: { title: 'Ранкова пробіжка' } });
      const [first] = await queueAlert(owner, body);
      const [second] = await queueAlert(other, body);
      await attempt(first!);
      await attempt(second!);

      const [fromOld, fromNonAscii] = receiver.received;
      expect(verifyAt(new Webhook(new TextEncoder().encode(oldSecret), { format: 'raw' }), fromOld!)).toEqual(JSON.parse(body));
      // For an ASCII secret the library's own reading of a raw string (a byte per character) is the same key.
      expect(verifyAt(new Webhook(oldSecret, { format: 'raw' }), fromOld!)).toEqual(JSON.parse(body));
      expect(oldHeadersVerify(oldSecret, fromOld!)).toBe(true);
      // Past ASCII only the UTF-8 bytes are the key: a string given raw is read a byte per character, which is another key.
      expect(verifyAt(new Webhook(new TextEncoder().encode(nonAscii), { format: 'raw' }), fromNonAscii!)).toEqual(JSON.parse(body));
      expect(() => verifyAt(new Webhook(nonAscii, { format: 'raw' }), fromNonAscii!)).toThrow(WebhookVerificationError);
      expect(oldHeadersVerify(nonAscii, fromNonAscii!)).toBe(true);
      // Two messages, two ids.
      expect(header(fromOld!.headers, 'webhook-id')).not.toBe(header(fromNonAscii!.headers, 'webhook-id'));
    });

    it('keeps the webhook-id of a retried delivery and signs the retry with its own timestamp', async () => {
      const owner = await createUser(env(), 'owner');
      const secret = newWebhookSecret();
      const webhookId = await addWebhook(owner, secret);
      const body = JSON.stringify({ event: 'post.failed', data: { count: 2 } });
      const [deliveryId] = await queueAlert(owner, body);

      receiver.state.status = 503;
      await attempt(deliveryId!);
      const [failed] = await deliveries(owner, webhookId);
      expect(failed).toMatchObject({ state: 'pending', attempts: 1, status: 503, error: 'status' });
      expect(Date.parse(failed!.nextAttemptAt!)).toBe(clock.now() + retryDelaysSeconds[0]! * 1000);

      receiver.state.status = 200;
      await clock.advance(retryDelaysSeconds[0]! * 1000);
      await attempt(deliveryId!);
      const [delivered] = await deliveries(owner, webhookId);
      expect(delivered).toMatchObject({ state: 'delivered', attempts: 2, status: 200 });

      expect(receiver.received).toHaveLength(2);
      const [first, retry] = receiver.received;
      expect(header(retry!.headers, 'webhook-id')).toBe(header(first!.headers, 'webhook-id'));
      expect(header(retry!.headers, 'webhook-id')).toBe(delivered!.messageId);
      expect(Number(header(retry!.headers, 'webhook-timestamp')) - Number(header(first!.headers, 'webhook-timestamp'))).toBe(
        retryDelaysSeconds[0],
      );
      expect(header(retry!.headers, 'webhook-signature')).not.toBe(header(first!.headers, 'webhook-signature'));
      expect(header(retry!.headers, 'x-shorts-delivery')).toBe(header(first!.headers, 'x-shorts-delivery'));
      const verifier = new Webhook(secret);
      expect(verifyAt(verifier, retry!)).toEqual(JSON.parse(body));
      expect(verifyAt(verifier, first!)).toEqual(JSON.parse(body));
      expect(oldHeadersVerify(secret, retry!)).toBe(true);
    });

    it('is refused by Webhook.verify when the body was changed or the timestamp is older than its five minutes', async () => {
      const owner = await createUser(env(), 'owner');
      const secret = newWebhookSecret();
      await addWebhook(owner, secret);
      const body = JSON.stringify({ event: 'post.failed', data: { count: 1 } });
      const [deliveryId] = await queueAlert(owner, body);
      await attempt(deliveryId!);
      const [received] = receiver.received;
      const verifier = new Webhook(secret);

      const tampered = { ...received!, body: body.replace('"count":1', '"count":2') };
      expect(() => verifyAt(verifier, tampered)).toThrow('No matching signature found');
      // A replay with the timestamp changed to now breaks the signature instead.
      const restamped = {
        ...received!,
        headers: { ...received!.headers, 'webhook-timestamp': String(Math.floor(clock.now() / 1000) + 60) },
      };
      expect(() => verifyAt(verifier, restamped)).toThrow('No matching signature found');

      const sentAt = Number(header(received!.headers, 'webhook-timestamp')) * 1000;
      expect(verifyAt(verifier, received!, sentAt + 299_000)).toEqual(JSON.parse(body));
      expect(() => verifyAt(verifier, received!, sentAt + 301_000)).toThrow('Message timestamp too old');
    });

    it('refuses a whsec_ secret that is not base64 of 24 to 64 bytes, and takes one that is', async () => {
      const owner = await createUser(env(), 'owner');
      const add = (secret: string) =>
        env().app.inject({
          method: 'POST',
          url: '/api/webhooks',
          headers: owner.headers,
          payload: { url: receiver.url, events: ['post.failed'], secret },
        });
      const base64 = (bytes: number) => crypto.randomBytes(bytes).toString('base64');
      for (const secret of [
        `whsec_${base64(23)}`,
        `whsec_${base64(65)}`,
        `whsec_${base64(32).replace(/=$/, '')}`,
        'whsec_not*base64*at*all*here*!',
      ]) {
        const refused = await add(secret);
        expect([refused.statusCode, refused.json().message], secret).toEqual([400, [t.webhooks.standardSecretInvalid]]);
      }
      for (const secret of [`whsec_${base64(24)}`, `whsec_${base64(64)}`]) expect((await add(secret)).statusCode, secret).toBe(201);
    });
  },
  { queue: 'send', clock },
);
