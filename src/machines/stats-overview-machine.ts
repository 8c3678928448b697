import { assign, fromPromise, setup } from 'xstate';
import toast from 'react-hot-toast';
import { api, download } from '../lib/api';
import type { StatsChoices, StatsOverview, TopVideos } from '../lib/contract';
import * as t from '../lib/i18n';
import { kyivWallTime } from '../lib/kyiv-time';
import { saveFile } from '../lib/save-file';
import type { StatsFiltersForm } from '../lib/schemas';

/** What the statistics screen shows and exports: a period of Kyiv days, a profile or a group, a platform. */
export type StatsFilters = StatsFiltersForm;

/** How many days the screen opens on: the last 30, today included. */
const openingDays = 30;

/** The last `openingDays` Kyiv days up to `now`. */
export function openingFilters(now: number): StatsFilters {
  const to = kyivWallTime(now).slice(0, 10);
  const from = new Date(Date.parse(to) - (openingDays - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to, scope: '', platform: '' };
}

/** The query the statistics routes take for these filters. */
export function statsQuery({ from, to, scope, platform }: StatsFilters): string {
  const query = new URLSearchParams({ from, to });
  const [kind, id] = scope.split(':');
  if (kind === 'account') query.set('accountId', id!);
  if (kind === 'group') query.set('groupId', id!);
  if (platform) query.set('platform', platform);
  return query.toString();
}

/** The figures of one set of filters: the overview's totals, days and profiles, and the top videos. */
export interface PeriodFigures {
  overview: StatsOverview;
  top: TopVideos;
}

export interface StatsOverviewContext {
  filters: StatsFilters;
  choices: StatsChoices | null;
  /** The figures of the filters applied; the last ones stay shown while new ones load. */
  figures: PeriodFigures | null;
  /** Why the figures or the choices could not be read. */
  error: unknown;
  /** What the export dialog exports: the page's filters when it opens, then what it last asked for. */
  exported: StatsFilters | null;
  /** Whether the export dialog shows the filters' fields, to export other figures than the page's. */
  exportChanging: boolean;
  /** Why the last export failed, shown in its dialog. */
  exportError: unknown;
}

export type StatsOverviewEvent =
  | { type: 'filters.apply'; filters: StatsFilters }
  | { type: 'reload' }
  | { type: 'export.open' }
  | { type: 'export.change' }
  | { type: 'export.cancel' }
  | { type: 'export.submit'; filters: StatsFilters };

/**
 * The statistics screen: the profiles and groups to narrow it to, the figures of the filters
 * applied (the overview and the top videos, read together), and the export dialog, which exports
 * the page's filters unless the operator changes them there, and whose CSV is fetched with the
 * session's token (a link cannot send it) and handed to the browser's downloads.
 */
export const statsOverviewMachine = setup({
  types: {
    context: {} as StatsOverviewContext,
    events: {} as StatsOverviewEvent,
  },
  actors: {
    loadChoices: fromPromise<StatsChoices>(() => api<StatsChoices>('GET', '/stats/choices')),
    loadFigures: fromPromise<PeriodFigures, { filters: StatsFilters }>(async ({ input }) => {
      const query = statsQuery(input.filters);
      const [overview, top] = await Promise.all([
        api<StatsOverview>('GET', `/stats/overview?${query}`),
        api<TopVideos>('GET', `/stats/top?${query}`),
      ]);
      return { overview, top };
    }),
    exportCsv: fromPromise<void, { filters: StatsFilters }>(async ({ input, signal }) =>
      saveFile(await download(`/stats/export.csv?${statsQuery(input.filters)}`, 'statystyka.csv', signal)),
    ),
  },
  actions: {
    // Plain actions, not assignments: an assignment may run more than once, and a toast must not.
    'toast exported': () => {
      toast.success(t.statsScreen.exportDone);
    },
  },
}).createMachine({
  id: 'statsOverview',
  context: () => ({
    filters: openingFilters(Date.now()),
    choices: null,
    figures: null,
    error: undefined,
    exported: null,
    exportChanging: false,
    exportError: undefined,
  }),
  type: 'parallel',
  states: {
    choices: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadChoices',
            onDone: { target: 'ready', actions: assign({ choices: ({ event }) => event.output }) },
            onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
          },
        },
        ready: {},
        failed: { on: { reload: 'loading' } },
      },
    },
    figures: {
      initial: 'loading',
      on: {
        'filters.apply': { target: '.loading', actions: assign({ filters: ({ event }) => event.filters }) },
      },
      states: {
        loading: {
          invoke: {
            src: 'loadFigures',
            input: ({ context }) => ({ filters: context.filters }),
            onDone: { target: 'ready', actions: assign({ figures: ({ event }) => event.output, error: undefined }) },
            onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
          },
        },
        ready: {},
        failed: { on: { reload: 'loading' } },
      },
    },
    export: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'export.open': {
              target: 'asking',
              actions: assign({ exported: ({ context }) => context.filters, exportChanging: false, exportError: undefined }),
            },
          },
        },
        asking: {
          on: {
            'export.change': { actions: assign({ exportChanging: true }) },
            'export.cancel': 'closed',
            'export.submit': { target: 'downloading', actions: assign({ exported: ({ event }) => event.filters, exportError: undefined }) },
          },
        },
        downloading: {
          // Leaving stops the actor, whose signal stops the download: a cancelled file is never saved.
          on: { 'export.cancel': 'closed' },
          invoke: {
            src: 'exportCsv',
            input: ({ context }) => ({ filters: context.exported! }),
            onDone: { target: 'closed', actions: 'toast exported' },
            onError: { target: 'asking', actions: assign({ exportError: ({ event }) => event.error }) },
          },
        },
      },
    },
  },
});
