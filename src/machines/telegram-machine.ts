import toast from 'react-hot-toast';
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { api } from '../lib/api';
import type { TelegramSettings, TelegramTestResult } from '../lib/contract';
import * as t from '../lib/i18n';
import type { TelegramChoicesForm } from '../lib/schemas';
import { toastErrors } from '../lib/toasts';

export type TelegramEvent =
  { type: 'reload' } | { type: 'connect' } | { type: 'save'; choices: TelegramChoicesForm } | { type: 'disconnect' } | { type: 'test' };

export interface TelegramContext {
  settings: TelegramSettings | null;
  error: unknown;
  /** The last test message's outcome, shown until the next one or another change of the chat. */
  testResult: TelegramTestResult | null;
}

/**
 * The user's Telegram chat (Settings): read it, ask for a one-time code, then look again every
 * few seconds while the code waits to reach the bot, until the chat is connected (a worker binds
 * it when the bot receives the code); save what to be told; send the chat a test message; disconnect.
 */
export const telegramMachine = setup({
  types: { context: {} as TelegramContext, events: {} as TelegramEvent },
  actors: {
    load: fromPromise<TelegramSettings>(() => api('GET', '/telegram')),
    issueCode: fromPromise<TelegramSettings>(() => api('POST', '/telegram/code')),
    saveChoices: fromPromise<TelegramSettings, TelegramChoicesForm>(({ input }) => api('PUT', '/telegram', input)),
    disconnect: fromPromise<void>(() => api('DELETE', '/telegram')),
    sendTest: fromPromise<TelegramTestResult>(() => api('POST', '/telegram/test')),
  },
  actions: {
    'toast connected': () => {
      toast.success(t.telegram.connected);
    },
    'toast saved': () => {
      toast.success(t.telegram.saved);
    },
    'toast disconnected': () => {
      toast.success(t.telegram.disconnected);
    },
    'toast failure': (_, params: { error: unknown }) => toastErrors(params.error),
  },
  guards: {
    'waits for the code': ({ context }) => context.settings?.state === 'connecting',
    'just connected': ({ context, event }) =>
      context.settings?.state === 'connecting' && (event as { output?: TelegramSettings }).output?.state === 'connected',
  },
  delays: {
    // The worker reads the bot's updates every 2 s; the page looks a little less often.
    codeCheck: 3000,
  },
}).createMachine({
  id: 'telegram',
  context: { settings: null, error: undefined, testResult: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        onDone: { target: 'ready', actions: assign({ settings: ({ event }) => event.output, error: undefined }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    failed: { on: { reload: 'loading' } },
    ready: {
      initial: 'choosing',
      states: {
        choosing: { always: [{ guard: 'waits for the code', target: 'waiting' }, { target: 'still' }] },
        still: {},
        waiting: { after: { codeCheck: 'checking' } },
        checking: {
          invoke: {
            id: 'check',
            src: 'load',
            onDone: [
              {
                guard: 'just connected',
                target: 'choosing',
                actions: [assign({ settings: ({ event }) => event.output }), 'toast connected'],
              },
              { target: 'choosing', actions: assign({ settings: ({ event }) => event.output }) },
            ],
            // A lost connection is tried again at the next look.
            onError: 'waiting',
          },
        },
      },
      on: {
        connect: { target: 'issuing', actions: assign({ testResult: null }) },
        save: 'saving',
        disconnect: { target: 'disconnecting', actions: assign({ testResult: null }) },
        reload: 'loading',
        test: { target: 'testing', actions: assign({ testResult: null }) },
      },
    },
    testing: {
      invoke: {
        id: 'sendTest',
        src: 'sendTest',
        // A chat Telegram refused is marked blocked by the test: read again, the card says so.
        onDone: { target: 'loading', actions: assign({ testResult: ({ event }) => event.output }) },
        onError: { target: 'ready', actions: { type: 'toast failure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    issuing: {
      invoke: {
        id: 'issueCode',
        src: 'issueCode',
        onDone: { target: 'ready', actions: assign({ settings: ({ event }) => event.output }) },
        onError: { target: 'ready', actions: { type: 'toast failure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    saving: {
      invoke: {
        id: 'saveChoices',
        src: 'saveChoices',
        input: ({ event }) => {
          assertEvent(event, 'save');
          return event.choices;
        },
        onDone: { target: 'ready', actions: [assign({ settings: ({ event }) => event.output }), 'toast saved'] },
        onError: { target: 'ready', actions: { type: 'toast failure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    disconnecting: {
      invoke: {
        id: 'disconnect',
        src: 'disconnect',
        onDone: { target: 'loading', actions: 'toast disconnected' },
        onError: { target: 'ready', actions: { type: 'toast failure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
