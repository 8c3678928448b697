import { assign, assertEvent, fromPromise, setup } from 'xstate';
import { api } from '../lib/api';
import type { BackgroundChoices, Photo } from '../lib/contract';

export interface BackgroundsContext {
  /** The operator's own images, newest first. */
  images: Photo[];
  /** Ids of the chosen images, in the order the images are shown. */
  chosen: number[];
  /** A submit was tried: from then on the form says what is wrong with the choice. */
  submitted: boolean;
  error: unknown;
}

export type BackgroundsEvent =
  { type: 'toggle'; id: number } | { type: 'choose.all' } | { type: 'choose.none' } | { type: 'submit.tried' } | { type: 'reload' };

/**
 * The background images of a new creation request: load the operator's images, choose every one,
 * let the operator change the choice. An operator with no images lands in `none`: nothing to
 * choose, and the request goes without a choice (its variants stand on a blurred copy of the source).
 */
export const backgroundsMachine = setup({
  types: {
    context: {} as BackgroundsContext,
    events: {} as BackgroundsEvent,
  },
  actors: {
    load: fromPromise<BackgroundChoices>(() => api('GET', '/create-video/backgrounds')),
  },
  actions: {
    toggle: assign({
      chosen: ({ context, event }) => {
        assertEvent(event, 'toggle');
        const chosen = new Set(context.chosen);
        if (chosen.has(event.id)) chosen.delete(event.id);
        else chosen.add(event.id);
        return context.images.filter((image) => chosen.has(image.id)).map((image) => image.id);
      },
    }),
  },
}).createMachine({
  id: 'backgrounds',
  context: { images: [], chosen: [], submitted: false, error: undefined },
  initial: 'loading',
  on: {
    'submit.tried': { actions: assign({ submitted: true }) },
  },
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        onDone: [
          { guard: ({ event }) => event.output.data.length === 0, target: 'none' },
          {
            target: 'choosing',
            actions: assign(({ event }) => ({
              images: event.output.data,
              chosen: event.output.data.map((image) => image.id),
              error: undefined,
            })),
          },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    choosing: {
      on: {
        toggle: { actions: 'toggle' },
        'choose.all': { actions: assign({ chosen: ({ context }) => context.images.map((image) => image.id) }) },
        'choose.none': { actions: assign({ chosen: [] }) },
      },
    },
    none: {},
    failed: {
      on: { reload: 'loading' },
    },
  },
});
