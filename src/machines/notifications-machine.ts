import { assign, fromPromise, setup } from 'xstate';
import { api } from '../lib/api';
import type { NotificationList } from '../lib/contract';
import { pollingMachine } from './polling-machine';

/** Renders and publishes finish within minutes; the bell asks every 30 s while the tab is visible. */
export const notificationsPollMs = 30_000;

export interface NotificationsContext {
  list: NotificationList | null;
}

export type NotificationsEvent = { type: 'read'; id: number } | { type: 'read.all' } | { type: 'refresh' };

/**
 * The bell's notifications: loaded with the shell, refreshed on a poll, marked read one by one
 * (when followed) or all at once. A failed load keeps what was shown and tries again on the next poll.
 */
export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
  },
  actors: {
    load: fromPromise<NotificationList>(() => api<NotificationList>('GET', '/notifications')),
    markRead: fromPromise<void, { id: number | null }>(({ input }) =>
      api('POST', input.id === null ? '/notifications/read' : `/notifications/${input.id}/read`),
    ),
    polling: pollingMachine,
  },
}).createMachine({
  id: 'notifications',
  context: { list: null },
  initial: 'loading',
  on: {
    read: { target: '.marking', actions: assign({ list: ({ context, event }) => markedRead(context.list, event.id) }) },
    'read.all': { target: '.marking', actions: assign({ list: ({ context }) => markedRead(context.list, null) }) },
  },
  states: {
    loading: {
      invoke: {
        src: 'load',
        onDone: { target: 'shown', actions: assign({ list: ({ event }) => event.output }) },
        onError: 'shown',
      },
    },
    shown: {
      invoke: { src: 'polling', input: { intervalMs: notificationsPollMs } },
      on: { refresh: 'loading' },
    },
    marking: {
      invoke: {
        src: 'markRead',
        input: ({ event }) => ({ id: event.type === 'read' ? event.id : null }),
        onDone: 'loading',
        onError: 'loading',
      },
    },
  },
});

/** Shown read at once; the reload after the call shows what the server kept. */
function markedRead(list: NotificationList | null, id: number | null): NotificationList | null {
  if (!list) return list;
  const items = list.items.map((item) => (id === null || item.id === id ? { ...item, read: true } : item));
  return { items, unread: items.filter((item) => !item.read).length };
}
