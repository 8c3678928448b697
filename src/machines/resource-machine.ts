import { assign, emit, fromPromise, setup } from 'xstate';
import toast from 'react-hot-toast';
import { api, ApiError } from '../lib/api';
import * as t from '../lib/i18n';
import { toastErrors } from '../lib/toasts';
import { pollingMachine } from './polling-machine';

export interface ResourceInput {
  /** What to GET; null when there is nothing to load yet (a new record's form, or a first page that came with a detail). */
  path: string | null;
  /** Data already at hand, shown until `path.change` asks for something else. */
  data?: unknown;
  /** Refresh every this many ms while shown (and the tab is visible). */
  pollMs?: number;
}

export interface ResourceContext {
  path: string | null;
  data: unknown;
  error: unknown;
  pollMs: number | undefined;
  /** The save or deletion under way. */
  write: Write | null;
}

/** A write the screen asks for: its call, and the toast that says it worked. */
export interface SaveRequest {
  /** DELETE too where it answers what is left (a profile's own posting slots given up). */
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** No text: the screen says what happened itself (e.g. a copied link). */
  successText?: string;
  /** What to say when the call fails without the server's own words (a lost connection, say). */
  failureText?: string;
}

type Write = SaveRequest | { method: 'DELETE'; path: string; successText: string };

export type ResourceEvent =
  | { type: 'reload' }
  | { type: 'path.change'; path: string }
  | { type: 'save'; request: SaveRequest }
  | { type: 'remove'; path: string; successText: string }
  | { type: 'refresh' }
  /** What another write answered with is this resource as it is now (a profile's health check answers the profile): shown, not read again. */
  | { type: 'show'; data: unknown };

export type ResourceEmitted = { type: 'saved'; output: unknown };

const deletionToastId = 'resource-deletion';

/**
 * One screen's data: load it, show it, reload it (on demand, on a poll, after a deletion), save a
 * form and delete a row, each write with its toasts. A screen sends events and never calls the API.
 */
export const resourceMachine = setup({
  types: {
    context: {} as ResourceContext,
    events: {} as ResourceEvent,
    input: {} as ResourceInput,
    emitted: {} as ResourceEmitted,
  },
  actors: {
    load: fromPromise<unknown, { path: string }>(({ input }) => api('GET', input.path)),
    save: fromPromise<unknown, SaveRequest>(({ input }) => api(input.method, input.path, input.body)),
    remove: fromPromise<unknown, { path: string }>(({ input }) => api('DELETE', input.path)),
    polling: pollingMachine,
  },
  actions: {
    'toast deleting': () => {
      toast.loading(t.toast.deleting, { id: deletionToastId });
    },
    'toast deleted': (_, params: { text: string }) => {
      toast.success(params.text, { id: deletionToastId });
    },
    'toast delete failure': (_, params: { error: unknown }) => {
      // A refusal the server words itself (a profile whose uploads could not be stopped) says why; any other failure keeps the spec's text.
      const { error } = params;
      toast.error(error instanceof ApiError && error.status === 409 ? error.message : t.toast.deleteFailed, { id: deletionToastId });
    },
    'toast saved': (_, params: { text: string | undefined }) => {
      if (params.text) toast.success(params.text);
    },
    'toast errors': (_, params: { error: unknown; fallback?: string }) => toastErrors(params.error, params.fallback),
  },
  guards: {
    'has a path': ({ context }) => context.path !== null,
    'needs loading': ({ context }) => context.path !== null && context.data === undefined,
    polls: ({ context }) => context.pollMs !== undefined,
  },
}).createMachine({
  id: 'resource',
  context: ({ input }) => ({ path: input.path, data: input.data, error: undefined, pollMs: input.pollMs, write: null }),
  initial: 'starting',
  on: {
    'path.change': { target: '.loading', actions: assign({ path: ({ event }) => event.path }) },
  },
  states: {
    starting: {
      always: [{ guard: 'needs loading', target: 'loading' }, { target: 'ready' }],
    },
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ path: context.path! }),
        onDone: { target: 'ready', actions: assign({ data: ({ event }) => event.output, error: undefined }) },
        onError: { target: 'failed', actions: assign({ data: undefined, error: ({ event }) => event.error }) },
      },
    },
    ready: {
      initial: 'choosing',
      states: {
        choosing: {
          always: [{ guard: 'polls', target: 'polling' }, { target: 'still' }],
        },
        still: {},
        polling: {
          invoke: { id: 'polling', src: 'polling', input: ({ context }) => ({ intervalMs: context.pollMs! }) },
          on: { refresh: { guard: 'has a path', target: '#resource.loading' } },
        },
      },
      on: {
        reload: { guard: 'has a path', target: 'loading' },
        show: { actions: assign({ data: ({ event }) => event.data }) },
        save: { target: 'saving', actions: assign({ write: ({ event }) => event.request }) },
        remove: {
          target: 'removing',
          actions: assign({ write: ({ event }) => ({ method: 'DELETE' as const, path: event.path, successText: event.successText }) }),
        },
      },
    },
    failed: {
      on: { reload: { guard: 'has a path', target: 'loading' } },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => context.write as SaveRequest,
        onDone: {
          target: 'written',
          actions: [
            { type: 'toast saved', params: ({ context }) => ({ text: context.write?.successText }) },
            emit(({ event }) => ({ type: 'saved' as const, output: event.output })),
          ],
        },
        onError: {
          target: 'ready',
          actions: {
            type: 'toast errors',
            params: ({ context, event }) => ({ error: event.error, fallback: (context.write as SaveRequest).failureText }),
          },
        },
      },
    },
    removing: {
      entry: 'toast deleting',
      invoke: {
        id: 'remove',
        src: 'remove',
        input: ({ context }) => ({ path: context.write!.path }),
        onDone: { target: 'written', actions: { type: 'toast deleted', params: ({ context }) => ({ text: context.write!.successText! }) } },
        onError: { target: 'written', actions: { type: 'toast delete failure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    written: {
      // What is shown is read again after every write, so it is what the server kept (a failed deletion may still have removed the row).
      always: [{ guard: 'has a path', target: 'loading' }, { target: 'ready' }],
    },
  },
});
