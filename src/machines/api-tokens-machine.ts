import toast from 'react-hot-toast';
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { api } from '../lib/api';
import type { ApiToken, CreatedApiToken } from '../lib/contract';
import * as t from '../lib/i18n';
import type { ApiTokenForm } from '../lib/schemas';
import { toastErrors } from '../lib/toasts';

export interface ApiTokensContext {
  tokens: ApiToken[] | undefined;
  error: unknown;
  /** The token just made, shown until hidden or the page is left: the server never shows it again. */
  created: CreatedApiToken | null;
}

export type ApiTokensEvent =
  { type: 'create'; form: ApiTokenForm } | { type: 'revoke'; id: number } | { type: 'copy' } | { type: 'hide' } | { type: 'reload' };

/**
 * The user's API tokens (Settings → API-токени): the list, a new token with its one showing, its
 * copy to the clipboard, and revoking one. The list is read again after every change, so it is
 * what the server kept.
 */
export const apiTokensMachine = setup({
  types: { context: {} as ApiTokensContext, events: {} as ApiTokensEvent },
  actors: {
    load: fromPromise<{ data: ApiToken[] }>(() => api('GET', '/tokens')),
    create: fromPromise<CreatedApiToken, ApiTokenForm>(({ input }) => api('POST', '/tokens', input)),
    revoke: fromPromise<void, { id: number }>(({ input }) => api('DELETE', `/tokens/${input.id}`)),
    copy: fromPromise<void, { token: string }>(({ input }) => navigator.clipboard.writeText(input.token)),
  },
  actions: {
    'toast created': () => {
      toast.success(t.apiTokens.created);
    },
    'toast revoked': () => {
      toast.success(t.apiTokens.revoked);
    },
    'toast copied': () => {
      toast.success(t.apiTokens.copied);
    },
    'toast copy failure': () => {
      toast.error(t.apiTokens.copyFailed);
    },
    'toast errors': (_, params: { error: unknown; fallback?: string }) => toastErrors(params.error, params.fallback),
  },
  guards: {
    'shows a new token': ({ context }) => context.created !== null,
  },
}).createMachine({
  id: 'apiTokens',
  context: { tokens: undefined, error: undefined, created: null },
  initial: 'loading',
  on: {
    hide: { actions: assign({ created: null }) },
  },
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        onDone: { target: 'ready', actions: assign({ tokens: ({ event }) => event.output.data, error: undefined }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    failed: {
      on: { reload: 'loading' },
    },
    ready: {
      on: {
        create: 'creating',
        revoke: 'revoking',
        copy: { guard: 'shows a new token', target: 'copying' },
      },
    },
    creating: {
      invoke: {
        id: 'create',
        src: 'create',
        input: ({ event }) => {
          assertEvent(event, 'create');
          return event.form;
        },
        onDone: { target: 'loading', actions: [assign({ created: ({ event }) => event.output }), 'toast created'] },
        onError: { target: 'ready', actions: { type: 'toast errors', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    revoking: {
      invoke: {
        id: 'revoke',
        src: 'revoke',
        input: ({ event }) => {
          assertEvent(event, 'revoke');
          return { id: event.id };
        },
        onDone: { target: 'loading', actions: 'toast revoked' },
        // Read again either way: a revoke whose answer was lost may still have been made.
        onError: {
          target: 'loading',
          actions: { type: 'toast errors', params: ({ event }) => ({ error: event.error, fallback: t.apiTokens.revokeFailed }) },
        },
      },
    },
    copying: {
      invoke: {
        id: 'copy',
        src: 'copy',
        input: ({ context }) => ({ token: context.created!.token }),
        onDone: { target: 'ready', actions: 'toast copied' },
        onError: { target: 'ready', actions: 'toast copy failure' },
      },
    },
  },
});
