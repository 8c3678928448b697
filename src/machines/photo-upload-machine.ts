import { assign, assertEvent, emit, fromPromise, setup } from 'xstate';
import { formDataOf, upload } from '../lib/api';
import { photoFilesError } from '../lib/schemas';

export interface PhotoUploadContext {
  /** The chosen images: this machine is their one owner; the form only shows them. */
  files: File[];
  /** The rules' message for the images, shown once a submit was tried. */
  filesError: string | undefined;
  submitted: boolean;
  /** Share of the request body sent so far, 0..1. */
  progress: number;
  error: unknown;
}

export type PhotoUploadEvent =
  | { type: 'files.add'; files: File[] }
  | { type: 'file.remove'; index: number }
  | { type: 'form.submit' }
  | { type: 'upload.progress'; fraction: number }
  | { type: 'drag.enter'; acceptable: boolean }
  | { type: 'drag.leave' };

export type PhotoUploadEmitted = { type: 'upload.done'; output: unknown } | { type: 'upload.failed'; error: unknown };

interface SendFormInput {
  files: File[];
  onProgress: (fraction: number) => void;
}

/**
 * The image upload form (POST /api/photo-bg, every image as `files`): empty → selected →
 * submitting → reset (images let go, the outcome emitted) → empty; a failure goes back to selected
 * with the images kept. Beside it, the drag state of the drop area. Outcomes are emitted, so the
 * screen decides what to toast and where to go.
 */
export const photoUploadMachine = setup({
  types: {
    context: {} as PhotoUploadContext,
    events: {} as PhotoUploadEvent,
    emitted: {} as PhotoUploadEmitted,
  },
  actors: {
    sendForm: fromPromise<unknown, SendFormInput>(({ input }) =>
      upload('/photo-bg', formDataOf({}, 'files', input.files), input.onProgress),
    ),
  },
  actions: {
    'add files': assign({
      files: ({ context, event }) => {
        assertEvent(event, 'files.add');
        return [...context.files, ...event.files];
      },
    }),
    'remove file': assign({
      files: ({ context, event }) => {
        assertEvent(event, 'file.remove');
        return context.files.filter((_, index) => index !== event.index);
      },
    }),
    'check files': assign({ filesError: ({ context }) => photoFilesError(context.files) }),
    'mark submitted': assign({ submitted: true }),
  },
  guards: {
    'files will do': ({ context }) => photoFilesError(context.files) === undefined,
    'adds a file': ({ event }) => event.type === 'files.add' && event.files.length > 0,
    'has no files': ({ context }) => context.files.length === 0,
    'is acceptable': ({ event }) => event.type === 'drag.enter' && event.acceptable,
  },
}).createMachine({
  id: 'photoUpload',
  type: 'parallel',
  context: { files: [], filesError: undefined, submitted: false, progress: 0, error: null },
  states: {
    form: {
      initial: 'empty',
      states: {
        empty: {
          on: {
            'files.add': { guard: 'adds a file', target: 'selected', actions: ['add files', 'check files'] },
            'form.submit': { actions: ['mark submitted', 'check files'] },
          },
        },
        selected: {
          always: { guard: 'has no files', target: 'empty' },
          on: {
            'files.add': { guard: 'adds a file', actions: ['add files', 'check files'] },
            'file.remove': { actions: ['remove file', 'check files'] },
            'form.submit': [
              { guard: 'files will do', target: 'submitting', actions: 'mark submitted' },
              { actions: ['mark submitted', 'check files'] },
            ],
          },
        },
        submitting: {
          entry: assign({ progress: 0, error: null }),
          on: {
            'upload.progress': { actions: assign({ progress: ({ event }) => event.fraction }) },
          },
          invoke: {
            id: 'sendForm',
            src: 'sendForm',
            input: ({ context, self }) => ({
              files: context.files,
              onProgress: (fraction: number) => self.send({ type: 'upload.progress', fraction }),
            }),
            onDone: {
              target: 'reset',
              actions: emit(({ event }) => ({ type: 'upload.done' as const, output: event.output })),
            },
            onError: {
              target: 'selected',
              actions: [
                assign({ error: ({ event }) => event.error, progress: 0 }),
                emit(({ event }) => ({ type: 'upload.failed' as const, error: event.error })),
              ],
            },
          },
        },
        reset: {
          // The form starts over: nothing chosen, nothing to complain about.
          entry: assign({ files: [], progress: 0, filesError: undefined, submitted: false }),
          always: 'empty',
        },
      },
    },
    drag: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'drag.enter': [{ guard: 'is acceptable', target: 'active.accepting' }, { target: 'active.rejecting' }],
          },
        },
        active: {
          initial: 'accepting',
          on: {
            'drag.leave': 'idle',
            'drag.enter': [{ guard: 'is acceptable', target: '.accepting' }, { target: '.rejecting' }],
          },
          states: {
            accepting: {},
            rejecting: {},
          },
        },
      },
    },
  },
});
