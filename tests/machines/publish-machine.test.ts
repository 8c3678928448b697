import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { publishMachine, type PublishEvent, type PublishInput } from '../../src/machines/publish-machine';
import { ApiError } from '../../src/lib/api';
import type { PublicationRequestDetail, PublishPayload, SelectOption } from '../../src/lib/contract';
import { assignProfilesInOrder, hasVideosInProgress, publishPayloadOf, tagsFromText, videoErrorText } from '../../src/lib/publishing';
import { controlledActors } from './model-driver';
import {
  activeStateIds,
  declaredTransitions,
  describePath,
  replayPath,
  stateIds,
  takenTransitions,
  transitionPaths,
  valueOf,
} from './model-paths';

const idUpload = '0b7c4d3e-1111-4222-8333-444455556666';
const detail: PublicationRequestDetail = {
  id: 3,
  idUpload,
  status: 'success',
  countVideo: 1,
  createdAt: '2026-11-20T10:00:00.000Z',
  error: null,
  video: [],
  accounts: [],
  tagProfile: [],
  group: [],
};
const payload: PublishPayload = {
  id: 3,
  title: 'Новинка',
  description: '',
  tags: ['shorts'],
  accounts: [{ id: 1, title: '#1', value: 1 }],
  video: [{ id: 5, url: '/api/media/a', idUpload, createdAt: '2026-11-20T10:00:00.000Z', account: null, date: null }],
  inYouTube: true,
  inTikTok: false,
  inInstagram: false,
  date: null,
};
const failure = new ApiError(400, ['Мінімум один тег', 'Мінімум один профіль']);

const actorIds = ['loadRequest', 'publish'] as const;
type ActorId = (typeof actorIds)[number];

/** A fixture for every event and every actor outcome; a new event or actor must be added here. */
const eventFixtures: { [Type in PublishEvent['type']]: Array<Extract<PublishEvent, { type: Type }>> } = {
  'form.submit': [{ type: 'form.submit', payload }],
};
const actorOutcomes: Record<ActorId, { output: unknown; error: unknown }> = {
  loadRequest: { output: detail, error: failure },
  publish: { output: { ok: true }, error: failure },
};
const events = [
  ...Object.values(eventFixtures).flat(),
  ...actorIds.flatMap((id) => [
    { type: `xstate.done.actor.${id}`, output: actorOutcomes[id].output },
    { type: `xstate.error.actor.${id}`, error: actorOutcomes[id].error },
  ]),
];

/** Records the injected actions and toasts in the order they ran. */
function recordingActions() {
  const ran: string[] = [];
  const names = ['leave to request list', 'reset form', 'toast sending', 'toast sent', 'toast failure', 'toast load failure'] as const;
  const actions = Object.fromEntries(names.map((name) => [name, () => void ran.push(name)])) as Record<(typeof names)[number], () => void>;
  return { ran, actions };
}

const withIdUpload: PublishInput = { idUpload };
const withoutIdUpload: PublishInput = { idUpload: undefined };
const modelMachine = publishMachine.provide({ actions: recordingActions().actions });

describe('publish machine, model-based', () => {
  const pathsWith = transitionPaths(modelMachine, { events, input: withIdUpload });
  // Without an idUpload the machine ends at once, so its only path is the one to where it starts.
  const pathsWithout = getShortestPaths(modelMachine, { events, input: withoutIdUpload } as never) as typeof pathsWith;
  const allPaths = [...pathsWith, ...pathsWithout];

  it('reaches every state and takes every declared transition', () => {
    const visited = new Set(allPaths.flatMap((path) => path.steps.flatMap((step) => activeStateIds(step.state))));
    expect(stateIds(publishMachine).filter((id) => !visited.has(id))).toEqual([]);
    const taken = takenTransitions(allPaths);
    expect(declaredTransitions(publishMachine).filter((transition) => !taken.has(transition))).toEqual([]);
  });

  it('loads the request when the route names one, and gives up at once when it does not', () => {
    expect(valueOf(pathsWith[0].steps[0].state)).toBe('loading');
    expect(valueOf(pathsWithout[0].steps[0].state)).toBe('failed');
  });

  for (const [label, input, paths] of [
    ['with an idUpload', withIdUpload, pathsWith],
    ['without an idUpload', withoutIdUpload, pathsWithout],
  ] as const) {
    for (const path of paths) {
      it(`${label}: ${describePath(path)}`, async () => {
        await replayPath(modelMachine, path, { input, actorIds, actions: recordingActions().actions });
      });
    }
  }
});

describe('publish machine journeys', () => {
  function start(input: PublishInput) {
    const controls = controlledActors(actorIds);
    const { ran, actions } = recordingActions();
    const actor = createActor(publishMachine.provide({ actors: controls.actors, actions }), { input }).start();
    return { actor, controls, ran };
  }

  it('leaves for the request list without an idUpload, loading nothing', () => {
    const { actor, controls, ran } = start(withoutIdUpload);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(controls.started).toEqual([]);
    expect(ran).toEqual(['leave to request list']);
  });

  it('leaves for the request list when the request cannot be loaded, saying why', async () => {
    const { actor, controls, ran } = start(withIdUpload);
    controls.play(actor, { type: 'xstate.error.actor.loadRequest', error: failure } as never);
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(actor.getSnapshot().value).toBe('failed');
    expect(ran).toEqual(['toast load failure', 'leave to request list']);
  });

  it('toasts loading then success, resets the form and leaves once the publication is accepted', async () => {
    const { actor, controls, ran } = start(withIdUpload);
    controls.play(actor, { type: 'xstate.done.actor.loadRequest', output: detail } as never);
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    expect(actor.getSnapshot().context.detail).toEqual(detail);
    actor.send({ type: 'form.submit', payload });
    controls.play(actor, { type: 'xstate.done.actor.publish', output: {} } as never);
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(actor.getSnapshot().value).toBe('done');
    expect(ran).toEqual(['toast sending', 'toast sent', 'reset form', 'leave to request list']);
  });

  it('returns to the form with the errors after a refused publication, and a second submit sends again', async () => {
    const { actor, controls, ran } = start(withIdUpload);
    controls.play(actor, { type: 'xstate.done.actor.loadRequest', output: detail } as never);
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    actor.send({ type: 'form.submit', payload });
    controls.play(actor, { type: 'xstate.error.actor.publish', error: failure } as never);
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    expect(ran).toEqual(['toast sending', 'toast failure']);
    actor.send({ type: 'form.submit', payload });
    expect(controls.started).toEqual(['loadRequest', 'publish', 'publish']);
  });

  it('ignores a second submit while the first one runs', async () => {
    const { actor, controls } = start(withIdUpload);
    controls.play(actor, { type: 'xstate.done.actor.loadRequest', output: detail } as never);
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    actor.send({ type: 'form.submit', payload });
    actor.send({ type: 'form.submit', payload });
    expect(controls.started).toEqual(['loadRequest', 'publish']);
  });

  it('sends the payload to POST /upload-video/{idUpload} through its publish actor', async () => {
    const calls: unknown[] = [];
    const machine = publishMachine.provide({
      actors: {
        loadRequest: fromPromise(async () => detail),
        publish: fromPromise(async ({ input }) => {
          calls.push(input);
        }),
      },
      actions: recordingActions().actions,
    });
    const actor = createActor(machine, { input: withIdUpload }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    actor.send({ type: 'form.submit', payload });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(calls).toEqual([{ idUpload, payload }]);
  });
});

const profile = (id: number): SelectOption => ({ id, title: `#${id}`, value: id });

describe('the i-th assignment rule', () => {
  const videos = [{ id: 11 }, { id: 12 }, { id: 13 }].map((video) => ({ ...video, account: null as SelectOption | null }));

  it('gives the video at position i the i-th chosen profile', () => {
    expect(assignProfilesInOrder(videos, [profile(1), profile(2), profile(3)])).toEqual([
      { id: 11, account: profile(1) },
      { id: 12, account: profile(2) },
      { id: 13, account: profile(3) },
    ]);
  });

  it("leaves videos beyond the chosen count on 'Будь-який' (null)", () => {
    expect(assignProfilesInOrder(videos, [profile(4)])).toEqual([
      { id: 11, account: profile(4) },
      { id: 12, account: null },
      { id: 13, account: null },
    ]);
  });

  it('ignores profiles beyond the number of videos, and clears every assignment when none is chosen', () => {
    expect(assignProfilesInOrder(videos.slice(0, 1), [profile(1), profile(2)])).toEqual([{ id: 11, account: profile(1) }]);
    expect(assignProfilesInOrder(assignProfilesInOrder(videos, [profile(1)]), [])).toEqual(videos);
  });
});

describe('publishing helpers', () => {
  it("shows the YouTube error, else the Instagram error, else 'N/A'", () => {
    expect(videoErrorText({ error: 'quota', errorInstagram: 'private' })).toBe('quota');
    expect(videoErrorText({ error: null, errorInstagram: 'private' })).toBe('private');
    expect(videoErrorText({ error: '', errorInstagram: null })).toBe('N/A');
    expect(videoErrorText({ error: null, errorInstagram: null })).toBe('N/A');
    expect(videoErrorText({ error: null, errorInstagram: null, errorTiktok: 'spam risk' })).toBe('spam risk');
  });

  it('turns empty dates into null and keeps only the fields the contract names', () => {
    const form = {
      title: 'Новинка',
      description: '',
      tags: ['shorts'],
      accounts: [profile(1)],
      video: [{ id: 5, url: '/api/media/a', idUpload, createdAt: '2026-11-20T10:00:00.000Z', account: profile(1), date: '2026-12-01T09:30' }],
      inYouTube: true,
      inTikTok: true,
      inInstagram: false,
      date: '',
    };
    expect(publishPayloadOf(3, form)).toEqual({ ...payload, accounts: [profile(1)], video: [{ ...form.video[0] }], inTikTok: true });
  });

  it('keeps refreshing while a video is rendering or being published', () => {
    expect(hasVideosInProgress([{ status: 'success' }, { status: 'publication' }])).toBe(true);
    expect(hasVideosInProgress([{ status: 'loading' }])).toBe(true);
    expect(hasVideosInProgress([{ status: 'success' }, { status: 'error' }, { status: 'noactive' }])).toBe(false);
  });

  it('reads the comma-separated tags of a published set', () => {
    expect(tagsFromText('shorts, news ,,music')).toEqual(['shorts', 'news', 'music']);
    expect(tagsFromText('')).toEqual([]);
  });
});
