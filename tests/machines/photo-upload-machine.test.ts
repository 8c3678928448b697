import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../../src/lib/api';
import { photoUploadMachine, type PhotoUploadEmitted } from '../../src/machines/photo-upload-machine';
import { uploadLine, xhrDouble } from '../fixtures/xhr-double';
import { deferredActors } from './deferred-actors';

const image = new File(['i'], 'bg.png', { type: 'image/png' });
const otherImage = new File(['j'], 'sky.jpg', { type: 'image/jpeg' });
const text = new File(['t'], 'notes.txt', { type: 'text/plain' });
const uploadFailure = new ApiError(400, ['Файл повинен бути зображенням']);

function start() {
  const calls = deferredActors(['sendForm'] as const);
  const actor = createActor(photoUploadMachine.provide({ actors: calls.actors }));
  const emitted: PhotoUploadEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  const state = () => {
    const { value, context } = actor.getSnapshot();
    return { value, files: context.files.map((file) => file.name), filesError: context.filesError, submitted: context.submitted };
  };
  return { actor, calls, emitted, state };
}

describe('image upload machine: the four states', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('goes empty → selected → submitting → reset → empty, letting its images go and saying so', async () => {
    const { actor, calls, emitted, state } = start();
    // Nothing to complain about before the first submit.
    expect(state()).toEqual({ value: { form: 'empty', drag: 'idle' }, files: [], filesError: undefined, submitted: false });
    actor.send({ type: 'files.add', files: [image] });
    expect(state()).toMatchObject({ value: { form: 'selected' }, files: ['bg.png'] });
    actor.send({ type: 'form.submit' });
    expect(state()).toMatchObject({ value: { form: 'submitting' }, submitted: true });
    const sent = calls.started[0].input as { files: File[]; onProgress: (fraction: number) => void };
    expect(sent.files).toEqual([image]);
    sent.onProgress(0.4);
    expect(actor.getSnapshot().context.progress).toBe(0.4);
    await calls.resolve('sendForm', [{ id: 7 }]);
    expect(state()).toEqual({ value: { form: 'empty', drag: 'idle' }, files: [], filesError: undefined, submitted: false });
    expect(actor.getSnapshot().context.progress).toBe(0);
    expect(emitted).toEqual([{ type: 'upload.done', output: [{ id: 7 }] }]);
  });

  it('keeps the images and the error after a refused upload, so the operator can send again', async () => {
    const { actor, calls, emitted, state } = start();
    actor.send({ type: 'files.add', files: [image, otherImage] });
    actor.send({ type: 'form.submit' });
    (calls.started[0].input as { onProgress: (fraction: number) => void }).onProgress(0.9);
    await calls.reject('sendForm', uploadFailure);
    expect(state()).toMatchObject({ value: { form: 'selected' }, files: ['bg.png', 'sky.jpg'] });
    expect(actor.getSnapshot().context).toMatchObject({ error: uploadFailure, progress: 0 });
    expect(emitted).toEqual([{ type: 'upload.failed', error: uploadFailure }]);
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(calls.started).toHaveLength(2);
    expect((calls.started[1].input as { files: File[] }).files).toEqual([image, otherImage]);
  });

  it('sends every image as `files` to POST /api/photo-bg', async () => {
    const sent = xhrDouble([{ status: 201, body: [{ id: 7 }, { id: 8 }] }]);
    const actor = createActor(photoUploadMachine).start();
    actor.send({ type: 'files.add', files: [image, otherImage] });
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (snapshot) => snapshot.matches({ form: 'empty' }));
    expect(sent.map(uploadLine)).toEqual(['POST /api/photo-bg files=bg.png&files=sky.jpg']);
  });

  it('sends once for two quick submits and takes no images while sending', () => {
    const { actor, calls } = start();
    actor.send({ type: 'files.add', files: [image] });
    actor.send({ type: 'form.submit' });
    actor.send({ type: 'form.submit' });
    actor.send({ type: 'files.add', files: [otherImage] });
    actor.send({ type: 'file.remove', index: 0 });
    expect(calls.started).toHaveLength(1);
    expect(actor.getSnapshot().context.files).toEqual([image]);
  });
});

describe('image upload machine: its images', () => {
  it('appends each pick to the images already chosen', () => {
    const { actor, state } = start();
    actor.send({ type: 'files.add', files: [image] });
    actor.send({ type: 'files.add', files: [otherImage, image] });
    expect(state().files).toEqual(['bg.png', 'sky.jpg', 'bg.png']);
  });

  it('ignores an empty pick, and goes back to empty when the last image is removed', () => {
    const { actor, state } = start();
    // A picker closed without a choice: nothing to complain about yet.
    actor.send({ type: 'files.add', files: [] });
    expect(state()).toEqual({ value: { form: 'empty', drag: 'idle' }, files: [], filesError: undefined, submitted: false });
    actor.send({ type: 'files.add', files: [image, otherImage] });
    // Closed again with images chosen: they stay, still fine.
    actor.send({ type: 'files.add', files: [] });
    expect(state()).toMatchObject({ value: { form: 'selected' }, files: ['bg.png', 'sky.jpg'], filesError: undefined });
    actor.send({ type: 'file.remove', index: 0 });
    expect(state()).toMatchObject({ value: { form: 'selected' }, files: ['sky.jpg'] });
    actor.send({ type: 'file.remove', index: 0 });
    expect(state()).toMatchObject({ value: { form: 'empty' }, files: [] });
  });

  it("says 'Мінімум одне зображення' for a submit with nothing chosen, and sends nothing", () => {
    const { actor, calls, state } = start();
    actor.send({ type: 'form.submit' });
    expect(state()).toMatchObject({ value: { form: 'empty' }, submitted: true, filesError: 'Мінімум одне зображення' });
    actor.send({ type: 'files.add', files: [image] });
    expect(state().filesError).toBeUndefined();
    expect(calls.started).toEqual([]);
  });

  it("refuses files of the wrong type with the spec's message, and re-checks as files change", () => {
    const { actor, calls, state } = start();
    actor.send({ type: 'files.add', files: [text] });
    expect(state().filesError).toBe('Файл повинен бути зображенням');
    actor.send({ type: 'form.submit' });
    expect(state()).toMatchObject({ value: { form: 'selected' }, submitted: true });
    expect(calls.started).toEqual([]);
    actor.send({ type: 'file.remove', index: 0 });
    expect(state().filesError).toBe('Мінімум одне зображення');
  });
});

describe('image upload machine: dragging', () => {
  it('tells an acceptable drag from a refused one, and forgets it when the drag leaves', () => {
    const { actor } = start();
    actor.send({ type: 'drag.enter', acceptable: true });
    expect(actor.getSnapshot().matches({ drag: { active: 'accepting' } })).toBe(true);
    actor.send({ type: 'drag.enter', acceptable: false });
    expect(actor.getSnapshot().matches({ drag: { active: 'rejecting' } })).toBe(true);
    actor.send({ type: 'drag.enter', acceptable: true });
    expect(actor.getSnapshot().matches({ drag: { active: 'accepting' } })).toBe(true);
    actor.send({ type: 'drag.leave' });
    expect(actor.getSnapshot().matches({ drag: 'idle' })).toBe(true);
    actor.send({ type: 'drag.enter', acceptable: false });
    expect(actor.getSnapshot().matches({ drag: { active: 'rejecting' } })).toBe(true);
  });
});
