import { useActorRef } from '@xstate/react';
import type { ActorOptions, ActorRefFrom, AnyActorLogic } from 'xstate';
import { inspector } from '../machines/inspector';

/**
 * A screen's actor: started with the screen, stopped when it unmounts, and handed to the Stately
 * inspector when one is connected (docs/inspector.md). `id` is the name the inspector shows.
 */
export function useScreenActor<Logic extends AnyActorLogic>(
  logic: Logic,
  options: ActorOptions<Logic> & { id: string },
): ActorRefFrom<Logic> {
  return useActorRef(logic, { ...options, inspect: inspector() }) as ActorRefFrom<Logic>;
}
