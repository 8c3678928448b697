import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../../src/lib/api';
import * as t from '../../src/lib/i18n';
import { sourcesMachine, type SourcesEmitted } from '../../src/machines/sources-machine';
import { uploadLine, xhrDouble } from '../fixtures/xhr-double';
import { deferredActors, settle } from './deferred-actors';

const clip = (name: string) => new File(['v'], name, { type: 'video/mp4' });
const clips = (count: number) => Array.from({ length: count }, (_, index) => clip(`clip-${index + 1}.mp4`));
/** The server's refusal of a text file named like a video (server/messages.ts). */
const notVideo = new ApiError(400, ['Файл повинен бути відео']);

interface SentInput {
  files: File[];
  fields: Record<string, string>;
  onProgress: (fraction: number) => void;
}

function start() {
  const calls = deferredActors(['sendSource'] as const);
  const actor = createActor(sourcesMachine.provide({ actors: calls.actors }));
  const emitted: SourcesEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  const sentNames = () => calls.started.map((call) => (call.input as SentInput).files.map((file) => file.name).join());
  const states = () => Object.fromEntries(actor.getSnapshot().context.sources.map((source) => [source.file.name, source.state]));
  return { actor, calls, emitted, sentNames, states };
}

describe('sources machine: several videos in one drop', () => {
  it('sends each file as its own request with the same fields, two at a time, in the order picked', async () => {
    const { actor, calls, emitted, sentNames, states } = start();
    actor.send({ type: 'files.add', files: clips(3) });
    actor.send({ type: 'files.add', files: clips(5).slice(3) });
    actor.send({ type: 'form.submit', fields: { countVideo: '2', photoIds: '[4]' } });
    expect(sentNames()).toEqual(['clip-1.mp4', 'clip-2.mp4']);
    expect(calls.started.map((call) => (call.input as SentInput).fields)).toEqual([
      { countVideo: '2', photoIds: '[4]' },
      { countVideo: '2', photoIds: '[4]' },
    ]);
    expect(states()).toEqual({
      'clip-1.mp4': 'sending',
      'clip-2.mp4': 'sending',
      'clip-3.mp4': 'waiting',
      'clip-4.mp4': 'waiting',
      'clip-5.mp4': 'waiting',
    });

    // Each file's bar moves with its own upload only.
    (calls.started[1]!.input as SentInput).onProgress(0.5);
    expect(actor.getSnapshot().context.sources.map((source) => source.progress)).toEqual([0, 0.5, 0, 0, 0]);
    await calls.resolve('sendSource', { id: 1 });
    await settle();
    expect(sentNames()).toEqual(['clip-1.mp4', 'clip-2.mp4', 'clip-3.mp4']);
    for (let index = 0; index < 4; index += 1) {
      await calls.resolve('sendSource', { id: index + 2 });
      await settle();
    }
    expect(sentNames()).toHaveLength(5);
    expect(emitted).toEqual([{ type: 'sources.sent', count: 5 }]);
    expect(actor.getSnapshot().value).toBe('picking');
    expect(actor.getSnapshot().context.sources).toEqual([]);
  });

  it('names a refused file with the server’s reason and sends the others; a failed one is sent again on retry', async () => {
    const { actor, calls, emitted, sentNames, states } = start();
    actor.send({ type: 'files.add', files: clips(4) });
    actor.send({ type: 'form.submit', fields: { countVideo: '1' } });
    await calls.reject('sendSource', notVideo);
    await settle();
    await calls.reject('sendSource', new ApiError(0, [t.upload.connectionLost]));
    await settle();
    expect(sentNames()).toEqual(['clip-1.mp4', 'clip-2.mp4', 'clip-3.mp4', 'clip-4.mp4']);
    await calls.resolve('sendSource', {});
    await calls.resolve('sendSource', {});
    await settle();
    expect(actor.getSnapshot().value).toBe('settled');
    expect(states()).toEqual({ 'clip-1.mp4': 'refused', 'clip-2.mp4': 'failed', 'clip-3.mp4': 'sent', 'clip-4.mp4': 'sent' });
    expect(actor.getSnapshot().context.sources.map((source) => source.reason)).toEqual([
      'Файл повинен бути відео',
      t.upload.connectionLost,
      null,
      null,
    ]);

    // A refusal is about the file itself: it is not sent again.
    actor.send({ type: 'file.retry', key: 0 });
    expect(sentNames()).toHaveLength(4);
    actor.send({ type: 'file.retry', key: 1 });
    expect(sentNames().at(-1)).toBe('clip-2.mp4');
    await calls.resolve('sendSource', {});
    await settle();
    expect(states()['clip-2.mp4']).toBe('sent');
    expect(actor.getSnapshot().value).toBe('settled');
    expect(emitted).toEqual([]);
  });

  it('retries a failed file while others are still on their way, keeping two at a time', async () => {
    const { actor, calls, sentNames, states } = start();
    actor.send({ type: 'files.add', files: clips(3) });
    actor.send({ type: 'form.submit', fields: { countVideo: '1' } });
    await calls.reject('sendSource', new ApiError(503, ['Сервер тимчасово недоступний']));
    await settle();
    actor.send({ type: 'file.retry', key: 0 });
    expect(states()).toEqual({ 'clip-1.mp4': 'waiting', 'clip-2.mp4': 'sending', 'clip-3.mp4': 'sending' });
    await calls.resolve('sendSource', {});
    await settle();
    expect(sentNames()).toEqual(['clip-1.mp4', 'clip-2.mp4', 'clip-3.mp4', 'clip-1.mp4']);
  });

  it('takes 20 files at most and names the ones over it', () => {
    const { actor } = start();
    actor.send({ type: 'files.add', files: clips(19) });
    actor.send({ type: 'files.add', files: [clip('twentieth.mp4'), clip('21st.mp4'), clip('22nd.mp4')] });
    expect(actor.getSnapshot().context.sources).toHaveLength(20);
    expect(actor.getSnapshot().context.refusedOnDrop.map(({ name, reason }) => [name, reason])).toEqual([
      ['21st.mp4', 'too-many'],
      ['22nd.mp4', 'too-many'],
    ]);
    actor.send({ type: 'file.remove', key: 0 });
    const [first] = actor.getSnapshot().context.refusedOnDrop;
    actor.send({ type: 'refusal.dismiss', key: first!.key });
    expect(actor.getSnapshot().context.refusedOnDrop.map(({ name }) => name)).toEqual(['22nd.mp4']);
    expect(actor.getSnapshot().context.sources.map((source) => source.file.name)).toEqual([
      ...clips(19)
        .slice(1)
        .map((file) => file.name),
      'twentieth.mp4',
    ]);
    // The room a removed file leaves takes the next pick, each new file with a key of its own.
    actor.send({ type: 'files.add', files: [clip('21st.mp4')] });
    const keys = actor.getSnapshot().context.sources.map((source) => source.key);
    expect(new Set(keys).size).toBe(20);
    expect(actor.getSnapshot().context.sources.at(-1)!.file.name).toBe('21st.mp4');
  });

  it('gives each file a key of its own over several picks, so removing one removes it alone', () => {
    const { actor } = start();
    actor.send({ type: 'files.add', files: [clip('first.mp4')] });
    actor.send({ type: 'files.add', files: [clip('second.mp4'), clip('third.mp4')] });
    const first = actor.getSnapshot().context.sources[0]!;
    actor.send({ type: 'file.remove', key: first.key });
    expect(actor.getSnapshot().context.sources.map((source) => source.file.name)).toEqual(['second.mp4', 'third.mp4']);
  });

  it("takes a server's 5xx as a failure to send again, with the server's words, not as a refusal of the file", async () => {
    const { actor, calls, states } = start();
    actor.send({ type: 'files.add', files: clips(1) });
    actor.send({ type: 'form.submit', fields: { countVideo: '1' } });
    await calls.reject('sendSource', new ApiError(500, ['Внутрішня помилка сервера', 'Спробуйте ще раз']));
    await settle();
    expect(states()).toEqual({ 'clip-1.mp4': 'failed' });
    expect(actor.getSnapshot().context.sources[0]!.reason).toBe('Внутрішня помилка сервера Спробуйте ще раз');
  });

  it('sends nothing without a file, and after a settled drop a new pick keeps the failed files and lets the finished go', async () => {
    const { actor, calls, states } = start();
    actor.send({ type: 'form.submit', fields: { countVideo: '1' } });
    expect(actor.getSnapshot().context.submitted).toBe(true);
    expect(calls.started).toEqual([]);

    actor.send({ type: 'files.add', files: clips(3) });
    actor.send({ type: 'form.submit', fields: { countVideo: '1' } });
    await calls.reject('sendSource', new ApiError(0, [t.upload.connectionLost]));
    await calls.reject('sendSource', notVideo);
    await settle();
    await calls.resolve('sendSource', {});
    await settle();
    actor.send({ type: 'files.add', files: [clip('new.mp4')] });
    expect(actor.getSnapshot().value).toBe('picking');
    expect(states()).toEqual({ 'clip-1.mp4': 'chosen', 'new.mp4': 'chosen' });
    // A new drop, not yet tried: emptied again, it does not say 'at least one' before its submit.
    expect(actor.getSnapshot().context.submitted).toBe(false);
  });

  it('counts how many of the dragged files it would take, within the room left, and forgets it when the drag leaves', () => {
    const { actor } = start();
    const drag = () => actor.getSnapshot().context.drag;
    expect(drag()).toBeNull();
    actor.send({ type: 'drag.enter', types: ['video/mp4', 'video/quicktime', 'text/plain', 'video/webm', 'video/mp4', 'video/mp4'] });
    expect(drag()).toEqual({ dragged: 6, taken: 5 });
    actor.send({ type: 'drag.enter', types: ['text/plain', 'image/png', ''] });
    expect(drag()).toEqual({ dragged: 3, taken: 0 });
    actor.send({ type: 'drag.leave' });
    expect(drag()).toBeNull();

    actor.send({ type: 'files.add', files: clips(18) });
    actor.send({ type: 'drag.enter', types: ['video/mp4', 'video/mp4', 'video/mp4'] });
    expect(drag()).toEqual({ dragged: 3, taken: 2 });
  });

  it('gives back the room of a settled drop’s sent and refused files, keeping the failed ones’, for the next drag', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'files.add', files: clips(3) });
    actor.send({ type: 'form.submit', fields: { countVideo: '1' } });
    await calls.resolve('sendSource', {});
    await calls.reject('sendSource', notVideo);
    await settle();
    await calls.reject('sendSource', new ApiError(0, [t.upload.connectionLost]));
    await settle();
    actor.send({ type: 'drag.enter', types: Array(20).fill('video/mp4') });
    expect(actor.getSnapshot().context.drag).toEqual({ dragged: 20, taken: 19 });
  });

  it('moves the progress of the file it is about alone', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'files.add', files: clips(2) });
    actor.send({ type: 'form.submit', fields: { countVideo: '1' } });
    await settle();
    (calls.started[0]!.input as SentInput).onProgress(0.5);
    await settle();
    expect(actor.getSnapshot().context.sources.map((source) => source.progress)).toEqual([0.5, 0]);
  });

  it('keeps the videos of a mixed drop and names each other file with why, in the order dropped', () => {
    const { actor, calls, sentNames } = start();
    const notes = new File(['нотатки'], 'нотатки.txt', { type: 'text/plain' });
    const untyped = new File(['?'], 'без-типу', { type: '' });
    actor.send({ type: 'files.add', files: [clip('a.mp4'), notes, clip('b.mov'), untyped, clip('c.webm')] });
    const { sources, refusedOnDrop } = actor.getSnapshot().context;
    expect(sources.map((source) => source.file.name)).toEqual(['a.mp4', 'b.mov', 'c.webm']);
    expect(refusedOnDrop.map(({ name, reason }) => [name, reason])).toEqual([
      ['нотатки.txt', 'not-video'],
      ['без-типу', 'not-video'],
    ]);
    expect(new Set([...sources, ...refusedOnDrop].map((file) => file.key)).size).toBe(5);

    // The refused files are never sent; the next pick replaces them with its own.
    actor.send({ type: 'form.submit', fields: { countVideo: '1' } });
    expect(sentNames()).toEqual(['a.mp4', 'b.mov']);
    expect(calls.started).toHaveLength(2);
    expect(actor.getSnapshot().context.refusedOnDrop).toHaveLength(2);
  });

  it('replaces the last pick’s refusals with the next pick’s, and forgets them once every file is sent', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'files.add', files: [clip('a.mp4'), new File(['x'], 'x.txt', { type: 'text/plain' })] });
    actor.send({ type: 'files.add', files: [clip('b.mp4')] });
    expect(actor.getSnapshot().context.refusedOnDrop).toEqual([]);
    actor.send({ type: 'files.add', files: [new File(['y'], 'y.txt', { type: 'text/plain' })] });
    actor.send({ type: 'form.submit', fields: { countVideo: '1' } });
    await calls.resolve('sendSource', {});
    await calls.resolve('sendSource', {});
    await settle();
    expect(actor.getSnapshot().value).toBe('picking');
    expect(actor.getSnapshot().context.refusedOnDrop).toEqual([]);
  });
});

describe('sources machine: the API', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends each file as `file`, after the fields, to POST /api/create-video/create', async () => {
    const sent = xhrDouble([
      { status: 201, body: {} },
      { status: 201, body: {} },
    ]);
    const actor = createActor(sourcesMachine).start();
    actor.send({ type: 'files.add', files: clips(2) });
    actor.send({ type: 'form.submit', fields: { countVideo: '3' } });
    await waitFor(actor, (snapshot) => snapshot.matches('picking'));
    expect(sent.map(uploadLine)).toEqual([
      'POST /api/create-video/create countVideo=3&file=clip-1.mp4',
      'POST /api/create-video/create countVideo=3&file=clip-2.mp4',
    ]);
  });
});
