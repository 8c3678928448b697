import { describe, expect, it, vi } from 'vitest';
import { createActor, type AnyStateMachine, type EventObject, type SnapshotFrom } from 'xstate';
import { getPathsFromEvents, getShortestPaths, type StatePath } from 'xstate/graph';
import { ApiError } from '../../src/lib/api';
import { formDataOf, uploadMachine, type UploadEmitted, type UploadEvent, type UploadInput } from '../../src/machines/upload-machine';
import { controlledActors } from './model-driver';

type Snapshot = SnapshotFrom<typeof uploadMachine>;
type Path = StatePath<Snapshot, EventObject>;

const video = new File(['v'], 'clip.mp4', { type: 'video/mp4' });
const image = new File(['i'], 'bg.png', { type: 'image/png' });
const uploadFailure = new ApiError(400, ['Файл повинен бути відео']);

/** A fixture for every event: adding a type to UploadEvent does not compile until it has one here. */
const eventFixtures: { [Type in UploadEvent['type']]: Array<Extract<UploadEvent, { type: Type }>> } = {
  'files.add': [
    { type: 'files.add', files: [video] },
    { type: 'files.add', files: [] },
  ],
  'file.remove': [{ type: 'file.remove', index: 0 }],
  'form.submit': [{ type: 'form.submit', fields: { countVideo: '2' } }],
  'upload.progress': [{ type: 'upload.progress', fraction: 0.5 }],
  'drag.enter': [
    { type: 'drag.enter', acceptable: true },
    { type: 'drag.enter', acceptable: false },
  ],
  'drag.leave': [{ type: 'drag.leave' }],
};

/** And one for each outcome of every invoked actor. */
const actorOutcomes = {
  sendForm: { output: { id: 7, idUpload: 'a5d1e2c3-0000-4000-8000-000000000000' }, error: uploadFailure },
};

const events = [
  ...Object.values(eventFixtures).flat(),
  { type: 'xstate.done.actor.sendForm', output: actorOutcomes.sendForm.output },
  { type: 'xstate.error.actor.sendForm', error: actorOutcomes.sendForm.error },
] as UploadEvent[];

/** What the screen reads from a snapshot: the form and drag states, the files, the progress and the error. */
function observable(snapshot: Snapshot) {
  return {
    value: snapshot.value,
    files: snapshot.context.files.map((file) => file.name),
    progress: snapshot.context.progress,
    error: snapshot.context.error,
  };
}

/** Drives a real actor along a model path, settling its invoked actor where the path says so. */
async function replay(path: Path, input: UploadInput) {
  const controls = controlledActors(['sendForm']);
  const actor = createActor(uploadMachine.provide({ actors: controls.actors }), { input });
  const emitted: UploadEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  for (const step of path.steps.filter((step) => step.event.type !== 'xstate.init')) {
    controls.play(actor, step.event);
    await vi.waitFor(() => expect(observable(actor.getSnapshot())).toEqual(observable(step.state)));
    if (step.event.type === 'xstate.done.actor.sendForm') {
      expect(emitted.at(-1)).toEqual({ type: 'upload.done', output: actorOutcomes.sendForm.output });
    }
    if (step.event.type === 'xstate.error.actor.sendForm') {
      expect(emitted.at(-1)).toEqual({ type: 'upload.failed', error: uploadFailure });
    }
  }
  actor.stop();
}

const describePath = (path: Path) =>
  `${JSON.stringify(path.state.value)} via ${path.steps.map((step) => step.event.type).join(' → ')}`;

const inputs = [
  { path: '/create-video/create', fileField: 'file', multiple: false },
  { path: '/photo-bg', fileField: 'files', multiple: true },
] satisfies UploadInput[];

for (const input of inputs) {
  describe(`upload machine (${input.multiple ? 'several files' : 'one file'}), every state by its shortest path`, () => {
    const paths = getShortestPaths(uploadMachine, {
      input,
      events,
      // Files beyond two add nothing new to see, so the model stays finite.
      serializeState: (snapshot) => {
        const { value, files, progress, error } = observable(snapshot as Snapshot);
        return JSON.stringify({ value, files: files.slice(0, 2), progress, error: Boolean(error) });
      },
    });
    for (const path of paths as unknown as Path[]) {
      it(`reaches ${describePath(path)}`, () => replay(path, input));
    }
  });
}

describe('upload machine journeys the shortest paths skip', () => {
  // A successful upload ends where the form started, so shortest paths never need to take it.
  const journeys: UploadEvent[][] = [
    [eventFixtures['files.add'][0]!, eventFixtures['form.submit'][0]!, eventFixtures['upload.progress'][0]!, events.at(-2)!],
    [eventFixtures['files.add'][0]!, eventFixtures['form.submit'][0]!, events.at(-1)!, eventFixtures['form.submit'][0]!, events.at(-2)!],
  ];
  for (const input of inputs) {
    for (const journey of journeys) {
      const paths = getPathsFromEvents(uploadMachine as AnyStateMachine, journey, { input }) as unknown as Path[];
      for (const path of paths) {
        it(`${input.multiple ? 'several files' : 'one file'}: ${describePath(path)}`, () => replay(path, input));
      }
    }
  }

  it('ignores a second submit while the first upload runs, so a form is never sent twice', async () => {
    const controls = controlledActors(['sendForm']);
    const actor = createActor(uploadMachine.provide({ actors: controls.actors }), {
      input: { path: '/photo-bg', fileField: 'files', multiple: true },
    }).start();
    actor.send({ type: 'files.add', files: [image] });
    actor.send({ type: 'form.submit', fields: {} });
    actor.send({ type: 'form.submit', fields: {} });
    actor.send({ type: 'files.add', files: [video] });
    expect(controls.started).toEqual(['sendForm']);
    expect(actor.getSnapshot().context.files).toEqual([image]);
    expect(actor.getSnapshot().matches({ form: 'submitting' })).toBe(true);
  });

  it('replaces the one video when another is picked, and appends images', () => {
    const single = createActor(uploadMachine, { input: { path: '/create-video/create', fileField: 'file', multiple: false } }).start();
    single.send({ type: 'files.add', files: [video] });
    single.send({ type: 'files.add', files: [new File(['w'], 'other.mp4', { type: 'video/mp4' })] });
    expect(single.getSnapshot().context.files.map((file) => file.name)).toEqual(['other.mp4']);

    const several = createActor(uploadMachine, { input: { path: '/photo-bg', fileField: 'files', multiple: true } }).start();
    several.send({ type: 'files.add', files: [image] });
    several.send({ type: 'files.add', files: [image, image] });
    expect(several.getSnapshot().context.files).toHaveLength(3);
  });

  it('sends the fields before the files, under the given field name', () => {
    const form = formDataOf({ fileField: 'file', files: [video], fields: { countVideo: '3' } });
    expect([...form.keys()]).toEqual(['countVideo', 'file']);
    expect(form.get('countVideo')).toBe('3');
    expect((form.get('file') as File).name).toBe('clip.mp4');
  });
});
