import { createActor, fromPromise, waitFor, type AnyStateMachine, type AnyStateNode, type EventObject, type Snapshot } from 'xstate';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths, serializeSnapshot, type StatePath } from 'xstate/graph';
import { expect } from 'vitest';

type Deferred = { resolve: (value: unknown) => void; reject: (error: unknown) => void };

/**
 * Replaces each named promise actor with one the test settles by hand, so a path's
 * `xstate.done.actor.<id>` / `xstate.error.actor.<id>` steps can be replayed on a live actor.
 */
export function settleableActors(ids: readonly string[]) {
  const pending = new Map<string, Deferred>();
  const actors = Object.fromEntries(
    ids.map((id) => [
      id,
      fromPromise(() => new Promise((resolve, reject) => pending.set(id, { resolve, reject }))),
    ]),
  );
  return { actors, pending };
}

const doneOrError = /^xstate\.(done|error)\.actor\.(.+)$/;

/**
 * Replays a path from `xstate/graph` on a running actor: ordinary events are sent, actor results
 * settle the pending promise, and after each step the live state must equal the model's.
 */
export async function replayPath<TMachine extends AnyStateMachine>(
  machine: TMachine,
  path: StatePath<Snapshot<unknown>, EventObject>,
  options: { input?: unknown; actorIds: readonly string[]; actions?: Record<string, () => void> },
) {
  const { actors, pending } = settleableActors(options.actorIds);
  const actor = createActor(machine.provide({ actors, actions: options.actions ?? {} } as never), {
    input: options.input,
  });
  actor.start();
  for (const step of path.steps) {
    const event = step.event as EventObject & { output?: unknown; error?: unknown };
    const expected = JSON.stringify(valueOf(step.state));
    const match = doneOrError.exec(event.type);
    if (event.type === 'xstate.init') {
      // The initial step only checks where the actor started.
    } else if (match) {
      const deferred = pending.get(match[2]);
      expect(deferred, `actor ${match[2]} was not running before ${event.type}`).toBeDefined();
      pending.delete(match[2]);
      if (match[1] === 'done') deferred!.resolve(event.output);
      else deferred!.reject(event.error);
    } else {
      actor.send(event);
    }
    await waitFor(actor, (snapshot) => JSON.stringify(snapshot.value) === expected, { timeout: 1000 }).catch(() => {
      throw new Error(
        `after ${event.type} expected ${expected}, got ${JSON.stringify(actor.getSnapshot().value)} (path: ${describePath(path)})`,
      );
    });
  }
  actor.stop();
}

export function describePath(path: StatePath<Snapshot<unknown>, EventObject>): string {
  return path.steps.map((step) => step.event.type).join(' → ');
}

/** A state the machine only passes through (`always` and nothing else): paths never rest in it. */
function isTransient(node: AnyStateNode): boolean {
  return Boolean(node.always?.length) && node.transitions.size === 0;
}

/** Every state node id a machine can rest in, e.g. `auth.signedIn.refreshing`. */
export function stateIds(machine: AnyStateMachine): string[] {
  return [...nodesOf(machine)].filter(([id, node]) => id !== machine.id && !isTransient(node)).map(([id]) => id);
}

/** Every (state node id, event type) transition the machine declares on events. */
export function declaredTransitions(machine: AnyStateMachine): string[] {
  const found: string[] = [];
  for (const [id, node] of nodesOf(machine)) {
    for (const eventType of node.transitions.keys()) found.push(`${id} ${eventType}`);
  }
  return found;
}

/**
 * The (state node id, event type) transitions a set of paths takes. The handling node is the
 * deepest active node, or its nearest ancestor, that declares the event.
 */
export function takenTransitions(paths: StatePath<Snapshot<unknown>, EventObject>[]): Set<string> {
  const taken = new Set<string>();
  for (const path of paths) {
    path.steps.forEach((step, index) => {
      if (index === 0) return;
      const previous = path.steps[index - 1].state;
      for (const node of activeNodes(previous).reverse()) {
        if (node.transitions.has(step.event.type)) {
          taken.add(`${node.id} ${step.event.type}`);
          break;
        }
      }
    });
  }
  return taken;
}

// The graph helpers hand back machine snapshots; these read the parts xstate keeps on them.
function activeNodes(snapshot: Snapshot<unknown>): AnyStateNode[] {
  // _nodes is how xstate itself keeps the active state nodes of a snapshot, ancestors first.
  return (snapshot as unknown as { _nodes: AnyStateNode[] })._nodes;
}

export function activeStateIds(snapshot: Snapshot<unknown>): string[] {
  return activeNodes(snapshot).map((node) => node.id);
}

export function valueOf(snapshot: Snapshot<unknown>): unknown {
  return (snapshot as unknown as { value: unknown }).value;
}

function nodesOf(machine: AnyStateMachine): Map<string, AnyStateNode> {
  return (machine as unknown as { idMap: Map<string, AnyStateNode> }).idMap;
}

type AnyPath = StatePath<Snapshot<unknown>, EventObject>;

/**
 * One path per transition: the shortest path to a state, then one handled event from there.
 * Shortest paths alone visit each state once and skip edges that lead back to a known state
 * (a failed login returning to the form, say); these paths take every edge the fixtures allow.
 */
export function transitionPaths(machine: AnyStateMachine, options: { events: readonly EventObject[]; input?: unknown }): AnyPath[] {
  const traversal = options as never;
  const shortest = getShortestPaths(machine, traversal) as AnyPath[];
  const toState = new Map(shortest.map((path) => [serializeSnapshot(path.state), path]));
  const paths: AnyPath[] = [];
  for (const edge of adjacencyMapToArray(getAdjacencyMap(machine, traversal))) {
    const base = toState.get(serializeSnapshot(edge.state as Snapshot<unknown>));
    const handled = activeNodes(edge.state as Snapshot<unknown>).some((node) => node.transitions.has(edge.event.type));
    if (!base || !handled) continue;
    const step = { event: edge.event, state: edge.nextState as Snapshot<unknown> };
    paths.push({ state: step.state, steps: [...base.steps, step], weight: base.weight + 1 });
  }
  return paths;
}
