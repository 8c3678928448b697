import { fromCallback, sendParent, setup } from 'xstate';

/** SPEC.md section 9: the request list refreshes every 15 seconds. */
export const requestListPollMs = 15_000;

/** A published set's page refreshes faster while its videos are on their way, so statuses change before the operator's eyes. */
export const publishedDetailPollMs = 5_000;

export interface PollingInput {
  intervalMs: number;
}

export type PollingEvent = { type: 'tab.visible' } | { type: 'tab.hidden' };

const tabIsHidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

/**
 * Invoked by a screen's machine while it wants fresh data: sends its parent `refresh` every
 * `intervalMs` while the tab is visible, nothing while it is hidden, and `refresh` at once when it
 * shows again (what was shown may be stale by then). The timer is a delayed transition, so it
 * ends with the actor: when the parent leaves the state that invoked it, or its screen unmounts.
 */
export const pollingMachine = setup({
  types: {
    context: {} as PollingInput,
    events: {} as PollingEvent,
    input: {} as PollingInput,
  },
  actors: {
    tabVisibility: fromCallback<PollingEvent>(({ sendBack }) => {
      const report = () => sendBack({ type: tabIsHidden() ? 'tab.hidden' : 'tab.visible' });
      document.addEventListener('visibilitychange', report);
      return () => document.removeEventListener('visibilitychange', report);
    }),
  },
  actions: {
    'ask for refresh': sendParent({ type: 'refresh' }),
  },
  guards: {
    'tab is hidden': tabIsHidden,
  },
  delays: {
    interval: ({ context }) => context.intervalMs,
  },
}).createMachine({
  id: 'polling',
  context: ({ input }) => input,
  invoke: { id: 'tabVisibility', src: 'tabVisibility' },
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'tab is hidden', target: 'hidden' }, { target: 'waiting' }],
    },
    waiting: {
      after: { interval: { target: 'waiting', reenter: true, actions: 'ask for refresh' } },
      on: { 'tab.hidden': 'hidden' },
    },
    hidden: {
      on: { 'tab.visible': { target: 'waiting', actions: 'ask for refresh' } },
    },
  },
});
