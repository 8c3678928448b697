import { assign, fromPromise, setup } from 'xstate';
import { api } from '../lib/api';
import type { WebhookTestResult } from '../lib/contract';
import { toastErrors } from '../lib/toasts';

export interface WebhookTestContext {
  webhookId: number;
  /** The last test's outcome, shown beside the webhook until the next one. */
  result: WebhookTestResult | null;
}

/**
 * One webhook's 'Надіслати тестове' (Settings): the server signs and sends a test event at once and
 * answers how it went; a call that fails itself (the webhook gone, the connection lost) is a toast.
 */
export const webhookTestMachine = setup({
  types: {
    context: {} as WebhookTestContext,
    events: {} as { type: 'send' },
    input: {} as { webhookId: number },
  },
  actors: {
    send: fromPromise<WebhookTestResult, { webhookId: number }>(({ input }) => api('POST', `/webhooks/${input.webhookId}/test`)),
  },
  actions: {
    'toast failure': (_, params: { error: unknown }) => toastErrors(params.error),
  },
}).createMachine({
  id: 'webhookTest',
  context: ({ input }) => ({ webhookId: input.webhookId, result: null }),
  initial: 'idle',
  states: {
    idle: { on: { send: 'sending' } },
    sending: {
      entry: assign({ result: null }),
      invoke: {
        id: 'send',
        src: 'send',
        input: ({ context }) => ({ webhookId: context.webhookId }),
        onDone: { target: 'idle', actions: assign({ result: ({ event }) => event.output }) },
        onError: { target: 'idle', actions: { type: 'toast failure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
