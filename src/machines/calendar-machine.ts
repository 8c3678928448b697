import { assign, cancel, fromPromise, raise, setup } from 'xstate';
import toast from 'react-hot-toast';
import { api, ApiError } from '../lib/api';
import { daysOf, kyivDay, kyivMomentOf, rangeOf, sameTimeOn, shiftAnchor, type CalendarView, type Day } from '../lib/calendar';
import type { CalendarPost, CalendarRange } from '../lib/contract';
import type { Platform } from '../lib/platforms';
import * as t from '../lib/i18n';
import { toastErrors } from '../lib/toasts';

export interface CalendarContext {
  view: CalendarView;
  /** A day inside the period shown. */
  anchor: Day;
  /** Today in Kyiv, where the calendar opens. */
  today: Day;
  /** The one profile shown, or (groupId) the one group's profiles; both null show every profile. */
  accountId: number | null;
  groupId: number | null;
  range: CalendarRange | null;
  error: unknown;
  /** The range as it was before a move on its way showed the post at its new time: put back if the move is refused. */
  beforeMove: CalendarRange | null;
  /**
   * The move (to `date`, Kyiv wall time) of a video's post on `platform` on its way, or the cancel
   * (date null) of its post on `platform` (null: of all its posts).
   */
  change: { idUpload: string; videoId: number; date: string | null; platform: Platform | null } | null;
  /** What was just cancelled (one post, or with platform null all the video's): it can be put back until `undoWindowMs` has passed. */
  undoable: Cancelled | null;
  /** Issue 43.5: the possible duplicates the server named for the move on its way, which the operator may make anyway. */
  duplicates: string[];
}

/** A cancel: the video's post on `platform`, or with null all its posts. */
export interface Cancelled {
  idUpload: string;
  videoId: number;
  platform: Platform | null;
}

/** How long a cancelled publication can be put back from its toast, as on the set's page. */
export const undoWindowMs = 10_000;

export type CalendarEvent =
  | { type: 'view.pick'; view: CalendarView }
  | { type: 'period.previous' }
  | { type: 'period.next' }
  | { type: 'period.today' }
  | { type: 'account.pick'; accountId: number | null }
  | { type: 'group.pick'; groupId: number | null }
  /** The week of a day, from a month cell with more posts than it shows. */
  | { type: 'day.open'; day: Day }
  | { type: 'reload' }
  /** A scheduled post dropped on a day: it goes there at the same Kyiv time, its video's other posts staying. */
  | { type: 'post.move'; post: CalendarPost; day: Day }
  /** The post named, or (allPlatforms) every post of its video. */
  | { type: 'post.cancel'; post: CalendarPost; allPlatforms: boolean }
  /** The undo toast's 'Повернути': what the last cancel took, back as it was. */
  | { type: 'cancel.restore' }
  /** Raised `undoWindowMs` after a cancel: it can no longer be put back from here. */
  | { type: 'undo.expire' }
  /** 'Все одно перенести': the move the server named possible duplicates of, made all the same. */
  | { type: 'duplicate.confirm' }
  /** The move left undone: the post goes back where it was. */
  | { type: 'duplicate.dismiss' };

export function calendarPath({
  view,
  anchor,
  accountId,
  groupId = null,
}: Pick<CalendarContext, 'view' | 'anchor' | 'accountId'> & { groupId?: number | null }): string {
  const { from, to } = rangeOf(daysOf(view, anchor));
  const query = new URLSearchParams({ from, to });
  if (accountId !== null) query.set('accountId', String(accountId));
  if (groupId !== null) query.set('groupId', String(groupId));
  return `/calendar?${query}`;
}

const schedulePath = (idUpload: string, videoId: number) => `/upload-video/${encodeURIComponent(idUpload)}/video/${videoId}`;
/** The schedule of the video's post on `platform`, or of all its posts. */
const cancelPath = ({ idUpload, videoId, platform }: Cancelled) =>
  `${schedulePath(idUpload, videoId)}/schedule${platform ? `/${platform}` : ''}`;

/** The range with the moved post at its new moment: the calendar shows the move while the server takes it. */
function withMove(range: CalendarRange, moved: CalendarPost, scheduledAt: string): CalendarRange {
  const posts = range.posts.map((post) => (post.id === moved.id ? { ...post, scheduledAt } : post));
  return { ...range, posts: posts.sort((one, other) => one.scheduledAt.localeCompare(other.scheduledAt) || one.id - other.id) };
}

const cancelOf = ({ idUpload, videoId, platform }: NonNullable<CalendarContext['change']>): Cancelled => ({ idUpload, videoId, platform });

type MoveEvent = Extract<CalendarEvent, { type: 'post.move' }>;
type CancelEvent = Extract<CalendarEvent, { type: 'post.cancel' }>;

/**
 * The calendar screen: which period and profile or group it shows, and the posts of that period;
 * a scheduled post moved to another day alone (shown there at once, put back where the server
 * refuses it with its reason), or cancelled alone or with its video's other posts (put back from
 * the undo toast for `undoWindowMs`).
 */
export const calendarMachine = setup({
  types: {
    context: {} as CalendarContext,
    events: {} as CalendarEvent,
  },
  actors: {
    load: fromPromise<CalendarRange, { path: string }>(({ input }) => api<CalendarRange>('GET', input.path)),
    move: fromPromise<unknown, { idUpload: string; videoId: number; date: string; platform: Platform; allowDuplicates: boolean }>(
      ({ input }) =>
        api('PATCH', schedulePath(input.idUpload, input.videoId), {
          date: input.date,
          platform: input.platform,
          ...(input.allowDuplicates && { allowDuplicates: true }),
        }),
    ),
    cancelSchedule: fromPromise<unknown, Cancelled>(({ input }) => api('DELETE', cancelPath(input))),
    restoreSchedule: fromPromise<unknown, Cancelled>(({ input }) => api('POST', cancelPath(input))),
  },
  actions: {
    'toast errors': (_, params: { error: unknown }) => toastErrors(params.error),
    'toast moved': ({ context }) => {
      const [day, time] = context.change!.date!.split('T') as [Day, string];
      const [, month, date] = day.split('-');
      toast.success(t.calendar.moved(`${date}.${month}`, time));
    },
    'toast restored': () => {
      toast.success(t.postTruth.restored);
    },
  },
  delays: {
    undoWindow: undoWindowMs,
  },
  guards: {
    'to another day': ({ event }) => {
      const { post, day } = event as MoveEvent;
      return post.cancellable && kyivDay(post.scheduledAt) !== day;
    },
    // One post while it has not started; all its video's while none of them has.
    cancellable: ({ event }) => {
      const { post, allPlatforms } = event as CancelEvent;
      return allPlatforms ? post.changeable : post.cancellable;
    },
    'can undo': ({ context }) => context.undoable !== null,
    // The server's refusal of possible duplicates starts with the catalog's own line (server/routes/upload-video.ts).
    'refused as duplicates': (_, params: { error: unknown }) =>
      params.error instanceof ApiError && params.error.status === 409 && params.error.messages[0] === t.spread.duplicatesFound,
  },
}).createMachine({
  id: 'calendar',
  context: () => {
    const today = kyivDay(Date.now());
    return {
      view: 'week',
      anchor: today,
      today,
      accountId: null,
      groupId: null,
      range: null,
      error: undefined,
      beforeMove: null,
      change: null,
      undoable: null,
      duplicates: [],
    };
  },
  initial: 'browsing',
  on: {
    'undo.expire': { actions: assign({ undoable: null }) },
  },
  states: {
    // What the calendar shows, and where the operator's changes start. A change on its way holds
    // the period still: its answer is read into the period it was made in.
    browsing: {
      initial: 'loading',
      on: {
        'view.pick': { target: '.loading', actions: assign({ view: ({ event }) => event.view }) },
        'period.previous': {
          target: '.loading',
          actions: assign({ anchor: ({ context }) => shiftAnchor(context.view, context.anchor, -1) }),
        },
        'period.next': { target: '.loading', actions: assign({ anchor: ({ context }) => shiftAnchor(context.view, context.anchor, 1) }) },
        'period.today': {
          target: '.loading',
          actions: assign(() => {
            const today = kyivDay(Date.now());
            return { anchor: today, today };
          }),
        },
        'account.pick': { target: '.loading', actions: assign({ accountId: ({ event }) => event.accountId, groupId: null }) },
        'group.pick': { target: '.loading', actions: assign({ groupId: ({ event }) => event.groupId, accountId: null }) },
        'day.open': { target: '.loading', actions: assign({ view: 'week', anchor: ({ event }) => event.day }) },
        'post.move': {
          guard: 'to another day',
          target: 'moving',
          actions: assign(({ context, event }) => {
            const { post, day } = event;
            const date = sameTimeOn(day, post.scheduledAt);
            return {
              beforeMove: context.range,
              change: { idUpload: post.idUpload, videoId: post.videoId, date, platform: post.platform },
              range: context.range && withMove(context.range, post, kyivMomentOf(date)),
            };
          }),
        },
        'post.cancel': {
          guard: 'cancellable',
          target: 'cancelling',
          actions: assign({
            change: ({ event: { post, allPlatforms } }) => ({
              idUpload: post.idUpload,
              videoId: post.videoId,
              date: null,
              platform: allPlatforms ? null : post.platform,
            }),
          }),
        },
        'cancel.restore': { guard: 'can undo', target: 'restoring' },
      },
      states: {
        loading: {
          invoke: {
            id: 'load',
            src: 'load',
            input: ({ context }) => ({ path: calendarPath(context) }),
            onDone: { target: 'ready', actions: assign({ range: ({ event }) => event.output, error: undefined }) },
            onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
          },
        },
        // A plan just imported (issue 43.3) is read again, as a failed load is.
        ready: {
          on: { reload: 'loading' },
        },
        failed: {
          on: { reload: 'loading' },
        },
      },
    },
    // The post shows at its new time meanwhile; a refusal (the profile's hours, days, gap or a
    // platform's cap: the server's words) puts it back where it was.
    moving: {
      invoke: {
        id: 'move',
        src: 'move',
        input: ({ context }) => {
          const { idUpload, videoId, date, platform } = context.change!;
          return { idUpload, videoId, date: date!, platform: platform!, allowDuplicates: context.duplicates.length > 0 };
        },
        onDone: { target: 'browsing.loading', actions: ['toast moved', assign({ beforeMove: null, change: null, duplicates: [] })] },
        onError: [
          {
            guard: { type: 'refused as duplicates', params: ({ event }) => ({ error: event.error }) },
            target: 'confirmingDuplicate',
            actions: assign({ duplicates: ({ event }) => (event.error as ApiError).messages.slice(1) }),
          },
          {
            target: 'browsing.ready',
            actions: [
              assign(({ context }) => ({ range: context.beforeMove, beforeMove: null, change: null, duplicates: [] })),
              { type: 'toast errors', params: ({ event }) => ({ error: event.error }) },
            ],
          },
        ],
      },
    },
    // Issue 43.5: the post stays shown at its new time while the operator reads the possible
    // duplicates; made anyway, the move goes again with the operator's consent.
    confirmingDuplicate: {
      on: {
        'duplicate.confirm': 'moving',
        'duplicate.dismiss': {
          target: 'browsing.ready',
          actions: assign(({ context }) => ({ range: context.beforeMove, beforeMove: null, change: null, duplicates: [] })),
        },
      },
    },
    cancelling: {
      invoke: {
        id: 'cancelSchedule',
        src: 'cancelSchedule',
        input: ({ context }) => cancelOf(context.change!),
        // The window of an earlier cancel ends here: one undo at a time, the latest.
        onDone: {
          target: 'browsing.loading',
          actions: [
            assign(({ context }) => ({ undoable: cancelOf(context.change!), change: null })),
            cancel('undoWindow'),
            raise({ type: 'undo.expire' }, { id: 'undoWindow', delay: 'undoWindow' }),
          ],
        },
        onError: {
          target: 'browsing.ready',
          actions: [assign({ change: null }), { type: 'toast errors', params: ({ event }) => ({ error: event.error }) }],
        },
      },
    },
    // The undo: the server schedules what the cancel took again as it was.
    restoring: {
      invoke: {
        id: 'restoreSchedule',
        src: 'restoreSchedule',
        input: ({ context }) => context.undoable!,
        onDone: { target: 'browsing.loading', actions: [assign({ undoable: null }), 'toast restored'] },
        onError: { target: 'browsing.ready', actions: { type: 'toast errors', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
