import { assign, assertEvent, fromPromise, setup } from 'xstate';
import toast from 'react-hot-toast';
import { api } from '../lib/api';
import type { PublicationRequestDetail, PublishPayload } from '../lib/contract';
import { t } from '../lib/i18n';
import { toastErrors } from '../lib/toasts';

export interface PublishInput {
  /** The request's idUpload from the route; absent when the route has none. */
  idUpload: string | undefined;
}

export interface PublishContext {
  idUpload: string | undefined;
  detail: PublicationRequestDetail | null;
}

export type PublishEvent = { type: 'form.submit'; payload: PublishPayload };

const requestPath = (idUpload: string) => encodeURIComponent(idUpload);

/** One loading toast per request, so the success toast replaces it and a failure dismisses it. */
const sendingToastId = (idUpload: string | undefined) => `publish-${idUpload}`;

/**
 * The publish form of a finished creation request: load what the form offers, edit, submit.
 * Leaving (to the request list) and resetting the form belong to the screen, which provides them.
 */
export const publishMachine = setup({
  types: {
    context: {} as PublishContext,
    events: {} as PublishEvent,
    input: {} as PublishInput,
  },
  actors: {
    loadRequest: fromPromise<PublicationRequestDetail, { idUpload: string }>(({ input }) =>
      api('GET', `/create-video/request/${requestPath(input.idUpload)}`),
    ),
    publish: fromPromise<unknown, { idUpload: string; payload: PublishPayload }>(({ input }) =>
      api('POST', `/upload-video/${requestPath(input.idUpload)}`, input.payload),
    ),
  },
  actions: {
    // Provided by the screen: it owns the router and the form.
    'leave to request list': () => {},
    'reset form': () => {},
    'toast sending': ({ context }) => {
      toast.loading(t.publish.sent, { id: sendingToastId(context.idUpload) });
    },
    'toast sent': ({ context }) => {
      toast.success(t.publish.sent, { id: sendingToastId(context.idUpload) });
    },
    'toast failure': ({ context }, params: { error: unknown }) => {
      toast.dismiss(sendingToastId(context.idUpload));
      toastErrors(params.error);
    },
    'toast load failure': (_, params: { error: unknown }) => toastErrors(params.error),
  },
  guards: {
    'has idUpload': ({ context }) => Boolean(context.idUpload),
  },
}).createMachine({
  id: 'publish',
  context: ({ input }) => ({ idUpload: input.idUpload, detail: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'has idUpload', target: 'loading' }, { target: 'failed' }],
    },
    loading: {
      invoke: {
        id: 'loadRequest',
        src: 'loadRequest',
        input: ({ context }) => ({ idUpload: context.idUpload! }),
        onDone: { target: 'editing', actions: assign({ detail: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: { type: 'toast load failure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    editing: {
      on: { 'form.submit': 'submitting' },
    },
    submitting: {
      entry: 'toast sending',
      invoke: {
        id: 'publish',
        src: 'publish',
        input: ({ context, event }) => {
          assertEvent(event, 'form.submit');
          return { idUpload: context.idUpload!, payload: event.payload };
        },
        onDone: { target: 'done', actions: ['toast sent', 'reset form'] },
        onError: { target: 'editing', actions: { type: 'toast failure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    done: {
      type: 'final',
      entry: 'leave to request list',
    },
    failed: {
      type: 'final',
      entry: 'leave to request list',
    },
  },
});
