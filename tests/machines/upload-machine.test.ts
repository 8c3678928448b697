import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../../src/lib/api';
import { formDataOf, uploadMachine, type UploadEmitted, type UploadInput } from '../../src/machines/upload-machine';
import { deferredActors } from './deferred-actors';

const video = new File(['v'], 'clip.mp4', { type: 'video/mp4' });
const otherVideo = new File(['w'], 'other.mp4', { type: 'video/mp4' });
const image = new File(['i'], 'bg.png', { type: 'image/png' });
const text = new File(['t'], 'notes.txt', { type: 'text/plain' });
const uploadFailure = new ApiError(400, ['Файл повинен бути відео']);

const videoForm: UploadInput = { path: '/create-video/create', fileField: 'file', multiple: false, rules: 'video' };
const photoForm: UploadInput = { path: '/photo-bg', fileField: 'files', multiple: true, rules: 'photos' };

function start(input: UploadInput) {
  const calls = deferredActors(['sendForm'] as const);
  const actor = createActor(uploadMachine.provide({ actors: calls.actors }), { input });
  const emitted: UploadEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  const state = () => {
    const { value, context } = actor.getSnapshot();
    return { value, files: context.files.map((file) => file.name), filesError: context.filesError, submitted: context.submitted };
  };
  return { actor, calls, emitted, state };
}

describe('upload machine: the four states', () => {
  it('goes empty → selected → submitting → reset → empty, letting its files go and saying so', async () => {
    const { actor, calls, emitted, state } = start(photoForm);
    // Nothing to complain about before the first submit.
    expect(state()).toEqual({ value: { form: 'empty', drag: 'idle' }, files: [], filesError: undefined, submitted: false });
    actor.send({ type: 'files.add', files: [image] });
    expect(state()).toMatchObject({ value: { form: 'selected' }, files: ['bg.png'] });
    actor.send({ type: 'form.submit', fields: { note: 'x' } });
    expect(state()).toMatchObject({ value: { form: 'submitting' }, submitted: true });
    const sent = calls.started[0].input as { files: File[]; onProgress: (fraction: number) => void };
    expect(sent).toMatchObject({ path: '/photo-bg', fileField: 'files', files: [image], fields: { note: 'x' } });
    sent.onProgress(0.4);
    expect(actor.getSnapshot().context.progress).toBe(0.4);
    await calls.resolve('sendForm', { id: 7 });
    expect(state()).toEqual({ value: { form: 'empty', drag: 'idle' }, files: [], filesError: undefined, submitted: false });
    expect(actor.getSnapshot().context.progress).toBe(0);
    expect(emitted).toEqual([{ type: 'upload.done', output: { id: 7 } }]);
  });

  it('keeps the files and the error after a refused upload, so the operator can send again', async () => {
    const { actor, calls, emitted, state } = start(videoForm);
    actor.send({ type: 'files.add', files: [video] });
    actor.send({ type: 'form.submit', fields: { countVideo: '2' } });
    (calls.started[0].input as { onProgress: (fraction: number) => void }).onProgress(0.9);
    await calls.reject('sendForm', uploadFailure);
    expect(state()).toMatchObject({ value: { form: 'selected' }, files: ['clip.mp4'] });
    expect(actor.getSnapshot().context).toMatchObject({ error: uploadFailure, progress: 0 });
    expect(emitted).toEqual([{ type: 'upload.failed', error: uploadFailure }]);
    actor.send({ type: 'form.submit', fields: { countVideo: '2' } });
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(calls.started).toHaveLength(2);
  });

  it('sends once for two quick submits and takes no files while sending', () => {
    const { actor, calls } = start(photoForm);
    actor.send({ type: 'files.add', files: [image] });
    actor.send({ type: 'form.submit', fields: {} });
    actor.send({ type: 'form.submit', fields: {} });
    actor.send({ type: 'files.add', files: [video] });
    actor.send({ type: 'file.remove', index: 0 });
    expect(calls.started).toHaveLength(1);
    expect(actor.getSnapshot().context.files).toEqual([image]);
  });
});

describe('upload machine: its files', () => {
  it('replaces the one video when another is picked, and appends images', () => {
    const single = start(videoForm);
    single.actor.send({ type: 'files.add', files: [video] });
    single.actor.send({ type: 'files.add', files: [otherVideo, video] });
    expect(single.state().files).toEqual(['other.mp4']);
    const several = start(photoForm);
    several.actor.send({ type: 'files.add', files: [image] });
    several.actor.send({ type: 'files.add', files: [image, image] });
    expect(several.state().files).toHaveLength(3);
  });

  it('ignores an empty pick, and goes back to empty when the last file is removed', () => {
    const { actor, state } = start(photoForm);
    // A picker closed without a choice: nothing to complain about yet.
    actor.send({ type: 'files.add', files: [] });
    expect(state()).toEqual({ value: { form: 'empty', drag: 'idle' }, files: [], filesError: undefined, submitted: false });
    actor.send({ type: 'files.add', files: [image, video] });
    actor.send({ type: 'files.add', files: [] });
    actor.send({ type: 'file.remove', index: 0 });
    expect(state()).toMatchObject({ value: { form: 'selected' }, files: ['clip.mp4'] });
    actor.send({ type: 'file.remove', index: 0 });
    expect(state()).toMatchObject({ value: { form: 'empty' }, files: [] });
  });

  it('keeps the chosen video when the picker is closed without a new one', () => {
    const { actor, state } = start(videoForm);
    actor.send({ type: 'files.add', files: [video] });
    actor.send({ type: 'files.add', files: [] });
    expect(state()).toMatchObject({ value: { form: 'selected' }, files: ['clip.mp4'], filesError: undefined });
  });

  it("says 'Мінімум одне зображення' for a submit with nothing chosen, and sends nothing", () => {
    const { actor, calls, state } = start(photoForm);
    actor.send({ type: 'form.submit', fields: {} });
    expect(state()).toMatchObject({ value: { form: 'empty' }, submitted: true, filesError: 'Мінімум одне зображення' });
    actor.send({ type: 'files.add', files: [image] });
    expect(state().filesError).toBeUndefined();
    expect(calls.started).toEqual([]);
  });

  it("refuses files of the wrong type with the spec's message, and re-checks as files change", () => {
    const { actor, calls, state } = start(photoForm);
    actor.send({ type: 'files.add', files: [text] });
    expect(state().filesError).toBe('Файл повинен бути зображенням');
    actor.send({ type: 'form.submit', fields: {} });
    expect(state()).toMatchObject({ value: { form: 'selected' }, submitted: true });
    expect(calls.started).toEqual([]);
    actor.send({ type: 'file.remove', index: 0 });
    expect(state().filesError).toBe('Мінімум одне зображення');
  });

  it("marks the form tried when its other fields fail, so the files' message shows beside theirs", () => {
    const empty = start(videoForm);
    empty.actor.send({ type: 'form.invalid' });
    expect(empty.state()).toMatchObject({ submitted: true, filesError: 'Мінімум одне відео' });
    const chosen = start(videoForm);
    chosen.actor.send({ type: 'files.add', files: [video] });
    chosen.actor.send({ type: 'form.invalid' });
    expect(chosen.state()).toMatchObject({ value: { form: 'selected' }, submitted: true, filesError: undefined });
    expect(chosen.calls.started).toEqual([]);
  });
});

describe('upload machine: dragging', () => {
  it('tells an acceptable drag from a refused one, and forgets it when the drag leaves', () => {
    const { actor } = start(photoForm);
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

describe('the multipart body', () => {
  it('sends the fields before the files, under the given field name', () => {
    const form = formDataOf({ fileField: 'file', files: [video], fields: { countVideo: '3' } });
    expect([...form.keys()]).toEqual(['countVideo', 'file']);
    expect(form.get('countVideo')).toBe('3');
    expect((form.get('file') as File).name).toBe('clip.mp4');
  });
});
