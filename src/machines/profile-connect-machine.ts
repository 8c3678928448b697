import { assign, emit, fromPromise, setup } from 'xstate';
import toast from 'react-hot-toast';
import { api } from '../lib/api';
import type { ConnectYouTubeResponse, PlatformName } from '../lib/contract';
import * as t from '../lib/i18n';
import { toastErrors } from '../lib/toasts';

/** The profile form's save that comes first: a new profile's, or a saved one's unsaved changes. */
export interface ProfileSave {
  method: 'POST' | 'PATCH';
  path: string;
  body: unknown;
  successText: string;
}

export interface ConnectRequest {
  platform: PlatformName;
  /** The saved profile's id; a new profile's comes with the answer to its save. */
  accountId?: number;
  save?: ProfileSave;
}

interface ConnectContext {
  request: ConnectRequest | null;
  accountId: number | null;
  /** The form was saved on the way, so a failure to reach the consent page still leaves a saved profile. */
  saved: boolean;
}

export type ProfileConnectEmitted =
  | { type: 'consent'; url: string }
  /** Saved, but the consent page could not be had: the form shows the saved profile again. */
  | { type: 'saved'; accountId: number };

/**
 * 'Підключити …' on the profile form: save the form when there is something to save (the same
 * call as 'Зберегти', so the same checks), then ask for the platform's consent page, which the
 * screen opens. It stays `leaving` while the browser goes there.
 */
export const profileConnectMachine = setup({
  types: {
    context: {} as ConnectContext,
    events: {} as { type: 'connect'; request: ConnectRequest },
    emitted: {} as ProfileConnectEmitted,
  },
  actors: {
    save: fromPromise<{ id: number }, ProfileSave>(({ input }) => api(input.method, input.path, input.body)),
    link: fromPromise<ConnectYouTubeResponse, { platform: PlatformName; accountId: number }>(({ input }) =>
      api('POST', `/accounts/connect-${input.platform}/${input.accountId}`),
    ),
  },
  actions: {
    'toast errors': (_, params: { error: unknown; fallback?: string }) => toastErrors(params.error, params.fallback),
    'toast saved': (_, params: { text: string }) => {
      toast.success(params.text);
    },
  },
  guards: {
    'saves first': ({ context }) => context.request?.save !== undefined,
  },
}).createMachine({
  id: 'profileConnect',
  context: { request: null, accountId: null, saved: false },
  initial: 'idle',
  states: {
    idle: {
      on: {
        connect: {
          target: 'starting',
          actions: assign({
            request: ({ event }) => event.request,
            accountId: ({ event }) => event.request.accountId ?? null,
            saved: false,
          }),
        },
      },
    },
    starting: {
      always: [{ guard: 'saves first', target: 'saving' }, { target: 'linking' }],
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context }) => context.request!.save!,
        onDone: { target: 'linking', actions: assign({ accountId: ({ event }) => event.output.id, saved: true }) },
        onError: { target: 'idle', actions: { type: 'toast errors', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    linking: {
      invoke: {
        src: 'link',
        input: ({ context }) => ({ platform: context.request!.platform, accountId: context.accountId! }),
        onDone: { target: 'leaving', actions: emit(({ event }) => ({ type: 'consent' as const, url: event.output.url })) },
        onError: [
          {
            guard: ({ context }) => context.saved,
            target: 'idle',
            actions: [
              { type: 'toast saved', params: ({ context }) => ({ text: context.request!.save!.successText }) },
              { type: 'toast errors', params: ({ context, event }) => ({ error: event.error, fallback: connectText(context) }) },
              emit(({ context }) => ({ type: 'saved' as const, accountId: context.accountId! })),
            ],
          },
          {
            target: 'idle',
            actions: { type: 'toast errors', params: ({ context, event }) => ({ error: event.error, fallback: connectText(context) }) },
          },
        ],
      },
    },
    leaving: {},
  },
});

function connectText(context: ConnectContext) {
  return t.connections.connectFailed(t.platform.names[context.request!.platform]);
}
