import { assertEvent, assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { ApiError, errorMessages, formDataOf, upload } from '../lib/api';

/** How many source videos one drop takes: each is its own request, and a week of material is about 20. */
export const maxSourcesPerDrop = 20;
/** Uploads at once: two keep the line busy without starving each other's progress. */
export const sourcesAtOnce = 2;

export type SourceState = 'chosen' | 'waiting' | 'sending' | 'sent' | 'refused' | 'failed';

/** Why the drop itself refused a file, before any upload: not a video, or over `maxSourcesPerDrop`. */
export type DropRefusal = 'not-video' | 'too-many';

/** A file the drop refused, kept by name so its row can say why. */
export interface RefusedFile {
  key: number;
  name: string;
  reason: DropRefusal;
}

/** While files are dragged over the zone: how many there are and how many of them it would take. */
export interface DragCount {
  dragged: number;
  taken: number;
}

export interface Source {
  /** Stable for the file's life in the form: its row's key and its upload actor's id. */
  key: number;
  file: File;
  state: SourceState;
  /** Share of its body sent so far, 0..1. */
  progress: number;
  /** Why it was refused (the server's words: type, size, duration) or why its upload failed. */
  reason: string | null;
}

export interface SourcesContext {
  sources: Source[];
  nextKey: number;
  /** The count and backgrounds every request of the drop carries, as the form sent them. */
  fields: Record<string, string>;
  /** The files the last pick refused: they are never sent, and never counted with the sources. */
  refusedOnDrop: RefusedFile[];
  /** A submit was tried: the 'at least one' message may show. */
  submitted: boolean;
  /** Null when nothing is dragged over the zone. */
  drag: DragCount | null;
}

export type SourcesEvent =
  | { type: 'files.add'; files: File[] }
  | { type: 'file.remove'; key: number }
  | { type: 'refusal.dismiss'; key: number }
  | { type: 'form.submit'; fields: Record<string, string> }
  | { type: 'form.invalid' }
  | { type: 'file.retry'; key: number }
  | { type: 'source.progress'; key: number; fraction: number }
  /** `types`: the MIME type of each dragged file, all a browser tells before the drop. */
  | { type: 'drag.enter'; types: string[] }
  | { type: 'drag.leave' }
  | { type: `xstate.done.actor.${string}`; actorId: string; output: unknown }
  | { type: `xstate.error.actor.${string}`; actorId: string; error: unknown };

export type SourcesEmitted = { type: 'sources.sent'; count: number };

const actorIdOf = (key: number) => `source-${key}`;

/** The one rule for a drag's count and a drop's split, so the zone takes on drop what it promised while dragged. */
const isVideoType = (type: string) => type.startsWith('video/');

/** Room left for a new pick: a settled drop's sent and refused files leave with it, the rest stay ('start over'). */
const roomFor = (sources: Source[]) =>
  maxSourcesPerDrop - sources.filter((source) => source.state !== 'sent' && source.state !== 'refused').length;

function dragCountOf(types: string[], sources: Source[]): DragCount {
  return { dragged: types.length, taken: Math.min(types.filter(isVideoType).length, Math.max(0, roomFor(sources))) };
}

/** A refusal is the server's answer about the file itself (4xx): sending it again cannot help. A lost connection or a 5xx may pass next time. */
function outcomeOf(error: unknown): Pick<Source, 'state' | 'reason'> {
  const refused = error instanceof ApiError && error.status >= 400 && error.status < 500;
  return { state: refused ? 'refused' : 'failed', reason: errorMessages(error).join(' ') };
}

const settle = (sources: Source[], actorId: string, change: Partial<Source>) =>
  sources.map((source) => (actorIdOf(source.key) === actorId ? { ...source, ...change } : source));

interface SendSourceInput {
  files: File[];
  fields: Record<string, string>;
  onProgress: (fraction: number) => void;
}

/**
 * Several source videos in one drop, each sent as its own SPEC request (POST
 * /api/create-video/create, one file) with the same count and backgrounds: picking (a drop keeps its
 * videos while there is room and names every other file with why; a drag is told how many it would
 * keep) → sending (one
 * upload actor per file, at most `sourcesAtOnce` running) → settled when some were refused or failed
 * (a failed one can be sent again), or back to picking with 'sources.sent' emitted when all went.
 */
export const sourcesMachine = setup({
  types: {
    context: {} as SourcesContext,
    events: {} as SourcesEvent,
    emitted: {} as SourcesEmitted,
  },
  actors: {
    sendSource: fromPromise<unknown, SendSourceInput>(({ input }) =>
      upload('/create-video/create', formDataOf(input.fields, 'file', input.files), input.onProgress),
    ),
  },
  actions: {
    /** Takes the videos the room allows, in the order dropped; every other file becomes a refusal by name. */
    'add files': assign(({ context, event }) => {
      assertEvent(event, 'files.add');
      let room = roomFor(context.sources);
      const added: Source[] = [];
      const refusedOnDrop: RefusedFile[] = [];
      for (const [index, file] of event.files.entries()) {
        const key = context.nextKey + index;
        if (!isVideoType(file.type)) refusedOnDrop.push({ key, name: file.name, reason: 'not-video' });
        else if (room <= 0) refusedOnDrop.push({ key, name: file.name, reason: 'too-many' });
        else {
          added.push({ key, file, state: 'chosen', progress: 0, reason: null });
          room -= 1;
        }
      }
      return { sources: [...context.sources, ...added], nextKey: context.nextKey + event.files.length, refusedOnDrop };
    }),
    'remove file': assign(({ context, event }) => {
      assertEvent(event, 'file.remove');
      return { sources: context.sources.filter((source) => source.key !== event.key) };
    }),
    'dismiss refusal': assign(({ context, event }) => {
      assertEvent(event, 'refusal.dismiss');
      return { refusedOnDrop: context.refusedOnDrop.filter((file) => file.key !== event.key) };
    }),
    'mark submitted': assign({ submitted: true }),
    'queue all': assign(({ context, event }) => {
      assertEvent(event, 'form.submit');
      return { fields: event.fields, sources: context.sources.map((source) => ({ ...source, state: 'waiting' as const })) };
    }),
    'queue again': assign(({ context, event }) => {
      assertEvent(event, 'file.retry');
      return {
        sources: context.sources.map((source) =>
          source.key === event.key && source.state === 'failed'
            ? { ...source, state: 'waiting' as const, progress: 0, reason: null }
            : source,
        ),
      };
    }),
    /** Starts the oldest waiting files while fewer than `sourcesAtOnce` are on their way. */
    'start next': enqueueActions(({ context, enqueue, self }) => {
      const running = context.sources.filter((source) => source.state === 'sending').length;
      const next = context.sources.filter((source) => source.state === 'waiting').slice(0, Math.max(0, sourcesAtOnce - running));
      for (const source of next) {
        enqueue.spawnChild('sendSource', {
          id: actorIdOf(source.key),
          input: {
            files: [source.file],
            fields: context.fields,
            onProgress: (fraction: number) => self.send({ type: 'source.progress', key: source.key, fraction }),
          },
        });
      }
      const starting = new Set(next.map((source) => source.key));
      enqueue.assign({
        sources: context.sources.map((source) => (starting.has(source.key) ? { ...source, state: 'sending' as const } : source)),
      });
    }),
    'record sent': assign(({ context, event }) => {
      const { actorId } = event as { actorId: string };
      return { sources: settle(context.sources, actorId, { state: 'sent', progress: 1 }) };
    }),
    'record refusal': assign(({ context, event }) => {
      const { actorId, error } = event as { actorId: string; error: unknown };
      return { sources: settle(context.sources, actorId, { ...outcomeOf(error), progress: 0 }) };
    }),
    'keep progress': assign(({ context, event }) => {
      assertEvent(event, 'source.progress');
      return {
        sources: context.sources.map((source) =>
          source.key === event.key && source.state === 'sending' ? { ...source, progress: event.fraction } : source,
        ),
      };
    }),
    /** A new pick after a settled drop: the failed files stay to be sent with it, the finished ones go. */
    'start over': assign(({ context }) => ({
      sources: context.sources
        .filter((source) => source.state === 'failed')
        .map((source) => ({ ...source, state: 'chosen' as const, progress: 0, reason: null })),
      submitted: false,
    })),
  },
  guards: {
    'has files': ({ context }) => context.sources.length > 0,
    'all finished': ({ context }) => context.sources.every((source) => source.state !== 'waiting' && source.state !== 'sending'),
    'all sent': ({ context }) => context.sources.every((source) => source.state === 'sent'),
  },
}).createMachine({
  id: 'sources',
  context: { sources: [], nextKey: 0, fields: {}, refusedOnDrop: [], submitted: false, drag: null },
  on: {
    'drag.enter': { actions: assign({ drag: ({ context, event }) => dragCountOf(event.types, context.sources) }) },
    'drag.leave': { actions: assign({ drag: null }) },
    'refusal.dismiss': { actions: 'dismiss refusal' },
  },
  initial: 'picking',
  states: {
    picking: {
      on: {
        'files.add': { actions: 'add files' },
        'file.remove': { actions: 'remove file' },
        'form.submit': [{ guard: 'has files', target: 'sending', actions: ['mark submitted', 'queue all'] }, { actions: 'mark submitted' }],
        'form.invalid': { actions: 'mark submitted' },
      },
    },
    sending: {
      entry: 'start next',
      always: [
        {
          guard: 'all sent',
          target: 'picking',
          actions: [
            emit(({ context }) => ({ type: 'sources.sent' as const, count: context.sources.length })),
            assign({ sources: [], submitted: false, refusedOnDrop: [] }),
          ],
        },
        { guard: 'all finished', target: 'settled' },
      ],
      on: {
        'source.progress': { actions: 'keep progress' },
        'xstate.done.actor.*': { actions: ['record sent', 'start next'] },
        'xstate.error.actor.*': { actions: ['record refusal', 'start next'] },
        'file.retry': { actions: ['queue again', 'start next'] },
      },
    },
    settled: {
      on: {
        'file.retry': { target: 'sending', actions: 'queue again' },
        'files.add': { target: 'picking', actions: ['start over', 'add files'] },
      },
    },
  },
});
