import { assign, assertEvent, emit, fromPromise, setup } from 'xstate';
import { upload } from '../lib/api';
import { uploadFilesError, type UploadRules } from '../lib/schemas';

export interface UploadInput {
  /** The API path the form posts to, e.g. '/photo-bg'. */
  path: string;
  /** The multipart field that carries each file. */
  fileField: string;
  /** Several files (images) or exactly one (the source video: a new pick replaces the old). */
  multiple: boolean;
  /** Which form's file rules apply (how many, of what type). */
  rules: UploadRules;
}

export interface UploadContext extends UploadInput {
  /** The chosen files: this machine is their one owner; the form only shows them. */
  files: File[];
  /** The rules' message for the files, shown once a submit was tried. */
  filesError: string | undefined;
  submitted: boolean;
  /** Share of the request body sent so far, 0..1. */
  progress: number;
  error: unknown;
}

export type UploadEvent =
  | { type: 'files.add'; files: File[] }
  | { type: 'file.remove'; index: number }
  /** The form's other fields passed their checks. */
  | { type: 'form.submit'; fields: Record<string, string> }
  /** The form's other fields failed their checks: the files' message shows beside theirs. */
  | { type: 'form.invalid' }
  | { type: 'upload.progress'; fraction: number }
  | { type: 'drag.enter'; acceptable: boolean }
  | { type: 'drag.leave' };

export type UploadEmitted = { type: 'upload.done'; output: unknown } | { type: 'upload.failed'; error: unknown };

export interface SendFormInput {
  path: string;
  fileField: string;
  files: File[];
  fields: Record<string, string>;
  onProgress: (fraction: number) => void;
}

/** Fields first, so the server can refuse a bad count before it streams a large file. */
export function formDataOf({ fileField, files, fields }: Pick<SendFormInput, 'fileField' | 'files' | 'fields'>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(fileField, file, file.name);
  return form;
}

/**
 * An upload form: empty → selected → submitting → reset (files let go, the outcome emitted) →
 * empty; a failure goes back to selected with the files kept. Beside it, the drag state of the drop
 * area. Outcomes are emitted, so a screen decides what to toast and where to go.
 */
export const uploadMachine = setup({
  types: {
    context: {} as UploadContext,
    events: {} as UploadEvent,
    input: {} as UploadInput,
    emitted: {} as UploadEmitted,
  },
  actors: {
    sendForm: fromPromise<unknown, SendFormInput>(({ input }) => upload(input.path, formDataOf(input), input.onProgress)),
  },
  actions: {
    'add files': assign({
      files: ({ context, event }) => {
        assertEvent(event, 'files.add');
        return context.multiple ? [...context.files, ...event.files] : event.files.slice(0, 1);
      },
    }),
    'remove file': assign({
      files: ({ context, event }) => {
        assertEvent(event, 'file.remove');
        return context.files.filter((_, index) => index !== event.index);
      },
    }),
    'check files': assign({ filesError: ({ context }) => uploadFilesError(context.rules, context.files) }),
    'mark submitted': assign({ submitted: true }),
  },
  guards: {
    'files will do': ({ context }) => uploadFilesError(context.rules, context.files) === undefined,
    'adds a file': ({ event }) => event.type === 'files.add' && event.files.length > 0,
    'has no files': ({ context }) => context.files.length === 0,
    'is acceptable': ({ event }) => event.type === 'drag.enter' && event.acceptable,
  },
}).createMachine({
  id: 'upload',
  type: 'parallel',
  context: ({ input }) => ({ ...input, files: [], filesError: undefined, submitted: false, progress: 0, error: null }),
  states: {
    form: {
      initial: 'empty',
      states: {
        empty: {
          on: {
            'files.add': { guard: 'adds a file', target: 'selected', actions: ['add files', 'check files'] },
            'form.submit': { actions: ['mark submitted', 'check files'] },
            'form.invalid': { actions: ['mark submitted', 'check files'] },
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
            'form.invalid': { actions: ['mark submitted', 'check files'] },
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
            input: ({ context, event, self }) => {
              assertEvent(event, 'form.submit');
              return {
                path: context.path,
                fileField: context.fileField,
                files: context.files,
                fields: event.fields,
                onProgress: (fraction: number) => self.send({ type: 'upload.progress', fraction }),
              };
            },
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
