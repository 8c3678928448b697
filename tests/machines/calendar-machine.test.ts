import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../../src/lib/api';
import * as t from '../../src/lib/i18n';
import type { CalendarPost, CalendarRange } from '../../src/lib/contract';
import { calendarMachine, undoWindowMs } from '../../src/machines/calendar-machine';
import { deferredActors } from './deferred-actors';
import { apiDouble, recordToasts } from './api-double';
import { calendarPost } from '../fixtures/calendar-post';

const idUpload = '5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
const post = (id: number, videoId: number, scheduledAt: string, changes: Partial<CalendarPost> = {}): CalendarPost =>
  calendarPost({
    id,
    videoId,
    idUpload,
    title: 'Випуск',
    platform: 'youtube',
    scheduledAt,
    account: { id: 4, title: '#4 Ранок' },
    waitKind: null,
    waitReason: null,
    changeable: true,
    ...changes,
  });
/** Video 11 goes out on YouTube and TikTok at 10:30 on Wednesday 25 November in Kyiv; video 12 at 09:00 on Thursday. */
const week: CalendarRange = {
  posts: [
    post(1, 11, '2026-11-25T08:30:00.000Z'),
    post(2, 11, '2026-11-25T08:30:00.000Z', { platform: 'tiktok' }),
    post(3, 12, '2026-11-26T07:00:00.000Z'),
  ],
  truncated: false,
  sets: [],
  accounts: [{ id: 4, title: '#4 Ранок' }],
  groups: [],
  slots: null,
};

let toasts: string[];

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-25T06:00:00Z') });
  toasts = [];
  recordToasts(toasts);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

async function readyWith(range: CalendarRange) {
  const calls = deferredActors(['load', 'move', 'cancelSchedule', 'restoreSchedule'] as const);
  const actor = createActor(calendarMachine.provide({ actors: calls.actors })).start();
  await calls.resolve('load', range);
  return { actor, calls };
}

describe('calendar machine: moves', () => {
  it('moves the post dropped alone to the day at the same Kyiv time, its video’s other post staying, shows it there at once, and reads the week again', async () => {
    const { actor, calls } = await readyWith(week);
    actor.send({ type: 'post.move', post: week.posts[1]!, day: '2026-11-27' });
    expect(actor.getSnapshot().value).toBe('moving');
    expect(calls.started.at(-1)).toEqual({
      name: 'move',
      input: { idUpload, videoId: 11, date: '2026-11-27T10:30', platform: 'tiktok', allowDuplicates: false },
    });
    // Meanwhile video 11's TikTok post stands on Friday, after Thursday's; its YouTube post stays on Wednesday.
    expect(actor.getSnapshot().context.range!.posts.map((each) => [each.id, each.scheduledAt])).toEqual([
      [1, '2026-11-25T08:30:00.000Z'],
      [3, '2026-11-26T07:00:00.000Z'],
      [2, '2026-11-27T08:30:00.000Z'],
    ]);
    // Nothing else starts while it is on its way.
    actor.send({ type: 'post.cancel', post: week.posts[2]!, allPlatforms: false });
    actor.send({ type: 'period.next' });
    expect(calls.started.map((each) => each.name)).toEqual(['load', 'move']);

    await calls.resolve('move', {});
    expect(toasts).toEqual(['success Публікацію перенесено на 27.11 о 10:30']);
    expect(actor.getSnapshot().matches({ browsing: 'loading' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ change: null, beforeMove: null, anchor: '2026-11-25' });
    expect(calls.started.at(-1)!.name).toBe('load');
  });

  it("puts a refused move back where it was and shows the server's reason", async () => {
    const { actor, calls } = await readyWith(week);
    actor.send({ type: 'post.move', post: week.posts[2]!, day: '2026-11-25' });
    const refusal = 'Не перенесено: профіль #4 Ранок — ліміт TikTok 15 на добу';
    await calls.reject('move', new ApiError(409, [refusal]));
    expect(actor.getSnapshot().matches({ browsing: 'ready' })).toBe(true);
    expect(actor.getSnapshot().context.range).toBe(week);
    expect(actor.getSnapshot().context.change).toBeNull();
    expect(toasts).toEqual([`error ${refusal}`]);
  });

  it('asks before a move the server calls a possible duplicate: made anyway it goes again with consent, left it goes back', async () => {
    const line = 'Відео #12: профіль #4 Ранок публікує відео #11 о 25.11 10:30 — ближче, ніж його проміжок 90 хв';
    const { actor, calls } = await readyWith(week);
    actor.send({ type: 'post.move', post: week.posts[2]!, day: '2026-11-25' });
    const moved = actor.getSnapshot().context.range;
    await calls.reject('move', new ApiError(409, [t.spread.duplicatesFound, line]));
    expect(actor.getSnapshot().value).toBe('confirmingDuplicate');
    // The post stays at its new time while asked, and nothing is toasted: the dialog says it.
    expect(actor.getSnapshot().context).toMatchObject({ duplicates: [line], range: moved });
    expect(toasts).toEqual([]);
    actor.send({ type: 'duplicate.confirm' });
    expect(calls.started.at(-1)).toMatchObject({ name: 'move', input: { videoId: 12, allowDuplicates: true } });
    await calls.resolve('move', {});
    expect(actor.getSnapshot().matches({ browsing: 'loading' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ duplicates: [], change: null });

    const again = await readyWith(week);
    again.actor.send({ type: 'post.move', post: week.posts[2]!, day: '2026-11-25' });
    await again.calls.reject('move', new ApiError(409, [t.spread.duplicatesFound, line]));
    again.actor.send({ type: 'duplicate.dismiss' });
    expect(again.actor.getSnapshot().matches({ browsing: 'ready' })).toBe(true);
    expect(again.actor.getSnapshot().context).toMatchObject({ range: week, change: null, duplicates: [] });
    expect(again.calls.started.filter((call) => call.name === 'move')).toHaveLength(1);
  });

  it("shows the moved posts among those at the same time in the server's order, by id", async () => {
    const { actor } = await readyWith({
      ...week,
      posts: [post(7, 11, '2026-11-25T08:30:00.000Z'), post(2, 13, '2026-11-27T08:30:00.000Z')],
    });
    actor.send({ type: 'post.move', post: post(7, 11, '2026-11-25T08:30:00.000Z'), day: '2026-11-27' });
    expect(actor.getSnapshot().context.range!.posts.map((each) => [each.id, each.scheduledAt])).toEqual([
      [2, '2026-11-27T08:30:00.000Z'],
      [7, '2026-11-27T08:30:00.000Z'],
    ]);
  });

  it('keeps a post dropped on its own day, and one that has gone out, started or failed, where it is, asking nothing', async () => {
    const { actor, calls } = await readyWith(week);
    actor.send({ type: 'post.move', post: week.posts[0]!, day: '2026-11-25' });
    actor.send({
      type: 'post.move',
      post: post(4, 13, '2026-11-24T08:00:00.000Z', { state: 'published', changeable: false }),
      day: '2026-11-26',
    });
    actor.send({
      type: 'post.cancel',
      post: post(5, 14, '2026-11-25T12:00:00.000Z', { changeable: false, cancellable: false }),
      allPlatforms: false,
    });
    expect(actor.getSnapshot().matches({ browsing: 'ready' })).toBe(true);
    expect(calls.started.map((each) => each.name)).toEqual(['load']);
  });
});

describe('calendar machine: cancels', () => {
  it(`cancels the post named alone, offers it back for ${undoWindowMs / 1000} s, and puts that post back when asked`, async () => {
    const { actor, calls } = await readyWith(week);
    actor.send({ type: 'post.cancel', post: week.posts[0]!, allPlatforms: false });
    const youtube = { idUpload, videoId: 11, platform: 'youtube' };
    expect(calls.started.at(-1)).toEqual({ name: 'cancelSchedule', input: youtube });
    await calls.resolve('cancelSchedule', {});
    expect(actor.getSnapshot().context.undoable).toEqual(youtube);
    expect(calls.started.at(-1)!.name).toBe('load');
    await calls.resolve('load', week);

    vi.advanceTimersByTime(undoWindowMs - 1);
    actor.send({ type: 'cancel.restore' });
    expect(calls.started.at(-1)).toEqual({ name: 'restoreSchedule', input: youtube });
    await calls.resolve('restoreSchedule', {});
    expect(toasts).toEqual(['success Публікацію повернуто']);
    expect(actor.getSnapshot().context.undoable).toBeNull();
    expect(calls.started.at(-1)!.name).toBe('load');
  });

  it("cancels all the video's posts as a choice of its own, and puts them all back", async () => {
    const { actor, calls } = await readyWith(week);
    actor.send({ type: 'post.cancel', post: week.posts[1]!, allPlatforms: true });
    const all = { idUpload, videoId: 11, platform: null };
    expect(calls.started.at(-1)).toEqual({ name: 'cancelSchedule', input: all });
    await calls.resolve('cancelSchedule', {});
    await calls.resolve('load', week);
    actor.send({ type: 'cancel.restore' });
    expect(calls.started.at(-1)).toEqual({ name: 'restoreSchedule', input: all });
  });

  it('cancels a post alone while its video has another post out, but not all of them', async () => {
    const partly = post(1, 11, '2026-11-25T08:30:00.000Z', { changeable: false, cancellable: true });
    const { actor, calls } = await readyWith({
      ...week,
      posts: [
        partly,
        post(2, 11, '2026-11-25T08:30:00.000Z', { platform: 'tiktok', state: 'published', changeable: false, cancellable: false }),
      ],
    });
    actor.send({ type: 'post.cancel', post: partly, allPlatforms: true });
    expect(calls.started.map((each) => each.name)).toEqual(['load']);
    actor.send({ type: 'post.cancel', post: partly, allPlatforms: false });
    expect(calls.started.at(-1)).toEqual({ name: 'cancelSchedule', input: { idUpload, videoId: 11, platform: 'youtube' } });
  });

  it('offers the undo no longer once its window has passed, and the latest cancel only', async () => {
    const { actor, calls } = await readyWith(week);
    actor.send({ type: 'post.cancel', post: week.posts[0]!, allPlatforms: false });
    await calls.resolve('cancelSchedule', {});
    await calls.resolve('load', week);
    vi.advanceTimersByTime(undoWindowMs / 2);
    actor.send({ type: 'post.cancel', post: week.posts[2]!, allPlatforms: false });
    await calls.resolve('cancelSchedule', {});
    await calls.resolve('load', week);
    const latest = { idUpload, videoId: 12, platform: 'youtube' };
    expect(actor.getSnapshot().context.undoable).toEqual(latest);
    // The first cancel's window would have ended here; the second's has not.
    vi.advanceTimersByTime(undoWindowMs / 2);
    expect(actor.getSnapshot().context.undoable).toEqual(latest);
    vi.advanceTimersByTime(undoWindowMs / 2);
    expect(actor.getSnapshot().context.undoable).toBeNull();
    actor.send({ type: 'cancel.restore' });
    expect(calls.started.map((each) => each.name)).not.toContain('restoreSchedule');
  });

  it('says why a cancel or its undo was refused, and keeps the undo on offer after a refused undo', async () => {
    const { actor, calls } = await readyWith(week);
    actor.send({ type: 'post.cancel', post: week.posts[0]!, allPlatforms: false });
    await calls.reject('cancelSchedule', new ApiError(409, ['Публікація відео в YouTube уже почалася або вийшла: скасувати її не можна']));
    expect(actor.getSnapshot().context).toMatchObject({ change: null, undoable: null });
    actor.send({ type: 'post.cancel', post: week.posts[0]!, allPlatforms: false });
    await calls.resolve('cancelSchedule', {});
    await calls.resolve('load', week);
    actor.send({ type: 'cancel.restore' });
    await calls.reject('restoreSchedule', new ApiError(409, ['Не можна повернути публікацію: її профіль видалено']));
    expect(toasts).toEqual([
      'error Публікація відео в YouTube уже почалася або вийшла: скасувати її не можна',
      'error Не можна повернути публікацію: її профіль видалено',
    ]);
    expect(actor.getSnapshot().context.undoable).toEqual({ idUpload, videoId: 11, platform: 'youtube' });
  });
});

describe('calendar machine: the API', () => {
  it('moves at PATCH /upload-video/{idUpload}/video/{videoId} with the new date and the platform, cancels and puts back at DELETE and POST …/schedule/{platform} or …/schedule', async () => {
    const asked = apiDouble((request) => ({ body: request.startsWith('GET') ? week : {} }));
    const actor = createActor(calendarMachine).start();
    const ready = () => waitFor(actor, (snapshot) => snapshot.matches({ browsing: 'ready' }));
    await ready();
    actor.send({ type: 'post.move', post: week.posts[0]!, day: '2026-11-27' });
    await ready();
    for (const allPlatforms of [false, true]) {
      actor.send({ type: 'post.cancel', post: week.posts[2]!, allPlatforms });
      await waitFor(actor, (snapshot) => snapshot.matches({ browsing: 'ready' }) && snapshot.context.undoable !== null);
      actor.send({ type: 'cancel.restore' });
      await waitFor(actor, (snapshot) => snapshot.matches({ browsing: 'ready' }) && snapshot.context.undoable === null);
    }
    expect(asked.filter((request) => !request.startsWith('GET'))).toEqual([
      `PATCH /api/upload-video/${idUpload}/video/11 {"date":"2026-11-27T10:30","platform":"youtube"}`,
      `DELETE /api/upload-video/${idUpload}/video/12/schedule/youtube`,
      `POST /api/upload-video/${idUpload}/video/12/schedule/youtube`,
      `DELETE /api/upload-video/${idUpload}/video/12/schedule`,
      `POST /api/upload-video/${idUpload}/video/12/schedule`,
    ]);
  });
});
