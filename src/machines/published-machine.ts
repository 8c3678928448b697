import { assign, cancel, fromPromise, raise, setup } from 'xstate';
import toast from 'react-hot-toast';
import { api } from '../lib/api';
import type { ReschedulePayload, RetryPayload, UploadDetail } from '../lib/contract';
import * as t from '../lib/i18n';
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
  /** The video whose publication was just cancelled: it can be put back until `undoWindowMs` has passed. */
  undoable: number | null;
  /** Where the keyboard goes after a change, so it never falls to the page: a new object for every change. */
  focus: PublishedFocus | null;
}

/** A video's schedule editor (its first field), or its row's 'Змінити'. The undo toast takes the focus itself. */
export type PublishedFocus = { on: 'editor' | 'change'; videoId: number };

/** How long a cancelled publication can be put back from its toast. */
export const undoWindowMs = 10_000;

export type PublishedEvent =
  | { type: 'video.retry'; videoId: number }
  | { type: 'schedule.open'; videoId: number }
  | { type: 'schedule.close' }
  | { type: 'schedule.save'; videoId: number; change: ReschedulePayload }
  | { type: 'schedule.cancel'; videoId: number }
  /** The undo toast's 'Повернути': the last cancelled publication, back as it was. */
  | { type: 'schedule.restore' }
  /** Raised `undoWindowMs` after a cancel: it can no longer be put back from here. */
  | { type: 'undo.expire' }
  | { type: 'edit.submit'; values: PublishedEditForm }
  /** From the polling child: time to read the set again. */
  | { type: 'refresh' };

const detailPath = (idUpload: string) => `/upload-video/${encodeURIComponent(idUpload)}`;

/**
 * A published set (/video/youtube/{idUpload}): load it, keep reading it while any of its videos is
 * still rendering or being published or an edit is on its way to YouTube (paused while the tab is hidden), stop once all have settled,
 * publish a failed video again, move or cancel a scheduled video until it starts (a cancel can be
 * put back for `undoWindowMs`: the server keeps the cancelled posts, see cancelPosts), and save the set's texts.
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
    restoreSchedule: fromPromise<UploadDetail, { idUpload: string; videoId: number }>(({ input }) =>
      api('POST', `${detailPath(input.idUpload)}/video/${input.videoId}/schedule`),
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
    'toast restored': () => {
      toast.success(t.postTruth.restored);
    },
    'focus editor': assign({ focus: ({ context }) => ({ on: 'editor' as const, videoId: context.scheduling! }) }),
  },
  delays: {
    undoWindow: undoWindowMs,
  },
  guards: {
    'can undo': ({ context }) => context.undoable !== null,
    // An edit on its way to YouTube is work too: the page follows it until it lands or is refused.
    'has work in progress': ({ context }) =>
      hasVideosInProgress(context.detail?.video ?? []) || (context.detail?.edits ?? []).some((edit) => edit.pending > 0),
  },
}).createMachine({
  id: 'published',
  context: ({ input }) => ({ idUpload: input.idUpload, detail: null, retrying: null, scheduling: null, undoable: null, focus: null }),
  initial: 'loading',
  on: {
    'undo.expire': { actions: assign({ undoable: null }) },
  },
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
          on: { refresh: 'refreshing' },
        },
        settled: {},
        // Inside `ready`: the operator's actions are taken while the set is read again (the read is
        // what they abandon), rather than lost to a poll that happened to be running.
        refreshing: {
          invoke: {
            id: 'refreshSet',
            src: 'loadSet',
            input: ({ context }) => ({ idUpload: context.idUpload }),
            onDone: { target: 'choosing', actions: [assign({ detail: ({ event }) => event.output }), 'close a schedule that started'] },
            // A refresh that fails keeps what is shown: the set was there a moment ago.
            onError: { target: 'choosing', actions: { type: 'toast errors', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
      on: {
        'video.retry': { target: 'retrying', actions: assign({ retrying: ({ event }) => event.videoId }) },
        'edit.submit': 'saving',
        'schedule.open': { actions: [assign({ scheduling: ({ event }) => event.videoId }), 'focus editor'] },
        'schedule.close': {
          actions: assign({ focus: ({ context }) => ({ on: 'change' as const, videoId: context.scheduling! }), scheduling: null }),
        },
        'schedule.save': { target: 'rescheduling', actions: assign({ scheduling: ({ event }) => event.videoId }) },
        'schedule.cancel': { target: 'cancellingSchedule', actions: assign({ scheduling: ({ event }) => event.videoId }) },
        'schedule.restore': { guard: 'can undo', target: 'restoringSchedule' },
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
        onDone: {
          target: 'ready',
          actions: [
            assign({
              detail: ({ event }) => event.output,
              focus: ({ context }) => ({ on: 'change' as const, videoId: context.scheduling! }),
              scheduling: null,
            }),
            'toast rescheduled',
          ],
        },
        onError: { target: 'ready', actions: [{ type: 'toast errors', params: ({ event }) => ({ error: event.error }) }, 'focus editor'] },
      },
    },
    cancellingSchedule: {
      invoke: {
        id: 'cancelSchedule',
        src: 'cancelSchedule',
        input: ({ context }) => ({ idUpload: context.idUpload, videoId: context.scheduling! }),
        // The window of an earlier cancel ends here: one undo at a time, the latest.
        onDone: {
          target: 'ready',
          actions: [
            assign({ detail: ({ event }) => event.output, undoable: ({ context }) => context.scheduling, scheduling: null }),
            cancel('undoWindow'),
            raise({ type: 'undo.expire' }, { id: 'undoWindow', delay: 'undoWindow' }),
          ],
        },
        onError: { target: 'ready', actions: [{ type: 'toast errors', params: ({ event }) => ({ error: event.error }) }, 'focus editor'] },
      },
    },
    // The undo: the server schedules the cancelled posts again as they were. A refusal keeps the
    // toast (a lost connection may pass) until its window ends.
    restoringSchedule: {
      invoke: {
        id: 'restoreSchedule',
        src: 'restoreSchedule',
        input: ({ context }) => ({ idUpload: context.idUpload, videoId: context.undoable! }),
        onDone: {
          target: 'ready',
          actions: [
            assign({
              detail: ({ event }) => event.output,
              focus: ({ context }) => ({ on: 'change' as const, videoId: context.undoable! }),
              undoable: null,
            }),
            'toast restored',
          ],
        },
        onError: { target: 'ready', actions: { type: 'toast errors', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    retrying: {
      invoke: {
        id: 'retryVideo',
        src: 'retryVideo',
        input: ({ context }) => ({ videoId: context.retrying!, youTubeId: context.idUpload }),
        onDone: { target: 'ready.refreshing', actions: assign({ retrying: null }) },
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
