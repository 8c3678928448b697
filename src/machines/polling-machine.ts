import { emit, fromCallback, fromPromise, setup } from 'xstate';

/** SPEC.md section 9: the request list refreshes every 15 seconds. */
export const requestListPollMs = 15_000;

/** A published set's page refreshes faster while its videos are on their way, so statuses change before the operator's eyes. */
export const publishedDetailPollMs = 5_000;

export interface PollingInput {
  intervalMs: number;
}

export type PollingEvent = { type: 'tab.visible' } | { type: 'tab.hidden' };

export type PollingEmitted = { type: 'refresh' };

/**
 * Asks for a refresh every `intervalMs` while the tab is visible, and at once when it becomes
 * visible again (what was shown may be stale by then). Stopping the actor (the screen unmounting)
 * cancels the pending wait, so nothing refreshes afterwards.
 */
export const pollingMachine = setup({
  types: {
    context: {} as PollingInput,
    events: {} as PollingEvent,
    input: {} as PollingInput,
    emitted: {} as PollingEmitted,
  },
  actors: {
    wait: fromPromise<void, { ms: number }>(
      ({ input, signal }) =>
        new Promise((resolve) => {
          const timer = setTimeout(resolve, input.ms);
          signal.addEventListener('abort', () => clearTimeout(timer));
        }),
    ),
    tabVisibility: fromCallback<PollingEvent>(({ sendBack }) => {
      const report = () => sendBack({ type: document.visibilityState === 'hidden' ? 'tab.hidden' : 'tab.visible' });
      document.addEventListener('visibilitychange', report);
      return () => document.removeEventListener('visibilitychange', report);
    }),
  },
  actions: {
    'ask for refresh': emit({ type: 'refresh' as const }),
  },
}).createMachine({
  id: 'polling',
  context: ({ input }) => input,
  invoke: { id: 'tabVisibility', src: 'tabVisibility' },
  initial: 'waiting',
  states: {
    waiting: {
      invoke: {
        id: 'wait',
        src: 'wait',
        input: ({ context }) => ({ ms: context.intervalMs }),
        onDone: { target: 'waiting', reenter: true, actions: 'ask for refresh' },
      },
      on: { 'tab.hidden': 'hidden' },
    },
    hidden: {
      on: { 'tab.visible': { target: 'waiting', actions: 'ask for refresh' } },
    },
  },
});
