import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import toast from 'react-hot-toast';
import type { AnyStateMachine } from 'xstate';
import { TestModel } from 'xstate/graph';
import { ApiError } from '../../src/lib/api';
import { photoUploadMachine, type PhotoUploadContext } from '../../src/machines/photo-upload-machine';
import { renderScreen } from './render';
import { statesReached, testEachPath } from './server-double';

/** The upload's XMLHttpRequest, answered by the test: its progress, and how it ends. */
const uploads = vi.hoisted(() => ({
  running: [] as Array<{
    form: FormData;
    onProgress: (fraction: number) => void;
    resolve: (body: unknown) => void;
    reject: (error: unknown) => void;
  }>,
}));

vi.mock('../../src/lib/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/lib/api')>()),
  upload: (_path: string, form: FormData, onProgress: (fraction: number) => void) =>
    new Promise((resolve, reject) => uploads.running.push({ form, onProgress, resolve, reject })),
}));

const { PhotoUploadScreen } = await import('../../src/screens/photos/photo-upload-screen');

const images = [new File(['a'], 'one.png', { type: 'image/png' }), new File(['b'], 'two.jpg', { type: 'image/jpeg' })];
const refused = ['Файл повинен бути зображенням'];

function eventsFor({ context }: { context: PhotoUploadContext }) {
  const next = images[context.files.length];
  return [
    ...(next ? [{ type: 'files.add', files: [next] }] : []),
    { type: 'file.remove', index: 0 },
    { type: 'form.submit' },
    { type: 'upload.progress', fraction: 0.4 },
    { type: 'xstate.done.actor.sendForm', output: [{ id: 1 }] },
    { type: 'xstate.error.actor.sendForm', error: new ApiError(400, refused) },
  ] as never[];
}

// The machine's emitted events do not fit TestModel's types; the model never looks at them.
const model = new TestModel(photoUploadMachine as AnyStateMachine, {
  events: eventsFor,
  stateMatcher: (snapshot, key) => snapshot.matches(key as never),
  filterEvents: (snapshot, event) => snapshot.can(event as never),
  serializeState: (snapshot, event, previous) => {
    const seen = (each: { value: unknown; context: PhotoUploadContext }) => [
      each.value,
      each.context.files.length,
      each.context.submitted,
      each.context.progress,
    ];
    const changed = !previous || JSON.stringify(seen(previous)) !== JSON.stringify(seen(snapshot));
    return JSON.stringify([...seen(snapshot), changed ? event?.type : undefined]);
  },
});

let user: UserEvent;
let location: ReturnType<typeof renderScreen>['location'];
let container: HTMLElement;
/** What the operator did: the files picked, a submit tried, the progress reported, the outcome. */
let expected: { files: string[]; submitted: boolean; progress: number; uploaded: boolean; toasts: string[] };

beforeEach(() => {
  user = userEvent.setup();
  uploads.running.length = 0;
  expected = { files: [], submitted: false, progress: 0, uploaded: false, toasts: [] };
});

afterEach(() => {
  toast.remove();
});

const saveButton = () => screen.getByRole('button', { name: 'Зберегти' });

const events = {
  'xstate.init': async () => {
    ({ location, container } = renderScreen(<PhotoUploadScreen />, { path: '/photos/create' }));
  },
  'files.add': async ({ event }: { event: { files: File[] } }) => {
    await user.upload(container.querySelector('input[type=file]') as HTMLInputElement, event.files);
    expected.files.push(...event.files.map((file) => file.name));
  },
  'file.remove': async () => {
    await user.click(screen.getByRole('button', { name: `Прибрати ${expected.files[0]}` }));
    expected.files.shift();
  },
  'form.submit': async () => {
    await user.click(saveButton());
    expected.submitted = true;
    expected.progress = 0;
  },
  'upload.progress': () => {
    uploads.running.at(-1)!.onProgress(0.4);
    expected.progress = 40;
  },
  'xstate.done.actor.sendForm': async () => {
    expect(
      uploads.running
        .at(-1)!
        .form.getAll('files')
        .map((file) => (file as File).name),
    ).toEqual(expected.files);
    uploads.running.at(-1)!.resolve([{ id: 1 }]);
    expected = { ...expected, files: [], submitted: false, uploaded: true, toasts: ['Зображення завантажено'] };
  },
  'xstate.error.actor.sendForm': () => {
    uploads.running.at(-1)!.reject(new ApiError(400, refused));
    expected.toasts.push(...refused);
  },
};

async function showsTheFiles() {
  const previews = screen.queryAllByRole('img').map((image) => image.getAttribute('alt'));
  expect(previews).toEqual(expected.files);
  for (const text of expected.toasts) expect(await screen.findByText(text)).toBeInTheDocument();
}

const states = {
  'form.empty': async () => {
    await waitFor(() => expect(saveButton()).toBeEnabled());
    expect(screen.getByText('Перетягніть зображення сюди')).toBeInTheDocument();
    await showsTheFiles();
    expect(screen.queryByText('Мінімум одне зображення') !== null).toBe(expected.submitted);
    expect(location.history?.at(-1)).toBe(expected.uploaded ? '/photos/list' : '/photos/create');
  },
  'form.selected': async () => {
    await waitFor(() => expect(saveButton()).toBeEnabled());
    await showsTheFiles();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
  },
  'form.submitting': async () => {
    await waitFor(() => expect(saveButton()).toBeDisabled());
    await showsTheFiles();
    expect(await screen.findByRole('progressbar', { name: 'Завантаження файлів' })).toHaveAttribute(
      'aria-valuenow',
      String(expected.progress),
    );
  },
};

describe('image upload screen, walked along the image upload machine', () => {
  const paths = model.getShortestPaths();

  it('reaches every state of the form: empty, selected, submitting, and back to empty through reset', () => {
    expect(statesReached(paths)).toEqual(
      ['{"form":"empty","drag":"idle"}', '{"form":"selected","drag":"idle"}', '{"form":"submitting","drag":"idle"}'].sort(),
    );
    expect(paths.some((path) => path.steps.some((step) => step.event.type === 'xstate.done.actor.sendForm'))).toBe(true);
  });

  testEachPath(paths, { events: events as never, states });
});
