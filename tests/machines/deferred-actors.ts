import { fromPromise } from 'xstate';

interface Running {
  input: unknown;
  resolve: (output: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Promise actors the test settles by hand, by name: a machine provided with them waits in its
 * invoking state until the test says how the call ended.
 */
export function deferredActors<Name extends string>(names: readonly Name[]) {
  const running = new Map<Name, Running[]>();
  const started: Array<{ name: Name; input: unknown }> = [];
  const actors = Object.fromEntries(
    names.map((name) => [
      name,
      fromPromise<unknown, unknown>(
        ({ input }) =>
          new Promise((resolve, reject) => {
            started.push({ name, input });
            running.set(name, [...(running.get(name) ?? []), { input, resolve, reject }]);
          }),
      ),
    ]),
    // Each stands in for an actor with its own input and output types, which only the test settles.
  ) as unknown as Record<Name, never>;

  function take(name: Name): Running {
    const [first, ...rest] = running.get(name) ?? [];
    if (!first) throw new Error(`actor ${name} is not running; started so far: ${JSON.stringify(started.map((each) => each.name))}`);
    running.set(name, rest);
    return first;
  }

  return {
    actors,
    /** Every invocation so far, in order, with its input. */
    started,
    /** Ends the oldest running `name` with `output`; resolves after the machine has taken it. */
    async resolve(name: Name, output?: unknown) {
      take(name).resolve(output);
      await Promise.resolve();
    },
    async reject(name: Name, error: unknown) {
      take(name).reject(error);
      await Promise.resolve();
    },
  };
}

/** Lets settled promises reach the machine. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
