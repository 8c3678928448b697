import { assign, fromPromise, setup } from 'xstate';
import toast from 'react-hot-toast';
import { api } from '../lib/api';
import type { ReschedulePayload, RetryPayload, UploadDetail } from '../lib/contract';
import { t } from '../lib/i18n';
import { hasVideosInProgress } from '../lib/publishing';
import type { PublishedEditForm } from '../lib/schemas';
import { toastErrors } from '../lib/toasts';
import { pollingMachine, publishedDetailPollMs } from './polling-machine';

export interface PublishedInput {
  idUpload: string;
}

export interface PublishedContext {
  idUpload: string;
  detail: UploadDetail | null;
  /** The video whose publication is being retried. */
  retrying: number | null;
  /** The scheduled video whose date and profile are open for change. */
  scheduling: number | null;
}

export type PublishedEvent =
  | { type: 'video.retry'; videoId: number }
  | { type: 'schedule.open'; videoId: number }
  | { type: 'schedule.close' }
  | { type: 'schedule.save'; videoId: number; change: ReschedulePayload }
  | { type: 'schedule.cancel'; videoId: number }
  | { type: 'edit.submit'; values: PublishedEditForm }
  /** From the polling child: time to read the set again. */
  | { type: 'refresh' };

const detailPath = (idUpload: string) => `/upload-video/${encodeURIComponent(idUpload)}`;

/**
 * A published set (/video/youtube/{idUpload}): load it, keep reading it while any of its videos is
 * still rendering or being published or an edit is on its way to YouTube (paused while the tab is hidden), stop once all have settled,
 * publish a failed video again, move or cancel a scheduled video until it starts, and save the set's texts.
 */
export const publishedMachine = setup({
  types: {
    context: {} as PublishedContext,
    events: {} as PublishedEvent,
    input: {} as PublishedInput,
  },
  actors: {
    loadSet: fromPromise<UploadDetail, { idUpload: string }>(({ input }) => api('GET', detailPath(input.idUpload))),
    retryVideo: fromPromise<unknown, RetryPayload>(({ input }) => api('POST', '/upload-video/upload', input)),
    saveTexts: fromPromise<UploadDetail, { idUpload: string; values: PublishedEditForm }>(({ input }) =>
      api('PATCH', detailPath(input.idUpload), input.values),
    ),
    reschedule: fromPromise<UploadDetail, { idUpload: string; videoId: number; change: ReschedulePayload }>(({ input }) =>
      api('PATCH', `${detailPath(input.idUpload)}/video/${input.videoId}`, input.change),
    ),
    cancelSchedule: fromPromise<UploadDetail, { idUpload: string; videoId: number }>(({ input }) =>
      api('DELETE', `${detailPath(input.idUpload)}/video/${input.videoId}/schedule`),
    ),
    polling: pollingMachine,
  },
  actions: {
    // Provided by the screen: it owns the router.
    'leave to list': () => {},
    'toast errors': (_, params: { error: unknown }) => toastErrors(params.error),
    'toast updated': () => {
      toast.success(t.published.updated);
    },
    // A video that started (or settled) since its schedule was opened can no longer change: its editor closes.
    'close a schedule that started': assign({
      scheduling: ({ context }) =>
        context.detail?.video.some((video) => video.id === context.scheduling && video.changeable) ? context.scheduling : null,
    }),
    'toast rescheduled': () => {
      toast.success(t.postTruth.scheduleSaved);
    },
    'toast cancelled': () => {
      toast.success(t.postTruth.scheduleCancelled);
    },
  },
  guards: {
    // An edit on its way to YouTube is work too: the page follows it until it lands or is refused.
    'has work in progress': ({ context }) =>
      hasVideosInProgress(context.detail?.video ?? []) || (context.detail?.edits ?? []).some((edit) => edit.pending > 0),
  },
}).createMachine({
  id: 'published',
  context: ({ input }) => ({ idUpload: input.idUpload, detail: null, retrying: null, scheduling: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadSet',
        src: 'loadSet',
        input: ({ context }) => ({ idUpload: context.idUpload }),
        onDone: { target: 'ready', actions: assign({ detail: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: { type: 'toast errors', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: {
      initial: 'choosing',
      states: {
        choosing: {
          always: [{ guard: 'has work in progress', target: 'polling' }, { target: 'settled' }],
        },
        polling: {
          invoke: { id: 'polling', src: 'polling', input: { intervalMs: publishedDetailPollMs } },
          on: { refresh: '#published.refreshing' },
        },
        settled: {},
      },
      on: {
        'video.retry': { target: 'retrying', actions: assign({ retrying: ({ event }) => event.videoId }) },
        'edit.submit': 'saving',
        'schedule.open': { actions: assign({ scheduling: ({ event }) => event.videoId }) },
        'schedule.close': { actions: assign({ scheduling: null }) },
        'schedule.save': 'rescheduling',
        'schedule.cancel': 'cancellingSchedule',
      },
    },
    // A scheduled video's new date or profile, or its cancellation: the answer is the set as it now stands.
    rescheduling: {
      invoke: {
        id: 'reschedule',
        src: 'reschedule',
        input: ({ context, event }) => {
          const { videoId, change } = event as Extract<PublishedEvent, { type: 'schedule.save' }>;
          return { idUpload: context.idUpload, videoId, change };
        },
        onDone: { target: 'ready', actions: [assign({ detail: ({ event }) => event.output, scheduling: null }), 'toast rescheduled'] },
        onError: { target: 'ready', actions: { type: 'toast errors', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    cancellingSchedule: {
      invoke: {
        id: 'cancelSchedule',
        src: 'cancelSchedule',
        input: ({ context, event }) => ({
          idUpload: context.idUpload,
          videoId: (event as Extract<PublishedEvent, { type: 'schedule.cancel' }>).videoId,
        }),
        onDone: { target: 'ready', actions: [assign({ detail: ({ event }) => event.output, scheduling: null }), 'toast cancelled'] },
        onError: { target: 'ready', actions: { type: 'toast errors', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    refreshing: {
      invoke: {
        id: 'refreshSet',
        src: 'loadSet',
        input: ({ context }) => ({ idUpload: context.idUpload }),
        onDone: { target: 'ready', actions: [assign({ detail: ({ event }) => event.output }), 'close a schedule that started'] },
        // A refresh that fails keeps what is shown: the set was there a moment ago.
        onError: { target: 'ready', actions: { type: 'toast errors', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    retrying: {
      invoke: {
        id: 'retryVideo',
        src: 'retryVideo',
        input: ({ context }) => ({ videoId: context.retrying!, youTubeId: context.idUpload }),
        onDone: { target: 'refreshing', actions: assign({ retrying: null }) },
        onError: {
          target: 'ready',
          actions: [assign({ retrying: null }), { type: 'toast errors', params: ({ event }) => ({ error: event.error }) }],
        },
      },
    },
    saving: {
      invoke: {
        id: 'saveTexts',
        src: 'saveTexts',
        input: ({ context, event }) => ({
          idUpload: context.idUpload,
          values: (event as Extract<PublishedEvent, { type: 'edit.submit' }>).values,
        }),
        onDone: {
          target: 'ready',
          actions: [assign({ detail: ({ event }) => event.output }), 'close a schedule that started', 'toast updated'],
        },
        onError: { target: 'ready', actions: { type: 'toast errors', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      type: 'final',
      entry: 'leave to list',
    },
  },
});
