import { assign, fromPromise, setup } from 'xstate';
import { api } from '../lib/api';
import type { StatsPeriod, StatsReport } from '../lib/contract';
import { pollingMachine } from './polling-machine';

/** Statistics are synced every STATS_INTERVAL minutes (15 by default); a minute's delay shows a new sync soon enough. */
export const statsPollMs = 60_000;

export interface StatsInput {
  /** `/stats/video/{idUpload}` or `/stats/accounts/{id}`. */
  path: string;
}

export interface StatsContext {
  path: string;
  days: StatsPeriod;
  report: StatsReport | null;
  error: unknown;
}

export type StatsEvent = { type: 'period.pick'; days: StatsPeriod } | { type: 'reload' } | { type: 'refresh' };

/**
 * A statistics panel's data: loads the report of the period picked, keeps showing the previous
 * one while another loads, and reads it again every minute while the tab is visible.
 */
export const statsMachine = setup({
  types: {
    context: {} as StatsContext,
    events: {} as StatsEvent,
    input: {} as StatsInput,
  },
  actors: {
    load: fromPromise<StatsReport, { path: string; days: StatsPeriod }>(({ input }) =>
      api<StatsReport>('GET', `${input.path}?days=${input.days}`),
    ),
    polling: pollingMachine,
  },
}).createMachine({
  id: 'stats',
  context: ({ input }) => ({ path: input.path, days: 7, report: null, error: undefined }),
  initial: 'loading',
  on: {
    'period.pick': { target: '.loading', actions: assign({ days: ({ event }) => event.days }) },
  },
  states: {
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ path: context.path, days: context.days }),
        onDone: { target: 'ready', actions: assign({ report: ({ event }) => event.output, error: undefined }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    ready: {
      invoke: { src: 'polling', input: { intervalMs: statsPollMs } },
      on: { refresh: 'loading', reload: 'loading' },
    },
    failed: {
      on: { reload: 'loading' },
    },
  },
});
