import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import toast from 'react-hot-toast';
import { ApiError } from '../../src/lib/api';
import { t } from '../../server/messages';
import { resourceMachine, type ResourceInput } from '../../src/machines/resource-machine';
import { deferredActors, settle } from './deferred-actors';

const failure = new ApiError(400, ['Назва вже зайнята', 'Мінімум один тег']);

function start(input: ResourceInput) {
  const calls = deferredActors(['load', 'save', 'remove'] as const);
  const actor = createActor(resourceMachine.provide({ actors: calls.actors }), { input });
  const saved: unknown[] = [];
  actor.on('saved', (event) => saved.push(event.output));
  actor.start();
  return { actor, calls, saved };
}

let shown: Array<[string, string, string | undefined]>;

beforeEach(() => {
  shown = [];
  for (const kind of ['success', 'error', 'loading'] as const) {
    vi.spyOn(toast, kind).mockImplementation((message, options) => {
      shown.push([kind, String(message), options?.id]);
      return options?.id ?? kind;
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('resource machine: loading', () => {
  it('loads its path and shows the data', async () => {
    const { actor, calls } = start({ path: '/tags?page=1' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(calls.started).toEqual([{ name: 'load', input: { path: '/tags?page=1' } }]);
    await calls.resolve('load', { data: [1] });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ data: { data: [1] }, error: undefined });
  });

  it('keeps the error of a failed load, drops stale data, and loads again on reload', async () => {
    const { actor, calls } = start({ path: '/tags/1', data: undefined });
    await calls.reject('load', failure);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context).toMatchObject({ data: undefined, error: failure });
    actor.send({ type: 'reload' });
    expect(actor.getSnapshot().value).toBe('loading');
    await calls.resolve('load', { id: 1 });
    expect(actor.getSnapshot().context).toMatchObject({ data: { id: 1 }, error: undefined });
  });

  it('shows what another write answered as the resource, without loading it again', async () => {
    const { actor, calls } = start({ path: '/accounts/7' });
    await calls.resolve('load', { id: 7, health: {} });
    actor.send({ type: 'show', data: { id: 7, health: { youtube: 'down' } } });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context.data).toEqual({ id: 7, health: { youtube: 'down' } });
    expect(calls.started.map((call) => call.name)).toEqual(['load']);
  });

  it('loads another path when asked, keeping what is shown until it arrives', async () => {
    const { actor, calls } = start({ path: '/tags?page=1' });
    await calls.resolve('load', 'page 1');
    actor.send({ type: 'path.change', path: '/tags?page=2' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context).toMatchObject({ path: '/tags?page=2', data: 'page 1' });
    await calls.resolve('load', 'page 2');
    expect(actor.getSnapshot().context.data).toBe('page 2');
    expect(calls.started.map((call) => call.input)).toEqual([{ path: '/tags?page=1' }, { path: '/tags?page=2' }]);
  });

  it('loads nothing for a new record, and a reload does not either', () => {
    const { actor, calls } = start({ path: null });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    actor.send({ type: 'reload' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(calls.started).toEqual([]);
  });

  it('shows data already at hand without asking, and asks on reload', () => {
    const { actor, calls } = start({ path: '/users/1/video?page=1', data: 'first page' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(calls.started).toEqual([]);
    actor.send({ type: 'reload' });
    expect(calls.started).toEqual([{ name: 'load', input: { path: '/users/1/video?page=1' } }]);
  });
});

describe('resource machine: writes', () => {
  it('saves, says so, hands the answer to the screen and reads the record again', async () => {
    const { actor, calls, saved } = start({ path: '/tags/4' });
    await calls.resolve('load', { id: 4 });
    const request = { method: 'PATCH' as const, path: '/tags/4', body: { name: 'Музика' }, successText: 'Набір тегів оновлено' };
    actor.send({ type: 'save', request });
    expect(actor.getSnapshot().value).toBe('saving');
    actor.send({ type: 'save', request });
    await calls.resolve('save', { id: 4, name: 'Музика' });
    expect(calls.started.filter((call) => call.name === 'save')).toEqual([{ name: 'save', input: request }]);
    expect(saved).toEqual([{ id: 4, name: 'Музика' }]);
    expect(shown).toEqual([['success', 'Набір тегів оновлено', undefined]]);
    expect(actor.getSnapshot().value).toBe('loading');
  });

  it('stays ready without a path after a save, and says nothing when there is no text', async () => {
    const { actor, calls, saved } = start({ path: null });
    actor.send({ type: 'save', request: { method: 'POST', path: '/accounts/connect-youtube/3' } });
    await calls.resolve('save', { url: 'https://consent' });
    expect(saved).toEqual([{ url: 'https://consent' }]);
    expect(shown).toEqual([]);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
  });

  it("toasts each of the server's messages when a save is refused, and keeps the form", async () => {
    const { actor, calls, saved } = start({ path: null });
    actor.send({ type: 'save', request: { method: 'POST', path: '/tags', body: {}, successText: 'Створено' } });
    await calls.reject('save', failure);
    expect(shown).toEqual([
      ['error', 'Назва вже зайнята', undefined],
      ['error', 'Мінімум один тег', undefined],
    ]);
    expect(saved).toEqual([]);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
  });

  it("says the given text for a failure without the server's words, and the server's words when there are some", async () => {
    const { actor, calls } = start({ path: null });
    const request = { method: 'POST' as const, path: '/accounts/connect-youtube/3', failureText: 'Помилка при копіюванні посилання' };
    actor.send({ type: 'save', request });
    await calls.reject('save', new TypeError('Failed to fetch'));
    actor.send({ type: 'save', request });
    await calls.reject('save', new ApiError(400, ['Спершу збережіть client_id']));
    expect(shown).toEqual([
      ['error', 'Помилка при копіюванні посилання', undefined],
      ['error', 'Спершу збережіть client_id', undefined],
    ]);
  });

  it("deletes with 'Видалення ...' replaced by the success text, then reads the list again", async () => {
    const { actor, calls } = start({ path: '/tags?page=1' });
    await calls.resolve('load', []);
    actor.send({ type: 'remove', path: '/tags/9', successText: 'Набір тегів видалено' });
    expect(calls.started.at(-1)).toEqual({ name: 'remove', input: { path: '/tags/9' } });
    await calls.resolve('remove');
    expect(shown).toEqual([
      ['loading', 'Видалення ...', 'resource-deletion'],
      ['success', 'Набір тегів видалено', 'resource-deletion'],
    ]);
    expect(actor.getSnapshot().value).toBe('loading');
  });

  it("says 'Помилка при видаленні' in place of the loading toast when a deletion fails, and reads the list again", async () => {
    const { actor, calls } = start({ path: '/tags?page=1' });
    await calls.resolve('load', []);
    actor.send({ type: 'remove', path: '/tags/9', successText: 'Набір тегів видалено' });
    await calls.reject('remove', failure);
    expect(shown.at(-1)).toEqual(['error', 'Помилка при видаленні', 'resource-deletion']);
    expect(actor.getSnapshot().value).toBe('loading');
  });

  it("shows the server's own words when it refuses a deletion with 409 (uploads still in flight)", async () => {
    const { actor, calls } = start({ path: '/accounts?page=1' });
    await calls.resolve('load', []);
    actor.send({ type: 'remove', path: '/accounts/4', successText: 'Профіль видалено' });
    const refusal = t.finalDelete.inFlight([t.finalDelete.item('Ранок', 1, 'TikTok', '#4 Київ')]);
    await calls.reject('remove', new ApiError(409, [refusal]));
    expect(shown.at(-1)).toEqual(['error', refusal, 'resource-deletion']);
    expect(actor.getSnapshot().value).toBe('loading');
  });
});

describe('resource machine: polling', () => {
  it('reads its path again every interval while shown, not while loading', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
    const { actor, calls } = start({ path: '/create-video?page=1', pollMs: 15_000 });
    await calls.resolve('load', 'first');
    vi.advanceTimersByTime(15_000);
    expect(actor.getSnapshot().value).toBe('loading');
    vi.advanceTimersByTime(60_000);
    expect(calls.started).toHaveLength(2);
    await calls.resolve('load', 'second');
    vi.advanceTimersByTime(15_000);
    expect(calls.started).toHaveLength(3);
    actor.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not poll without an interval', async () => {
    vi.useFakeTimers();
    const { actor, calls } = start({ path: '/upload-video?page=1' });
    await calls.resolve('load', 'first');
    vi.advanceTimersByTime(60_000);
    actor.send({ type: 'refresh' });
    expect(calls.started).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('resource machine: its calls', () => {
  it('GETs, writes and DELETEs through the API client', async () => {
    const seen: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        seen.push(`${init.method} ${url} ${init.body ?? ''}`.trim());
        return new Response(JSON.stringify({ id: 2 }), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    const actor = createActor(resourceMachine, { input: { path: '/tags/2' } }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'save', request: { method: 'PATCH', path: '/tags/2', body: { name: 'x' }, successText: 'ok' } });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'remove', path: '/tags/2', successText: 'gone' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    await settle();
    expect(seen).toEqual(['GET /api/tags/2', 'PATCH /api/tags/2 {"name":"x"}', 'GET /api/tags/2', 'DELETE /api/tags/2', 'GET /api/tags/2']);
  });
});
