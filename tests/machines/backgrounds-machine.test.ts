import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../../src/lib/api';
import { backgroundsMachine } from '../../src/machines/backgrounds-machine';
import { apiDouble } from './api-double';
import { deferredActors } from './deferred-actors';

const images = [
  { id: 9, url: '/api/media/photos/1/c.png' },
  { id: 5, url: '/api/media/photos/1/b.png' },
  { id: 2, url: '/api/media/photos/1/a.png' },
];

function start() {
  const calls = deferredActors(['load'] as const);
  const actor = createActor(backgroundsMachine.provide({ actors: calls.actors })).start();
  return { actor, calls };
}

describe('backgrounds machine', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("GETs /api/create-video/backgrounds, the operator's own images", async () => {
    const asked = apiDouble(() => ({ body: { data: images } }));
    const actor = createActor(backgroundsMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches('choosing'));
    expect(asked).toEqual(['GET /api/create-video/backgrounds']);
    expect(actor.getSnapshot().context.images).toEqual(images);
  });

  it('loads the images and chooses every one', async () => {
    const { actor, calls } = start();
    expect(actor.getSnapshot().value).toBe('loading');
    await calls.resolve('load', { data: images });
    expect(actor.getSnapshot().value).toBe('choosing');
    expect(actor.getSnapshot().context).toMatchObject({ images, chosen: [9, 5, 2], submitted: false });
  });

  it('toggles one image, keeping the chosen in the order they are shown; chooses all and none', async () => {
    const { actor, calls } = start();
    await calls.resolve('load', { data: images });
    actor.send({ type: 'toggle', id: 9 });
    expect(actor.getSnapshot().context.chosen).toEqual([5, 2]);
    actor.send({ type: 'toggle', id: 9 });
    expect(actor.getSnapshot().context.chosen).toEqual([9, 5, 2]);
    actor.send({ type: 'choose.none' });
    expect(actor.getSnapshot().context.chosen).toEqual([]);
    actor.send({ type: 'toggle', id: 2 });
    actor.send({ type: 'toggle', id: 5 });
    expect(actor.getSnapshot().context.chosen).toEqual([5, 2]);
    actor.send({ type: 'choose.all' });
    expect(actor.getSnapshot().context.chosen).toEqual([9, 5, 2]);
  });

  it('has nothing to choose for an operator without images', async () => {
    const { actor, calls } = start();
    await calls.resolve('load', { data: [] });
    expect(actor.getSnapshot().value).toBe('none');
    actor.send({ type: 'choose.all' });
    expect(actor.getSnapshot().context.chosen).toEqual([]);
  });

  it('keeps the error of a failed load and loads again on reload', async () => {
    const { actor, calls } = start();
    const failure = new ApiError(500, ['Сталася помилка']);
    await calls.reject('load', failure);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe(failure);
    actor.send({ type: 'reload' });
    expect(actor.getSnapshot().value).toBe('loading');
    await calls.resolve('load', { data: images });
    expect(actor.getSnapshot().context).toMatchObject({ chosen: [9, 5, 2], error: undefined });
  });

  it('remembers that a submit was tried, whatever the state', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'submit.tried' });
    expect(actor.getSnapshot().context.submitted).toBe(true);
    await calls.resolve('load', { data: images });
    expect(actor.getSnapshot().context.submitted).toBe(true);
  });
});
