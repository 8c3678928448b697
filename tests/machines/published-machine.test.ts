import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../../src/lib/api';
import type { PublishedVideo, UploadDetail } from '../../src/lib/contract';
import { publishedMachine, undoWindowMs } from '../../src/machines/published-machine';
import { apiDouble, recordToasts } from './api-double';
import { deferredActors, settle } from './deferred-actors';

const idUpload = 'set/1 a';
const video = (id: number, status: PublishedVideo['status']) => ({ id, status }) as PublishedVideo;
const setWith = (...videos: PublishedVideo[]): UploadDetail => ({
  id: 1,
  idUpload,
  publishedAt: '2026-11-20T08:00:00.000Z',
  status: 'publication',
  title: 'Випуск',
  description: '',
  tags: 'shorts',
  tagProfile: [],
  edits: [],
  video: videos,
  accounts: [],
  posts: { published: 0, scheduled: 0, held: 0, failed: 0, cancelled: 0 },
});
// A scheduled video is on its way to publication; it can change until its first post starts.
const scheduled = (id: number, changeable: boolean): PublishedVideo => ({ ...video(id, 'publication'), changeable });
const busy = setWith(video(1, 'publication'), video(2, 'error'));
const settled = setWith(video(1, 'success'), video(2, 'error'));
const failure = new ApiError(500, ['Сервер недоступний']);

let shown: string[];
let left: number;

function start() {
  const calls = deferredActors(['loadSet', 'retryVideo', 'saveTexts', 'reschedule', 'cancelSchedule', 'restoreSchedule'] as const);
  const machine = publishedMachine.provide({ actors: calls.actors, actions: { 'leave to list': () => (left += 1) } });
  const actor = createActor(machine, { input: { idUpload } }).start();
  return { actor, calls };
}

beforeEach(() => {
  shown = [];
  left = 0;
  recordToasts(shown);
  vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
  vi.useFakeTimers();
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('published set machine', () => {
  it('keeps reading a set every 5 s while a video is on its way, and stops once all have settled', async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', busy);
    expect(actor.getSnapshot().matches({ ready: 'polling' })).toBe(true);
    vi.advanceTimersByTime(4_999);
    expect(actor.getSnapshot().matches({ ready: 'polling' })).toBe(true);
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toEqual({ ready: 'refreshing' });
    expect(calls.started.at(-1)).toEqual({ name: 'loadSet', input: { idUpload } });
    await calls.resolve('loadSet', settled);
    expect(actor.getSnapshot().matches({ ready: 'settled' })).toBe(true);
    expect(actor.getSnapshot().context.detail).toEqual(settled);
    vi.advanceTimersByTime(60_000);
    expect(calls.started).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('pauses while the tab is hidden and reads the set at once when it shows again', async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', busy);
    Object.assign(document, { visibilityState: 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
    vi.advanceTimersByTime(60_000);
    expect(calls.started).toHaveLength(1);
    Object.assign(document, { visibilityState: 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(actor.getSnapshot().value).toEqual({ ready: 'refreshing' });
  });

  it('keeps what is shown when a refresh fails, saying why', async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', busy);
    vi.advanceTimersByTime(5_000);
    await calls.reject('loadSet', failure);
    expect(actor.getSnapshot().matches({ ready: 'polling' })).toBe(true);
    expect(actor.getSnapshot().context.detail).toEqual(busy);
    expect(shown).toEqual(['error Сервер недоступний']);
  });

  it('goes back to the list, saying why, when the set cannot be loaded', async () => {
    const { actor, calls } = start();
    await calls.reject('loadSet', failure);
    expect(actor.getSnapshot().status).toBe('done');
    expect(left).toBe(1);
    expect(shown).toEqual(['error Сервер недоступний']);
  });

  it('retries a failed video with { videoId, youTubeId }, once, then reads the set again', async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', settled);
    actor.send({ type: 'video.retry', videoId: 2 });
    actor.send({ type: 'video.retry', videoId: 2 });
    expect(actor.getSnapshot().context.retrying).toBe(2);
    expect(calls.started.filter((call) => call.name === 'retryVideo')).toEqual([
      { name: 'retryVideo', input: { videoId: 2, youTubeId: idUpload } },
    ]);
    await calls.resolve('retryVideo');
    expect(actor.getSnapshot().value).toEqual({ ready: 'refreshing' });
    expect(actor.getSnapshot().context.retrying).toBeNull();
  });

  it('says why a retry was refused and stays on the set', async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', settled);
    actor.send({ type: 'video.retry', videoId: 2 });
    await calls.reject('retryVideo', failure);
    expect(actor.getSnapshot().matches({ ready: 'settled' })).toBe(true);
    expect(actor.getSnapshot().context.retrying).toBeNull();
    expect(shown).toEqual(['error Сервер недоступний']);
  });

  it("saves the texts once, shows the server's answer and says 'Оновлено дані'", async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', settled);
    const values = { title: 'Новий', description: 'Опис', tags: ['a'] };
    actor.send({ type: 'edit.submit', values });
    actor.send({ type: 'edit.submit', values });
    expect(calls.started.filter((call) => call.name === 'saveTexts')).toEqual([{ name: 'saveTexts', input: { idUpload, values } }]);
    const answer = { ...settled, title: 'Новий' };
    await calls.resolve('saveTexts', answer);
    expect(actor.getSnapshot().context.detail).toEqual(answer);
    expect(shown).toEqual(['success Оновлено дані']);
  });

  it('keeps the set when saving is refused', async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', settled);
    actor.send({ type: 'edit.submit', values: { title: 'x', description: '', tags: ['a'] } });
    await calls.reject('saveTexts', failure);
    expect(actor.getSnapshot().context.detail).toEqual(settled);
    expect(shown).toEqual(['error Сервер недоступний']);
  });

  it('reaches the API at /upload-video/{idUpload} and /upload-video/upload', async () => {
    vi.useRealTimers();
    const seen: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        seen.push(`${init.method} ${url} ${init.body ?? ''}`.trim());
        return new Response(JSON.stringify(settled), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    const actor = createActor(publishedMachine, { input: { idUpload } }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'video.retry', videoId: 2 });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'edit.submit', values: { title: 't', description: '', tags: ['a'] } });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    await settle();
    expect(seen).toEqual([
      'GET /api/upload-video/set%2F1%20a',
      `POST /api/upload-video/upload {"videoId":2,"youTubeId":"${idUpload}"}`,
      'GET /api/upload-video/set%2F1%20a',
      'PATCH /api/upload-video/set%2F1%20a {"title":"t","description":"","tags":["a"]}',
    ]);
  });
  it('follows an edit still on its way to YouTube, and stops once it has landed', async () => {
    const { actor, calls } = start();
    const editing = { platform: 'youtube' as const, editable: true, pending: 1, done: 0, errors: [] };
    await calls.resolve('loadSet', { ...settled, edits: [editing] });
    expect(actor.getSnapshot().matches({ ready: 'polling' })).toBe(true);
    vi.advanceTimersByTime(5_000);
    await calls.resolve('loadSet', { ...settled, edits: [{ ...editing, pending: 0, done: 1 }] });
    expect(actor.getSnapshot().matches({ ready: 'settled' })).toBe(true);
  });

  it("moves a scheduled video, closes its editor and says 'Публікацію перенесено'", async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', setWith(scheduled(4, true)));
    actor.send({ type: 'schedule.open', videoId: 4 });
    expect(actor.getSnapshot().context.scheduling).toBe(4);
    const change = { date: '2026-12-01T10:00', accountId: 7 };
    actor.send({ type: 'schedule.save', videoId: 4, change });
    expect(calls.started.at(-1)).toEqual({ name: 'reschedule', input: { idUpload, videoId: 4, change } });
    const moved = setWith(scheduled(4, true), video(5, 'success'));
    await calls.resolve('reschedule', moved);
    expect(actor.getSnapshot().context).toMatchObject({ detail: moved, scheduling: null });
    expect(shown).toEqual(['success Публікацію перенесено']);
  });

  it('cancels a scheduled video and offers to put it back; a refused change keeps the editor open, says why and sends the keyboard back to it', async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', setWith(scheduled(4, true)));
    actor.send({ type: 'schedule.open', videoId: 4 });
    expect(actor.getSnapshot().context.focus).toEqual({ on: 'editor', videoId: 4 });
    actor.send({ type: 'schedule.save', videoId: 4, change: { date: '2026-12-01T10:00' } });
    await calls.reject('reschedule', failure);
    expect(actor.getSnapshot().context).toMatchObject({ scheduling: 4, focus: { on: 'editor', videoId: 4 } });
    actor.send({ type: 'schedule.cancel', videoId: 4 });
    expect(calls.started.at(-1)).toEqual({ name: 'cancelSchedule', input: { idUpload, videoId: 4 } });
    await calls.reject('cancelSchedule', failure);
    expect(actor.getSnapshot().context).toMatchObject({ scheduling: 4, undoable: null, focus: { on: 'editor', videoId: 4 } });
    actor.send({ type: 'schedule.cancel', videoId: 4 });
    const cancelled = setWith(video(4, 'cancelled'));
    await calls.resolve('cancelSchedule', cancelled);
    expect(actor.getSnapshot().context).toMatchObject({ detail: cancelled, scheduling: null, undoable: 4 });
    // The undo toast is the screen's, from `undoable`: no other toast says it.
    expect(shown).toEqual(['error Сервер недоступний', 'error Сервер недоступний']);
  });

  it("sends the keyboard to the row's 'Змінити' when the editor closes and after a move", async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', setWith(scheduled(4, true), scheduled(6, true)));
    actor.send({ type: 'schedule.open', videoId: 6 });
    actor.send({ type: 'schedule.close' });
    expect(actor.getSnapshot().context).toMatchObject({ scheduling: null, focus: { on: 'change', videoId: 6 } });
    actor.send({ type: 'schedule.open', videoId: 4 });
    actor.send({ type: 'schedule.save', videoId: 4, change: { accountId: 7 } });
    await calls.resolve('reschedule', setWith(scheduled(4, true), scheduled(6, true)));
    expect(actor.getSnapshot().context).toMatchObject({ scheduling: null, focus: { on: 'change', videoId: 4 } });
  });

  it('keeps the undo for 10 s after a cancel, then lets it go', async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', setWith(scheduled(4, true)));
    actor.send({ type: 'schedule.open', videoId: 4 });
    actor.send({ type: 'schedule.cancel', videoId: 4 });
    await calls.resolve('cancelSchedule', setWith(video(4, 'cancelled')));
    vi.advanceTimersByTime(undoWindowMs - 1);
    expect(actor.getSnapshot().context.undoable).toBe(4);
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().context.undoable).toBeNull();
    actor.send({ type: 'schedule.restore' });
    expect(actor.getSnapshot().matches({ ready: 'settled' })).toBe(true);
    expect(calls.started.map((call) => call.name)).not.toContain('restoreSchedule');
  });

  it("puts a cancelled publication back, once, says 'Публікацію повернуто' and sends the keyboard to its 'Змінити'", async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', setWith(scheduled(4, true)));
    actor.send({ type: 'schedule.open', videoId: 4 });
    actor.send({ type: 'schedule.cancel', videoId: 4 });
    await calls.resolve('cancelSchedule', setWith(video(4, 'cancelled')));
    vi.advanceTimersByTime(undoWindowMs - 1);
    actor.send({ type: 'schedule.restore' });
    actor.send({ type: 'schedule.restore' });
    expect(calls.started.filter((call) => call.name === 'restoreSchedule')).toEqual([
      { name: 'restoreSchedule', input: { idUpload, videoId: 4 } },
    ]);
    const restored = setWith(scheduled(4, true));
    await calls.resolve('restoreSchedule', restored);
    expect(actor.getSnapshot().context).toMatchObject({ detail: restored, undoable: null, focus: { on: 'change', videoId: 4 } });
    expect(shown).toEqual(['success Публікацію повернуто']);
  });

  it('keeps the undo when putting back is refused, until the window of the cancel ends', async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', setWith(scheduled(4, true)));
    actor.send({ type: 'schedule.open', videoId: 4 });
    actor.send({ type: 'schedule.cancel', videoId: 4 });
    await calls.resolve('cancelSchedule', setWith(video(4, 'cancelled')));
    vi.advanceTimersByTime(4_000);
    actor.send({ type: 'schedule.restore' });
    await calls.reject('restoreSchedule', new ApiError(409, ['Не можна повернути публікацію: її профіль видалено']));
    expect(actor.getSnapshot().context.undoable).toBe(4);
    expect(shown).toEqual(['error Не можна повернути публікацію: її профіль видалено']);
    vi.advanceTimersByTime(undoWindowMs - 4_000);
    expect(actor.getSnapshot().context.undoable).toBeNull();
  });

  it("takes the operator's change while the set is being read again, rather than losing it to the poll", async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', setWith(scheduled(4, true), video(8, 'publication')));
    actor.send({ type: 'schedule.open', videoId: 4 });
    vi.advanceTimersByTime(5_000);
    expect(actor.getSnapshot().value).toEqual({ ready: 'refreshing' });
    actor.send({ type: 'schedule.cancel', videoId: 4 });
    expect(actor.getSnapshot().value).toBe('cancellingSchedule');
    expect(calls.started.at(-1)).toEqual({ name: 'cancelSchedule', input: { idUpload, videoId: 4 } });
    // The read it abandoned changes nothing when it answers.
    await calls.resolve('loadSet', setWith(scheduled(4, true), video(8, 'publication')));
    expect(actor.getSnapshot().value).toBe('cancellingSchedule');
  });

  it('offers the undo of the latest cancel only, for 10 s from it, and takes an undo while the set is being read again', async () => {
    const { actor, calls } = start();
    // Video 8 is on its way: the page reads the set every 5 s.
    await calls.resolve('loadSet', setWith(scheduled(4, true), scheduled(6, true), video(8, 'publication')));
    actor.send({ type: 'schedule.open', videoId: 4 });
    actor.send({ type: 'schedule.cancel', videoId: 4 });
    await calls.resolve('cancelSchedule', setWith(video(4, 'cancelled'), scheduled(6, true), video(8, 'publication')));
    vi.advanceTimersByTime(4_000);
    actor.send({ type: 'schedule.open', videoId: 6 });
    actor.send({ type: 'schedule.cancel', videoId: 6 });
    await calls.resolve('cancelSchedule', setWith(video(4, 'cancelled'), video(6, 'cancelled'), video(8, 'publication')));
    expect(actor.getSnapshot().context.undoable).toBe(6);
    vi.advanceTimersByTime(undoWindowMs - 1);
    expect(actor.getSnapshot().context.undoable).toBe(6);
    expect(actor.getSnapshot().value).toEqual({ ready: 'refreshing' });
    actor.send({ type: 'schedule.restore' });
    expect(calls.started.at(-1)).toEqual({ name: 'restoreSchedule', input: { idUpload, videoId: 6 } });
  });

  it('closes the open schedule once a refresh shows its video started, and keeps it open while it waits', async () => {
    const { actor, calls } = start();
    await calls.resolve('loadSet', setWith(scheduled(4, true), scheduled(6, true), scheduled(8, true)));
    actor.send({ type: 'schedule.open', videoId: 4 });
    vi.advanceTimersByTime(5_000);
    // Video 6 started, 4 still waits: the editor of 4 stays.
    await calls.resolve('loadSet', setWith(scheduled(4, true), scheduled(6, false), scheduled(8, true)));
    expect(actor.getSnapshot().context.scheduling).toBe(4);
    vi.advanceTimersByTime(5_000);
    // Video 4 started while 8 still waits: the editor of 4 closes all the same.
    await calls.resolve('loadSet', setWith(scheduled(4, false), scheduled(6, false), scheduled(8, true)));
    expect(actor.getSnapshot().context.scheduling).toBeNull();
    // A video that cannot change opens no editor after a save either.
    actor.send({ type: 'schedule.open', videoId: 6 });
    actor.send({ type: 'edit.submit', values: { title: 'x', description: '', tags: ['a'] } });
    await calls.resolve('saveTexts', setWith(scheduled(6, false)));
    expect(actor.getSnapshot().context.scheduling).toBeNull();
  });

  it('reaches /upload-video/{idUpload}/video/{id} to move a video, DELETE …/schedule to cancel it and POST …/schedule to put it back', async () => {
    vi.useRealTimers();
    const asked = apiDouble(() => ({ body: setWith(scheduled(4, true)) }));
    const actor = createActor(publishedMachine, { input: { idUpload } }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'schedule.save', videoId: 4, change: { accountId: 7 } });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'schedule.cancel', videoId: 4 });
    await waitFor(actor, (snapshot) => snapshot.matches('ready') && snapshot.context.undoable === 4);
    actor.send({ type: 'schedule.restore' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready') && snapshot.context.undoable === null);
    actor.stop();
    expect(asked).toEqual([
      'GET /api/upload-video/set%2F1%20a',
      'PATCH /api/upload-video/set%2F1%20a/video/4 {"accountId":7}',
      'DELETE /api/upload-video/set%2F1%20a/video/4/schedule',
      'POST /api/upload-video/set%2F1%20a/video/4/schedule',
    ]);
  });
});
