import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { StatsChoices, StatsOverview, TopVideos } from '../../src/lib/contract';
import * as t from '../../src/lib/i18n';
import { statsOverviewMachine, statsQuery, type StatsFilters } from '../../src/machines/stats-overview-machine';
import { apiDouble, recordToasts } from './api-double';
import { deferredActors } from './deferred-actors';

const choices: StatsChoices = { accounts: [{ id: 3, title: '#3 Ранок' }], groups: [{ id: 2, name: 'Київ' }] };
const top: TopVideos = { videos: [] };
const overview: StatsOverview = { totals: [], days: ['2026-12-01'], at: [1_764_540_000], daily: [], profiles: [] };
const figures = { overview, top };
const may: StatsFilters = { from: '2026-05-01', to: '2026-05-31', scope: 'group:2', platform: 'tiktok' };

describe('statistics screen machine', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('asks the routes for a period, and a profile or a group, and a platform', () => {
    expect(statsQuery({ from: '2026-05-01', to: '2026-05-31', scope: '', platform: '' })).toBe('from=2026-05-01&to=2026-05-31');
    expect(statsQuery({ ...may, scope: 'account:3', platform: '' })).toBe('from=2026-05-01&to=2026-05-31&accountId=3');
    expect(statsQuery(may)).toBe('from=2026-05-01&to=2026-05-31&groupId=2&platform=tiktok');
  });

  it('opens on the last 30 Kyiv days, and reads the figures again for the filters applied', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // 00:30 on 1 December in Kyiv, still 30 November in UTC.
    vi.setSystemTime(new Date('2026-11-30T22:30:00Z'));
    const calls = deferredActors(['loadChoices', 'loadFigures', 'exportCsv'] as const);
    const actor = createActor(statsOverviewMachine.provide({ actors: calls.actors })).start();
    expect(actor.getSnapshot().context.filters).toEqual({ from: '2026-11-02', to: '2026-12-01', scope: '', platform: '' });
    expect(calls.started.map(({ name, input }) => [name, input])).toEqual([
      ['loadChoices', undefined],
      ['loadFigures', { filters: { from: '2026-11-02', to: '2026-12-01', scope: '', platform: '' } }],
    ]);

    await calls.resolve('loadChoices', choices);
    await calls.reject('loadFigures', new Error('down'));
    expect(actor.getSnapshot().value).toEqual({ choices: 'ready', figures: 'failed', export: 'closed' });
    expect(actor.getSnapshot().context.error).toEqual(new Error('down'));
    actor.send({ type: 'reload' });
    await calls.resolve('loadFigures', figures);
    expect(actor.getSnapshot().value).toEqual({ choices: 'ready', figures: 'ready', export: 'closed' });
    expect(actor.getSnapshot().context).toMatchObject({ choices, figures, error: undefined });

    actor.send({ type: 'filters.apply', filters: may });
    expect(actor.getSnapshot().value).toMatchObject({ figures: 'loading' });
    // The figures read before stay shown while the new ones load.
    expect(actor.getSnapshot().context.figures).toEqual(figures);
    expect(calls.started.at(-1)).toEqual({ name: 'loadFigures', input: { filters: may } });
  });

  it('downloads the export asked for, keeps the dialog open with the reason when it fails, and says when it is saved', async () => {
    const shown: string[] = [];
    recordToasts(shown);
    const calls = deferredActors(['loadChoices', 'loadFigures', 'exportCsv'] as const);
    const actor = createActor(statsOverviewMachine.provide({ actors: calls.actors })).start();

    actor.send({ type: 'filters.apply', filters: may });
    actor.send({ type: 'export.open' });
    // It starts from the page's filters, named, not asked again; the fields only when asked for.
    expect(actor.getSnapshot().value).toMatchObject({ export: 'asking' });
    expect(actor.getSnapshot().context).toMatchObject({ exported: may, exportChanging: false });
    actor.send({ type: 'export.change' });
    expect(actor.getSnapshot().context).toMatchObject({ exported: may, exportChanging: true });
    actor.send({ type: 'export.submit', filters: may });
    expect(actor.getSnapshot().value).toMatchObject({ export: 'downloading' });
    expect(calls.started.at(-1)).toEqual({ name: 'exportCsv', input: { filters: may } });
    await calls.reject('exportCsv', new Error('refused'));
    expect(actor.getSnapshot().value).toMatchObject({ export: 'asking' });
    expect(actor.getSnapshot().context).toMatchObject({ exportError: new Error('refused'), exportChanging: true });
    expect(shown).toEqual([]);

    const june = { ...may, from: '2026-06-01', to: '2026-06-30' };
    actor.send({ type: 'export.submit', filters: june });
    expect(actor.getSnapshot().context.exportError).toBeUndefined();
    await calls.resolve('exportCsv');
    expect(actor.getSnapshot().value).toMatchObject({ export: 'closed' });
    expect(actor.getSnapshot().context.exported).toEqual(june);
    expect(shown).toEqual([`success ${t.statsScreen.exportDone}`]);

    // The screen's own filters are not the dialog's; opened again, it starts from them, unchanged.
    expect(actor.getSnapshot().context.filters).toEqual(may);
    actor.send({ type: 'export.open' });
    expect(actor.getSnapshot().context).toMatchObject({ exported: may, exportChanging: false, exportError: undefined });
    actor.send({ type: 'export.cancel' });
    expect(actor.getSnapshot().value).toMatchObject({ export: 'closed' });
  });

  it('stops a download cancelled on its way, so no file is saved', async () => {
    const signals: AbortSignal[] = [];
    const exportCsv = fromPromise<void, { filters: StatsFilters }>(
      ({ signal }) =>
        new Promise(() => {
          signals.push(signal);
        }),
    );
    const calls = deferredActors(['loadChoices', 'loadFigures'] as const);
    const actor = createActor(statsOverviewMachine.provide({ actors: { ...calls.actors, exportCsv } })).start();
    actor.send({ type: 'export.open' });
    actor.send({ type: 'export.submit', filters: may });
    expect(signals.map((signal) => signal.aborted)).toEqual([false]);
    actor.send({ type: 'export.cancel' });
    expect(actor.getSnapshot().value).toMatchObject({ export: 'closed' });
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
  });
  it("reads GET /stats/choices, /stats/overview and /stats/top for the filters, and saves GET /stats/export.csv as 'statystyka.csv' when the server names no file", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-30T22:30:00Z'));
    const asked = apiDouble((request) => ({
      body: request.includes('/choices') ? choices : request.includes('/top') ? top : request.includes('/overview') ? overview : undefined,
    }));
    // The browser's downloads, as saveFile reaches them: the name of each file saved.
    const saved: string[] = [];
    const link = { href: '', download: '', hidden: false, click: () => saved.push(link.download), remove: () => {} };
    vi.stubGlobal('document', { createElement: () => link, body: { append: () => {} } });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:stats');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});

    const actor = createActor(statsOverviewMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches({ choices: 'ready', figures: 'ready' }));
    expect(actor.getSnapshot().context.figures).toEqual(figures);
    actor.send({ type: 'export.open' });
    actor.send({ type: 'export.submit', filters: may });
    await waitFor(actor, (snapshot) => snapshot.matches({ export: 'closed' }));
    expect(asked).toEqual([
      'GET /api/stats/choices',
      'GET /api/stats/overview?from=2026-11-02&to=2026-12-01',
      'GET /api/stats/top?from=2026-11-02&to=2026-12-01',
      'GET /api/stats/export.csv?from=2026-05-01&to=2026-05-31&groupId=2&platform=tiktok',
    ]);
    expect(saved).toEqual(['statystyka.csv']);
  });
});
