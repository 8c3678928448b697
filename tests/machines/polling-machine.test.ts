import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, setup } from 'xstate';
import { pollingMachine, publishedDetailPollMs, requestListPollMs } from '../../src/machines/polling-machine';

/** A browser tab the test shows and hides. */
function stubTab(initially: 'visible' | 'hidden') {
  const tab = Object.assign(new EventTarget(), { visibilityState: initially });
  // As a real tab: a listener goes only when removed for the same event it was added for.
  const listening = new Map<unknown, string>();
  const add = tab.addEventListener.bind(tab);
  const remove = tab.removeEventListener.bind(tab);
  tab.addEventListener = (type: string, listener: EventListenerOrEventListenerObject | null) => {
    listening.set(listener, type);
    add(type, listener);
  };
  tab.removeEventListener = (type: string, listener: EventListenerOrEventListenerObject | null) => {
    if (listening.get(listener) === type) listening.delete(listener);
    remove(type, listener);
  };
  vi.stubGlobal('document', tab);
  return {
    listening,
    show() {
      tab.visibilityState = 'visible';
      tab.dispatchEvent(new Event('visibilitychange'));
    },
    hide() {
      tab.visibilityState = 'hidden';
      tab.dispatchEvent(new Event('visibilitychange'));
    },
  };
}

/** A screen's machine that invokes the poller and counts the refreshes it is asked for. */
function startScreen(intervalMs = requestListPollMs) {
  let refreshes = 0;
  const screen = setup({ actors: { polling: pollingMachine } }).createMachine({
    invoke: { src: 'polling', input: { intervalMs } },
    on: { refresh: { actions: () => (refreshes += 1) } },
  });
  const actor = createActor(screen).start();
  return { actor, refreshes: () => refreshes };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('polling machine', () => {
  it('asks for a refresh once per interval while the tab is visible', () => {
    stubTab('visible');
    const { refreshes } = startScreen();
    vi.advanceTimersByTime(requestListPollMs - 1);
    expect(refreshes()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(refreshes()).toBe(1);
    vi.advanceTimersByTime(requestListPollMs * 2);
    expect(refreshes()).toBe(3);
  });

  it('asks nothing while the tab is hidden, and at once when it shows again, then counts a new interval', () => {
    const tab = stubTab('visible');
    const { refreshes } = startScreen();
    vi.advanceTimersByTime(requestListPollMs / 2);
    tab.hide();
    vi.advanceTimersByTime(requestListPollMs * 10);
    expect(refreshes()).toBe(0);
    tab.show();
    expect(refreshes()).toBe(1);
    vi.advanceTimersByTime(requestListPollMs - 1);
    expect(refreshes()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(refreshes()).toBe(2);
  });

  it('starts paused in a tab that is already hidden', () => {
    const tab = stubTab('hidden');
    const { refreshes } = startScreen();
    vi.advanceTimersByTime(requestListPollMs * 3);
    expect(refreshes()).toBe(0);
    tab.show();
    expect(refreshes()).toBe(1);
  });

  it('leaves no timer and no listener behind once its screen stops', () => {
    const tab = stubTab('visible');
    const { actor, refreshes } = startScreen();
    expect(tab.listening.size).toBe(1);
    actor.stop();
    expect(vi.getTimerCount()).toBe(0);
    expect(tab.listening.size).toBe(0);
    vi.advanceTimersByTime(requestListPollMs * 3);
    tab.hide();
    tab.show();
    expect(refreshes()).toBe(0);
  });

  it('refreshes the request list every 15 s (SPEC) and a published set every 5 s', () => {
    expect(requestListPollMs).toBe(15_000);
    expect(publishedDetailPollMs).toBe(5_000);
  });
});
