import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { daysOf, kyivDay, kyivTime, periodTitle, rangeOf, shiftAnchor } from '../../src/lib/calendar';
import type { NotificationList, StatsReport } from '../../src/lib/contract';
import { calendarMachine } from '../../src/machines/calendar-machine';
import { notificationsMachine } from '../../src/machines/notifications-machine';
import { statsMachine } from '../../src/machines/stats-machine';
import { apiDouble, heldReply } from './api-double';
import { deferredActors, settle } from './deferred-actors';

describe('Kyiv calendar days', () => {
  it('puts a moment on its Kyiv day and time, across midnight', () => {
    expect(kyivDay('2026-11-22T21:59:00Z')).toBe('2026-11-22');
    expect(kyivDay('2026-11-22T22:00:00Z')).toBe('2026-11-23');
    expect(kyivTime('2026-07-01T21:30:00Z')).toBe('00:30');
  });

  it('shows a week from Monday and a month as whole weeks', () => {
    expect(daysOf('week', '2026-11-29')).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    // February 2027 starts on a Monday and has 28 days: exactly four weeks.
    expect(daysOf('month', '2027-02-10')).toHaveLength(28);
    expect(daysOf('month', '2027-02-10')[0]).toBe('2027-02-01');
    const march = daysOf('month', '2026-03-31');
    expect([march[0], march.at(-1), march.length]).toEqual(['2026-02-23', '2026-04-05', 42]);
  });

  it('covers Kyiv midnights, also over a change of summer time', () => {
    // Summer time ends on 25 October 2026: that week starts at UTC+3 and ends at UTC+2.
    expect(rangeOf(daysOf('week', '2026-10-21'))).toEqual({ from: '2026-10-18T21:00:00.000Z', to: '2026-10-25T22:00:00.000Z' });
    expect(rangeOf(daysOf('week', '2026-03-29'))).toEqual({ from: '2026-03-22T22:00:00.000Z', to: '2026-03-29T21:00:00.000Z' });
  });

  it('moves by a week or a month, and names the period', () => {
    expect(shiftAnchor('week', '2026-12-29', 1)).toBe('2027-01-05');
    expect(shiftAnchor('month', '2026-03-31', -1)).toBe('2026-02-28');
    expect(periodTitle('week', '2026-12-30')).toBe('28.12 – 03.01.2027');
    expect(periodTitle('month', '2026-05-04')).toBe('травень 2026');
  });
});

describe('calendar machine', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('opens on the Kyiv week of today and reloads what each pick asks for', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // 00:30 on Monday 30 November in Kyiv, while UTC is still on Sunday: the Kyiv week is the next one.
    vi.setSystemTime(new Date('2026-11-29T22:30:00Z'));
    const calls = deferredActors(['load'] as const);
    const actor = createActor(calendarMachine.provide({ actors: calls.actors })).start();
    expect(actor.getSnapshot().context).toMatchObject({ view: 'week', anchor: '2026-11-30', today: '2026-11-30' });
    expect(calls.started.at(-1)!.input).toEqual({
      path: `/calendar?from=${encodeURIComponent('2026-11-29T22:00:00.000Z')}&to=${encodeURIComponent('2026-12-06T22:00:00.000Z')}`,
    });
    await calls.reject('load', new Error('down'));
    expect(actor.getSnapshot().value).toEqual({ browsing: 'failed' });
    actor.send({ type: 'reload' });
    await calls.resolve('load', { posts: [], truncated: false, accounts: [], groups: [], slots: null });
    expect(actor.getSnapshot().value).toEqual({ browsing: 'ready' });

    actor.send({ type: 'group.pick', groupId: 2 });
    expect((calls.started.at(-1)!.input as { path: string }).path).toMatch(/&groupId=2$/);
    // One filter at a time: a profile picked leaves the group.
    actor.send({ type: 'account.pick', accountId: 3 });
    expect((calls.started.at(-1)!.input as { path: string }).path).toMatch(/&accountId=3$/);
    expect(actor.getSnapshot().context).toMatchObject({ accountId: 3, groupId: null });
    actor.send({ type: 'period.next' });
    actor.send({ type: 'view.pick', view: 'month' });
    expect(actor.getSnapshot().context).toMatchObject({ view: 'month', anchor: '2026-12-07', accountId: 3 });
    actor.send({ type: 'period.previous' });
    expect(actor.getSnapshot().context).toMatchObject({ view: 'month', anchor: '2026-11-07' });
    actor.send({ type: 'day.open', day: '2026-12-17' });
    expect(actor.getSnapshot().context).toMatchObject({ view: 'week', anchor: '2026-12-17' });
    vi.setSystemTime(new Date('2026-12-01T08:00:00Z'));
    actor.send({ type: 'period.today' });
    expect(actor.getSnapshot().context).toMatchObject({ anchor: '2026-12-01', today: '2026-12-01' });
    actor.stop();
  });

  it('GETs /api/calendar for the period shown and keeps what it answers', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-02T10:00:00Z'));
    const range = { posts: [], truncated: false, accounts: [], groups: [], slots: null };
    const asked = apiDouble(() => ({ body: range }));
    const actor = createActor(calendarMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches({ browsing: 'ready' }));
    expect(asked).toEqual([
      `GET /api/calendar?from=${encodeURIComponent('2026-11-29T22:00:00.000Z')}&to=${encodeURIComponent('2026-12-06T22:00:00.000Z')}`,
    ]);
    expect(actor.getSnapshot().context.range).toEqual(range);
    actor.stop();
  });
});

const report = (views: number): StatsReport => ({
  days: 7,
  at: [1, 2],
  views: [{ platform: 'youtube', values: [0, views] }],
  byPlatform: [{ platform: 'youtube', posts: 1, views, likes: 0, comments: 0 }],
  byProfile: [],
  syncedAt: null,
});

describe('statistics machine', () => {
  beforeEach(() => {
    // The poller listens to the tab; these machines run in node, where a visible tab stands in.
    vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('keeps the report shown while another period loads, and reads again on a refresh', async () => {
    const calls = deferredActors(['load'] as const);
    const actor = createActor(statsMachine.provide({ actors: calls.actors }), { input: { path: '/stats/accounts/2' } }).start();
    expect(calls.started.at(-1)!.input).toEqual({ path: '/stats/accounts/2', days: 7 });
    await calls.resolve('load', report(5));
    await settle();
    actor.send({ type: 'period.pick', days: 90 });
    expect(actor.getSnapshot().context).toMatchObject({ days: 90, report: report(5) });
    expect(calls.started.at(-1)!.input).toEqual({ path: '/stats/accounts/2', days: 90 });
    await calls.resolve('load', report(9));
    await settle();
    expect(actor.getSnapshot().context.report).toEqual(report(9));

    actor.send({ type: 'refresh' });
    expect(calls.started).toHaveLength(3);
    await calls.reject('load', new Error('down'));
    expect(actor.getSnapshot().value).toBe('failed');
    actor.stop();
  });
  it('GETs {path}?days=N for the period picked, keeping the last report while the next loads', async () => {
    const held = heldReply();
    const asked = apiDouble((request) => (request.endsWith('days=30') ? held.reply : { body: report(5) }));
    const actor = createActor(statsMachine, { input: { path: '/stats/video/set-1' } }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'period.pick', days: 30 });
    await vi.waitFor(() => expect(asked).toEqual(['GET /api/stats/video/set-1?days=7', 'GET /api/stats/video/set-1?days=30']));
    expect(actor.getSnapshot().context).toMatchObject({ days: 30, report: report(5) });
    held.give({ status: 500, body: { message: 'Сервер недоступний' } });
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    // The screen says why, and Reload asks again for the same period.
    expect(actor.getSnapshot().context.error).toMatchObject({ messages: ['Сервер недоступний'] });
    actor.send({ type: 'reload' });
    expect(asked.at(-1)).toBe('GET /api/stats/video/set-1?days=30');
    actor.stop();
  });
});

describe('notifications machine', () => {
  beforeEach(() => {
    vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const list: NotificationList = {
    unread: 2,
    items: [1, 2, 3].map((id) => ({
      id,
      kind: 'render_done' as const,
      idUpload: null,
      account: null,
      title: null,
      platform: null,
      message: null,
      posts: null,
      failure: null,
      createdAt: '2026-11-25T08:00:00.000Z',
      read: id === 3,
    })),
  };

  it('shows a notification read at once, tells the server, and reloads what it kept', async () => {
    const calls = deferredActors(['load', 'markRead'] as const);
    const actor = createActor(notificationsMachine.provide({ actors: calls.actors })).start();
    await calls.resolve('load', list);
    await settle();
    actor.send({ type: 'read', id: 1 });
    expect(actor.getSnapshot().context.list!.unread).toBe(1);
    expect(calls.started.at(-1)).toEqual({ name: 'markRead', input: { id: 1 } });
    await calls.resolve('markRead');
    await settle();
    expect(calls.started.at(-1)!.name).toBe('load');
    await calls.resolve('load', list);

    actor.send({ type: 'read.all' });
    expect(actor.getSnapshot().context.list!.unread).toBe(0);
    expect(calls.started.at(-1)).toEqual({ name: 'markRead', input: { id: null } });
    // A failed call still reloads, so the bell shows what the server has.
    await calls.reject('markRead', new Error('down'));
    await settle();
    expect(calls.started.at(-1)!.name).toBe('load');
    await calls.reject('load', new Error('down'));
    await settle();
    expect(actor.getSnapshot().context.list!.unread).toBe(0);
    actor.stop();
  });
  it('marks the one notification followed, not its neighbours, and keeps an unloaded bell empty', async () => {
    const calls = deferredActors(['load', 'markRead'] as const);
    const actor = createActor(notificationsMachine.provide({ actors: calls.actors })).start();
    actor.send({ type: 'read', id: 2 });
    expect(actor.getSnapshot().context.list).toBeNull();
    expect(calls.started.at(-1)).toEqual({ name: 'markRead', input: { id: 2 } });
    await calls.resolve('markRead');
    await settle();
    // The first load was left behind when the bell went to mark; the second one counts.
    await calls.resolve('load', list);
    await calls.resolve('load', list);
    await settle();
    expect(actor.getSnapshot().context.list).toEqual(list);
    actor.send({ type: 'read', id: 2 });
    expect(actor.getSnapshot().context.list!.items.map((item) => item.read)).toEqual([false, true, true]);
    expect(actor.getSnapshot().context.list!.unread).toBe(1);
    actor.stop();
  });

  it('GETs /notifications, POSTs /notifications/{id}/read for one and /notifications/read for all', async () => {
    const asked = apiDouble((request) => (request.startsWith('GET') ? { body: list } : { status: 204 }));
    const actor = createActor(notificationsMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches('shown'));
    actor.send({ type: 'read', id: 7 });
    await waitFor(actor, (snapshot) => snapshot.matches('shown'));
    actor.send({ type: 'read.all' });
    await waitFor(actor, (snapshot) => snapshot.matches('shown'));
    actor.send({ type: 'refresh' });
    await waitFor(actor, (snapshot) => snapshot.matches('shown'));
    expect(asked).toEqual([
      'GET /api/notifications',
      'POST /api/notifications/7/read',
      'GET /api/notifications',
      'POST /api/notifications/read',
      'GET /api/notifications',
      'GET /api/notifications',
    ]);
    actor.stop();
  });
});
