import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, type AnyStateMachine, type EventObject, type SnapshotFrom } from 'xstate';
import { getPathsFromEvents, getShortestPaths, type StatePath } from 'xstate/graph';
import { pollingMachine, requestListPollMs, type PollingEvent } from '../../src/machines/polling-machine';
import { controlledActors } from './model-driver';

type Snapshot = SnapshotFrom<typeof pollingMachine>;
type Path = StatePath<Snapshot, EventObject>;

const eventFixtures: { [Type in PollingEvent['type']]: Array<Extract<PollingEvent, { type: Type }>> } = {
  'tab.visible': [{ type: 'tab.visible' }],
  'tab.hidden': [{ type: 'tab.hidden' }],
};
/** The interval's end is the wait actor finishing. */
const waitDone = { type: 'xstate.done.actor.wait' } as EventObject;

const events = [...Object.values(eventFixtures).flat(), waitDone] as PollingEvent[];
const input = { intervalMs: requestListPollMs };

/** The machine with a controllable wait and a visibility listener the test speaks for. */
function startPolling() {
  const controls = controlledActors(['wait']);
  const actor = createActor(
    pollingMachine.provide({ actors: { wait: controls.actors.wait, tabVisibility: fromCallback(() => undefined) } }),
    { input },
  );
  let refreshes = 0;
  actor.on('refresh', () => (refreshes += 1));
  actor.start();
  return { actor, controls, refreshes: () => refreshes };
}

/** Steps that ask for a refresh: the interval ending while visible, and the tab coming back. */
function expectedRefreshes(path: Path): number {
  let count = 0;
  let previous: Snapshot = pollingMachine.resolveState({ value: 'waiting', context: input });
  for (const step of path.steps) {
    const state = step.state as Snapshot;
    if (step.event.type === 'xstate.done.actor.wait' && previous.matches('waiting')) count += 1;
    if (step.event.type === 'tab.visible' && previous.matches('hidden')) count += 1;
    previous = state;
  }
  return count;
}

async function replay(path: Path) {
  const { actor, controls, refreshes } = startPolling();
  for (const step of path.steps.filter((step) => step.event.type !== 'xstate.init')) {
    controls.play(actor, step.event);
    await vi.waitFor(() => expect(actor.getSnapshot().value).toEqual((step.state as Snapshot).value));
  }
  expect(refreshes()).toBe(expectedRefreshes(path));
  actor.stop();
}

const describePath = (path: Path) => `${JSON.stringify(path.state.value)} via ${path.steps.map((step) => step.event.type).join(' → ')}`;

describe('polling machine, every state by its shortest path', () => {
  for (const path of getShortestPaths(pollingMachine, { input, events }) as unknown as Path[]) {
    it(`reaches ${describePath(path)}`, () => replay(path));
  }
});

describe('polling machine journeys', () => {
  const journeys: EventObject[][] = [
    [waitDone, waitDone, waitDone],
    [eventFixtures['tab.hidden'][0]!, eventFixtures['tab.visible'][0]!, waitDone],
    [waitDone, eventFixtures['tab.hidden'][0]!, eventFixtures['tab.visible'][0]!, eventFixtures['tab.hidden'][0]!, eventFixtures['tab.visible'][0]!],
  ];
  for (const journey of journeys) {
    for (const path of getPathsFromEvents(pollingMachine as AnyStateMachine, journey, { input }) as unknown as Path[]) {
      it(`refreshes once per interval and on each return to the tab: ${describePath(path)}`, () => replay(path));
    }
  }

  it('asks for nothing after it is stopped (the screen unmounted), even if a wait would end', async () => {
    vi.useFakeTimers();
    try {
      const actor = createActor(pollingMachine.provide({ actors: { tabVisibility: fromCallback(() => undefined) } }), { input });
      let refreshes = 0;
      actor.on('refresh', () => (refreshes += 1));
      actor.start();
      await vi.advanceTimersByTimeAsync(requestListPollMs);
      expect(refreshes).toBe(1);
      await vi.advanceTimersByTimeAsync(requestListPollMs);
      expect(refreshes).toBe(2);
      actor.stop();
      await vi.advanceTimersByTimeAsync(5 * requestListPollMs);
      expect(refreshes).toBe(2);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
