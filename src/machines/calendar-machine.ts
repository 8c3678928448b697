import { assign, fromPromise, setup } from 'xstate';
import { api } from '../lib/api';
import { daysOf, kyivDay, rangeOf, shiftAnchor, type CalendarView, type Day } from '../lib/calendar';
import type { CalendarRange } from '../lib/contract';

export interface CalendarContext {
  view: CalendarView;
  /** A day inside the period shown. */
  anchor: Day;
  /** Today in Kyiv, where the calendar opens. */
  today: Day;
  /** Null shows every profile. */
  accountId: number | null;
  range: CalendarRange | null;
  error: unknown;
}

export type CalendarEvent =
  | { type: 'view.pick'; view: CalendarView }
  | { type: 'period.previous' }
  | { type: 'period.next' }
  | { type: 'period.today' }
  | { type: 'account.pick'; accountId: number | null }
  /** The week of a day, from a month cell with more posts than it shows. */
  | { type: 'day.open'; day: Day }
  | { type: 'reload' };

export function calendarPath({ view, anchor, accountId }: Pick<CalendarContext, 'view' | 'anchor' | 'accountId'>): string {
  const { from, to } = rangeOf(daysOf(view, anchor));
  const query = new URLSearchParams({ from, to });
  if (accountId !== null) query.set('accountId', String(accountId));
  return `/calendar?${query}`;
}

/** The calendar screen: which period and profile it shows, and the posts of that period. */
export const calendarMachine = setup({
  types: {
    context: {} as CalendarContext,
    events: {} as CalendarEvent,
  },
  actors: {
    load: fromPromise<CalendarRange, { path: string }>(({ input }) => api<CalendarRange>('GET', input.path)),
  },
}).createMachine({
  id: 'calendar',
  context: () => {
    const today = kyivDay(Date.now());
    return { view: 'week', anchor: today, today, accountId: null, range: null, error: undefined };
  },
  initial: 'loading',
  on: {
    'view.pick': { target: '.loading', actions: assign({ view: ({ event }) => event.view }) },
    'period.previous': { target: '.loading', actions: assign({ anchor: ({ context }) => shiftAnchor(context.view, context.anchor, -1) }) },
    'period.next': { target: '.loading', actions: assign({ anchor: ({ context }) => shiftAnchor(context.view, context.anchor, 1) }) },
    'period.today': {
      target: '.loading',
      actions: assign(() => {
        const today = kyivDay(Date.now());
        return { anchor: today, today };
      }),
    },
    'account.pick': { target: '.loading', actions: assign({ accountId: ({ event }) => event.accountId }) },
    'day.open': { target: '.loading', actions: assign({ view: 'week', anchor: ({ event }) => event.day }) },
  },
  states: {
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ path: calendarPath(context) }),
        onDone: { target: 'ready', actions: assign({ range: ({ event }) => event.output, error: undefined }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    ready: {},
    failed: {
      on: { reload: 'loading' },
    },
  },
});
