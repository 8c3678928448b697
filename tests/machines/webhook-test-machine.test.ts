import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { t } from '../../server/messages';
import { webhookTestMachine } from '../../src/machines/webhook-test-machine';
import { apiDouble, heldReply, recordToasts } from './api-double';

let shown: string[];

beforeEach(() => {
  shown = [];
  recordToasts(shown);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('webhook test machine (Settings)', () => {
  it('sends the test of its webhook, forgets the last outcome while a new one is under way, and keeps the answer', async () => {
    const held = heldReply();
    let calls = 0;
    const asked = apiDouble(() => (++calls === 1 ? { body: { delivered: true, status: 204, error: null } } : held.reply));
    const actor = createActor(webhookTestMachine, { input: { webhookId: 7 } }).start();
    actor.send({ type: 'send' });
    await waitFor(actor, (snapshot) => snapshot.matches('idle') && snapshot.context.result !== null);
    expect(actor.getSnapshot().context.result).toEqual({ delivered: true, status: 204, error: null });

    actor.send({ type: 'send' });
    expect(actor.getSnapshot().matches('sending')).toBe(true);
    expect(actor.getSnapshot().context.result).toBeNull();
    // A second press while one is under way sends nothing more.
    actor.send({ type: 'send' });
    held.give({ body: { delivered: false, status: null, error: 'timeout' } });
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    expect(actor.getSnapshot().context.result).toEqual({ delivered: false, status: null, error: 'timeout' });
    expect(asked).toEqual(['POST /api/webhooks/7/test', 'POST /api/webhooks/7/test']);
    expect(shown).toEqual([]);
  });

  it('toasts a test the server refused, with its words', async () => {
    apiDouble(() => ({ status: 404, body: { message: t.server.notFound } }));
    const actor = createActor(webhookTestMachine, { input: { webhookId: 9 } }).start();
    actor.send({ type: 'send' });
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    expect(shown).toEqual([`error ${t.server.notFound}`]);
    expect(actor.getSnapshot().context.result).toBeNull();
  });
});
