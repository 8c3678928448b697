import { fromPromise, type AnyActorRef, type EventObject } from 'xstate';

type Settle = { resolve: (output: unknown) => void; reject: (error: unknown) => void };

/**
 * Promise actors whose outcome the test decides. A model path's `xstate.done.actor.X` or
 * `xstate.error.actor.X` step settles the running actor X, so the real machine gets there
 * through its own invoke, exactly as it would in the app.
 */
export function controlledActors<Name extends string>(names: readonly Name[]) {
  const running = new Map<string, Settle>();
  const started: Name[] = [];
  const actors = Object.fromEntries(
    names.map((name) => [
      name,
      fromPromise<any, any>(
        () =>
          new Promise((resolve, reject) => {
            started.push(name);
            running.set(name, { resolve, reject });
          }),
      ),
    ]),
    // Each stands in for an actor with its own input and output types, which the driver does not look at.
  ) as Record<Name, ReturnType<typeof fromPromise<any, any>>>;

  return {
    actors,
    /** Names of the actors invoked so far, in order. */
    started,
    /** Sends a model step to the actor: settles an invoked actor, or sends an ordinary event. */
    play(actor: AnyActorRef, event: EventObject) {
      const done = /^xstate\.done\.actor\.(.+)$/.exec(event.type);
      const failed = /^xstate\.error\.actor\.(.+)$/.exec(event.type);
      const id = done?.[1] ?? failed?.[1];
      if (!id) return actor.send(event);
      const settle = running.get(id);
      if (!settle) throw new Error(`the model steps through ${event.type}, but actor "${id}" is not running`);
      running.delete(id);
      const outcome = event as EventObject & { output?: unknown; error?: unknown };
      if (done) settle.resolve(outcome.output);
      else settle.reject(outcome.error);
    },
  };
}
