import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import toast from 'react-hot-toast';
import { publishMachine, type PublishInput } from '../../src/machines/publish-machine';
import { ApiError } from '../../src/lib/api';
import type { PublicationRequestDetail, SelectOption, SpreadProposal } from '../../src/lib/contract';
import {
  assignmentErrors,
  assignProfilesInOrder,
  hasVideosInProgress,
  publishPayloadOf,
  publishVideosOf,
  tagsFromText,
  videoErrorText,
  withProfiles,
} from '../../src/lib/publishing';
import { draftKeyOf, draftOf, publishDrafts } from '../../src/machines/publish-draft-store';
import { apiDouble } from './api-double';
import { deferredActors, settle } from './deferred-actors';
import { t } from '../../server/messages';

const idUpload = '0b7c4d3e-1111-4222-8333-444455556666';
const option = (id: number): SelectOption => ({ id, title: `#${id}`, value: id });
const requestVideo = (id: number, url: string | null = `/api/media/${id}.mp4`) =>
  ({
    id,
    url,
    posterUrl: null,
    idUpload,
    createdAt: '2026-11-20T10:00:00.000Z',
    status: 'success',
  }) as PublicationRequestDetail['video'][number];
const detail: PublicationRequestDetail = {
  id: 3,
  idUpload,
  status: 'success',
  countVideo: 3,
  createdAt: '2026-11-20T10:00:00.000Z',
  error: null,
  video: [requestVideo(11), requestVideo(12), requestVideo(13), requestVideo(14, null)],
  accounts: [1, 2, 3].map((id) => ({ ...option(id), platforms: ['youtube' as const] })),
  tagProfile: [],
  group: [{ id: 9, name: 'Ранкові', accounts: [option(2), option(3)] }],
};
const fields = { title: 'Новинка', description: '', tags: ['shorts'], inYouTube: true, inTikTok: false, inInstagram: false, date: '' };
const failure = new ApiError(400, ['Мінімум один тег', 'Мінімум один профіль']);

let shown: string[];
let left: number;

beforeEach(() => {
  shown = [];
  left = 0;
  for (const kind of ['success', 'error', 'loading', 'dismiss'] as const) {
    vi.spyOn(toast, kind).mockImplementation(((message: unknown, options?: { id?: string }) => {
      shown.push(`${kind} ${String(message)}${options?.id ? ` #${options.id}` : ''}`);
      return '';
    }) as never);
  }
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

async function start(input: PublishInput = { idUpload }) {
  const calls = deferredActors(['loadRequest', 'publish', 'deleteRequest', 'spread'] as const);
  const machine = publishMachine.provide({ actors: calls.actors, actions: { 'leave to request list': () => (left += 1) } });
  const actor = createActor(machine, { input }).start();
  if (input.idUpload) await calls.resolve('loadRequest', detail);
  const assigned = () => actor.getSnapshot().context.videos.map((video) => [video.id, video.account?.id ?? null, video.date]);
  return { actor, calls, assigned };
}

describe('publish machine: loading', () => {
  it('leaves for the request list at once without an idUpload, loading nothing', async () => {
    const { actor, calls } = await start({ idUpload: undefined });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(calls.started).toEqual([]);
    expect(left).toBe(1);
  });

  it('leaves for the request list, saying why, when the request cannot be loaded', async () => {
    const calls = deferredActors(['loadRequest', 'publish'] as const);
    const actor = createActor(publishMachine.provide({ actors: calls.actors, actions: { 'leave to request list': () => (left += 1) } }), {
      input: { idUpload },
    }).start();
    expect(calls.started).toEqual([{ name: 'loadRequest', input: { idUpload } }]);
    await calls.reject('loadRequest', failure);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(left).toBe(1);
    expect(shown).toEqual(['error Мінімум один тег', 'error Мінімум один профіль']);
  });

  it('opens with every rendered video, none assigned, nothing chosen and nothing to complain about', async () => {
    const { actor, assigned } = await start();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(assigned()).toEqual([
      [11, null, ''],
      [12, null, ''],
      [13, null, ''],
    ]);
    expect(actor.getSnapshot().context).toMatchObject({ accounts: [], errors: {}, submitted: false });
  });
});

describe('publish machine: assignment', () => {
  it('gives video i the i-th chosen profile, again on every change of the choice', async () => {
    const { actor, assigned } = await start();
    actor.send({ type: 'profiles.choose', profiles: [option(2)] });
    expect(assigned().map(([, account]) => account)).toEqual([2, null, null]);
    actor.send({ type: 'profiles.choose', profiles: [option(2), option(1), option(3)] });
    expect(assigned().map(([, account]) => account)).toEqual([2, 1, 3]);
    actor.send({ type: 'profiles.choose', profiles: [option(3)] });
    expect(assigned().map(([, account]) => account)).toEqual([3, null, null]);
    expect(actor.getSnapshot().context.accounts).toEqual([option(3)]);
  });

  it("adds a group's profiles not chosen yet, after those chosen, and applies the rule", async () => {
    const { actor, assigned } = await start();
    actor.send({ type: 'profiles.choose', profiles: [option(3)] });
    actor.send({ type: 'group.pick', group: detail.group[0] });
    expect(actor.getSnapshot().context.accounts).toEqual([option(3), option(2)]);
    expect(assigned().map(([, account]) => account)).toEqual([3, 2, null]);
  });

  it("sets one video's profile among those chosen (or back to 'Будь-який') and its date", async () => {
    const { actor, assigned } = await start();
    actor.send({ type: 'profiles.choose', profiles: [option(1), option(2)] });
    actor.send({ type: 'video.profile', videoId: 13, profileId: 2 });
    actor.send({ type: 'video.profile', videoId: 11, profileId: null });
    actor.send({ type: 'video.profile', videoId: 12, profileId: 3 });
    actor.send({ type: 'video.date', videoId: 12, date: '2026-12-01T12:30' });
    expect(assigned()).toEqual([
      [11, null, ''],
      [12, null, '2026-12-01T12:30'],
      [13, 2, ''],
    ]);
    // Back on 'Будь-який', the video follows the rule again instead of saying it was picked by hand.
    expect(actor.getSnapshot().context.videos[0]).toMatchObject({ account: null, byHand: false });
  });

  it('keeps a profile picked by hand while the choice changes; once that profile is removed, the video follows the rule and says which it lost', async () => {
    const { actor, assigned } = await start();
    actor.send({ type: 'profiles.choose', profiles: [option(1), option(2), option(3)] });
    actor.send({ type: 'video.profile', videoId: 13, profileId: 1 });
    actor.send({ type: 'profiles.choose', profiles: [option(1), option(3)] });
    expect(assigned().map(([, account]) => account)).toEqual([1, 3, 1]);
    actor.send({ type: 'profiles.choose', profiles: [option(3)] });
    expect(assigned().map(([, account]) => account)).toEqual([3, null, null]);
    expect(actor.getSnapshot().context.videos.map((video) => video.lostProfile?.id ?? null)).toEqual([null, null, 1]);
    // Picking again clears what it lost.
    actor.send({ type: 'video.profile', videoId: 13, profileId: 3 });
    expect(actor.getSnapshot().context.videos[2]).toMatchObject({ account: option(3), byHand: true, lostProfile: null });
  });

  it('refuses to send when a video would get no post on the ticked platforms, or none is ticked, naming what is missing', async () => {
    const { actor, calls } = await start();
    actor.send({ type: 'profiles.choose', profiles: [option(1)] });
    actor.send({ type: 'form.submit', fields: { ...fields, inYouTube: false, inTikTok: true } });
    expect(actor.getSnapshot().context.errors).toEqual({ video: t.postTruth.noPlatformFor('Відео 1', '#1', 'TikTok') });
    actor.send({ type: 'form.submit', fields: { ...fields, inYouTube: false } });
    expect(actor.getSnapshot().context.errors).toEqual({ platforms: t.postTruth.noPlatformTicked });
    expect(calls.started.map((call) => call.name)).toEqual(['loadRequest']);
    actor.send({ type: 'form.submit', fields });
    expect(actor.getSnapshot().value).toBe('submitting');
  });

  it('refuses to send texts a ticked platform refuses, in the words the server would answer with', async () => {
    const { actor, calls } = await start();
    actor.send({ type: 'profiles.choose', profiles: [option(1)] });
    actor.send({ type: 'form.submit', fields: { ...fields, title: 'Новинка <2026>' } });
    expect(actor.getSnapshot().context.errors).toEqual({ texts: t.postingRules.angleBrackets.title });
    const hashtagged = { ...fields, description: Array.from({ length: 12 }, (_, index) => `#опис${index}`).join(' ') };
    const tags = Array.from({ length: 30 }, (_, index) => `tag${index}`);
    // Only the ticked platforms count: YouTube takes 42 hashtags, Instagram does not.
    actor.send({ type: 'form.submit', fields: { ...hashtagged, tags, inYouTube: false, inInstagram: true } });
    expect(actor.getSnapshot().context.errors).toMatchObject({ texts: t.postingRules.tooManyHashtags(42, 30) });
    // With both ticked, Instagram's refusal stands though YouTube, checked first, takes them.
    actor.send({ type: 'form.submit', fields: { ...hashtagged, tags, inInstagram: true } });
    expect(actor.getSnapshot().context.errors).toMatchObject({ texts: t.postingRules.tooManyHashtags(42, 30) });
    expect(calls.started.map((call) => call.name)).toEqual(['loadRequest']);
    actor.send({ type: 'form.submit', fields: { ...hashtagged, tags } });
    expect(actor.getSnapshot().value).toBe('submitting');
  });

  it('checks the texts as the server reads them, without the spaces around them', async () => {
    const { actor, calls } = await start();
    actor.send({ type: 'profiles.choose', profiles: [option(1)] });
    const longest = 'а'.repeat(100);
    actor.send({ type: 'form.submit', fields: { ...fields, title: `${longest}а` } });
    expect(actor.getSnapshot().context.errors).toEqual({ texts: t.postingRules.titleTooLong(101, 100) });
    actor.send({ type: 'form.submit', fields: { ...fields, description: 'd'.repeat(5001) } });
    expect(actor.getSnapshot().context.errors).toEqual({ texts: t.postingRules.descriptionTooLong(5001, 5000) });
    expect(calls.started.map((call) => call.name)).toEqual(['loadRequest']);
    actor.send({ type: 'form.submit', fields: { ...fields, title: ` ${longest} `, description: `\n${'d'.repeat(5000)} ` } });
    expect(actor.getSnapshot().value).toBe('submitting');
  });

  it('removes a video and keeps the others as they were', async () => {
    const { actor, assigned } = await start();
    actor.send({ type: 'profiles.choose', profiles: [option(1), option(2), option(3)] });
    actor.send({ type: 'video.remove', videoId: 11 });
    expect(assigned()).toEqual([
      [12, 2, ''],
      [13, 3, ''],
    ]);
  });
});

describe('publish machine: validation and submission', () => {
  it("says 'Мінімум один профіль' and 'Мінімум одне відео' once a submit was tried, and re-checks as things change", async () => {
    const { actor, calls } = await start();
    for (const videoId of [11, 12, 13]) actor.send({ type: 'video.remove', videoId });
    expect(actor.getSnapshot().context.submitted).toBe(false);
    actor.send({ type: 'form.submit', fields });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({
      submitted: true,
      errors: { accounts: 'Мінімум один профіль', video: 'Мінімум одне відео' },
    });
    actor.send({ type: 'group.pick', group: detail.group[0] });
    expect(actor.getSnapshot().context.errors).toEqual({ video: 'Мінімум одне відео' });
    expect(calls.started.map((call) => call.name)).toEqual(['loadRequest']);
  });

  it("marks the form tried when its own fields fail, so the assignment's messages show too", async () => {
    const { actor } = await start();
    actor.send({ type: 'form.invalid' });
    expect(actor.getSnapshot().context).toMatchObject({ submitted: true, errors: { accounts: 'Мінімум один профіль' } });
  });

  it('sends the whole form with the assignment, toasts loading then success under one id, and leaves', async () => {
    const { actor, calls } = await start();
    actor.send({ type: 'group.pick', group: detail.group[0] });
    actor.send({ type: 'form.submit', fields: { ...fields, date: '2026-12-01T09:00' } });
    actor.send({ type: 'form.submit', fields });
    expect(actor.getSnapshot().value).toBe('submitting');
    const sent = calls.started.filter((call) => call.name === 'publish');
    expect(sent).toEqual([
      {
        name: 'publish',
        input: {
          idUpload,
          payload: {
            ...publishPayloadOf(detail.id, {
              ...fields,
              date: '2026-12-01T09:00',
              accounts: [option(2), option(3)],
              video: actor.getSnapshot().context.videos,
            }),
            // The form asks the server to name possible duplicates before saving (issue 43.5).
            checkDuplicates: true,
          },
        },
      },
    ]);
    await calls.resolve('publish', { ok: true });
    expect(actor.getSnapshot().value).toBe('done');
    expect(shown).toEqual([
      `loading Відео надіслано на публікацію #publish-${idUpload}`,
      `success Відео надіслано на публікацію #publish-${idUpload}`,
    ]);
    expect(left).toBe(1);
  });

  it("goes back to the form when refused: the loading toast goes and each of the server's messages shows", async () => {
    const { actor, calls } = await start();
    actor.send({ type: 'group.pick', group: detail.group[0] });
    actor.send({ type: 'form.submit', fields });
    await calls.reject('publish', failure);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(shown.slice(1)).toEqual([`dismiss publish-${idUpload}`, 'error Мінімум один тег', 'error Мінімум один профіль']);
    expect(left).toBe(0);
  });

  it('shows the possible duplicates the server names instead of a toast, and asks the server to check them until the operator consents', async () => {
    const line = 'Відео 1: профіль #2 публікує відео 2 о 02.12 11:00 — ближче, ніж його проміжок 120 хв';
    const { actor, calls } = await start();
    actor.send({ type: 'group.pick', group: detail.group[0] });
    actor.send({ type: 'form.submit', fields });
    expect(calls.started.at(-1)).toMatchObject({ name: 'publish', input: { payload: { checkDuplicates: true } } });
    await calls.reject('publish', new ApiError(409, [t.spread.duplicatesFound, line]));
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({ duplicates: [line], allowDuplicates: false });
    expect(shown.slice(1)).toEqual([`dismiss publish-${idUpload}`]);

    actor.send({ type: 'form.submit', fields });
    expect(calls.started.at(-1)).toMatchObject({ input: { payload: { checkDuplicates: true } } });
    await calls.reject('publish', new ApiError(409, [t.spread.duplicatesFound, line]));
    actor.send({ type: 'duplicates.allow', allow: true });
    actor.send({ type: 'form.submit', fields });
    expect(calls.started.at(-1)!.input).toMatchObject({ payload: { video: expect.any(Array) } });
    expect(calls.started.at(-1)!.input).not.toHaveProperty('payload.checkDuplicates');
    await calls.resolve('publish', { ok: true });
    expect(actor.getSnapshot().value).toBe('done');

    // A date changed after the warning asks the server again, without consent.
    const other = await start();
    other.actor.send({ type: 'group.pick', group: detail.group[0] });
    other.actor.send({ type: 'form.submit', fields });
    await other.calls.reject('publish', new ApiError(409, [t.spread.duplicatesFound, line]));
    other.actor.send({ type: 'duplicates.allow', allow: true });
    other.actor.send({ type: 'video.date', videoId: 11, date: '2026-12-02T15:00' });
    expect(other.actor.getSnapshot().context).toMatchObject({ duplicates: [], allowDuplicates: false });
  });

  it('reaches the API at GET /create-video/request/{idUpload} and POST /upload-video/{idUpload}', async () => {
    const seen: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        seen.push(`${init.method} ${url}`);
        return new Response(JSON.stringify(detail), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    const actor = createActor(publishMachine, { input: { idUpload: 'a b' } }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    actor.send({ type: 'group.pick', group: detail.group[0] });
    actor.send({ type: 'form.submit', fields });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    await settle();
    expect(seen).toEqual(['GET /api/create-video/request/a%20b', 'POST /api/upload-video/a%20b']);
  });
});

describe("publish machine: 'Розподілити'", () => {
  const days = { from: '2026-12-01', to: '2026-12-07' };
  const platforms = { inYouTube: true, inTikTok: true, inInstagram: false };
  // Why each video got its date, or none, in the server's words.
  const firstFree = t.spread.firstFree(4, 30);
  const bestHour = t.spread.bestHour('18:00', 900, 400, 35);
  const noRoom = t.spread.noSlot('#2', '07.12', t.spread.obstacles.rollingCap('TikTok', 15, 24));
  /** Video 11 on #1 at 09:00, video 13 (on 'Будь-який') on #1 by the server's i-th rule at 18:00 next day; video 12 did not fit. */
  const proposal: SpreadProposal = {
    data: [
      {
        videoId: 11,
        accountId: 1,
        date: '2026-12-01T09:00:00+02:00',
        reason: firstFree,
        posts: [{ platform: 'youtube', words: { title: 'Ранок 1', description: null, tags: null } }],
      },
      { videoId: 13, accountId: 1, date: '2026-12-02T18:00:00+02:00', reason: bestHour },
    ],
    unplaced: [{ videoId: 12, reason: noRoom }],
    days: [
      { day: '2026-12-01', accountId: 1, posts: 1 },
      { day: '2026-12-02', accountId: 1, posts: 1 },
    ],
  };
  const draftKey = draftKeyOf(1, idUpload)!;
  afterEach(() => publishDrafts.trigger.forgetAll());

  /** #1 and #2 chosen; video 13 had #3 picked by hand until #3 was no longer chosen. */
  async function proposing() {
    const started = await start({ idUpload, draftKey });
    const { actor } = started;
    actor.send({ type: 'profiles.choose', profiles: [option(1), option(2), option(3)] });
    actor.send({ type: 'video.profile', videoId: 13, profileId: 3 });
    actor.send({ type: 'profiles.choose', profiles: [option(1), option(2)] });
    actor.send({ type: 'spread.propose', range: days, platforms });
    return started;
  }

  it('asks for the days, the ticked platforms, the chosen profiles and each video with its profile, and waits for the answer', async () => {
    const { actor, calls } = await proposing();
    expect(actor.getSnapshot().value).toBe('spreading');
    expect(calls.started.at(-1)).toEqual({
      name: 'spread',
      input: {
        idUpload,
        payload: {
          from: '2026-12-01',
          to: '2026-12-07',
          inYouTube: true,
          inTikTok: true,
          inInstagram: false,
          accounts: [{ id: 1 }, { id: 2 }],
          video: [
            { id: 11, account: { id: 1 } },
            { id: 12, account: { id: 2 } },
            { id: 13, account: null },
          ],
        },
      },
    });
    // Nothing else is sent while the proposal is on its way.
    actor.send({ type: 'form.submit', fields });
    actor.send({ type: 'request.delete' });
    expect(calls.started.map((call) => call.name)).toEqual(['loadRequest', 'spread']);
  });

  it('fills each placed video with its profile and Kyiv date, keeps why and what did not fit, says how many it placed, and keeps the draft', async () => {
    const { actor, calls, assigned } = await proposing();
    expect(actor.getSnapshot().context.videos[2]!.lostProfile).toEqual(option(3));
    await calls.resolve('spread', proposal);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(assigned()).toEqual([
      [11, 1, '2026-12-01T09:00'],
      [12, 2, ''],
      [13, 1, '2026-12-02T18:00'],
    ]);
    // Video 13 has a profile again, so it no longer says which one it lost.
    expect(actor.getSnapshot().context.videos[2]).toMatchObject({ account: option(1), lostProfile: null });
    expect(actor.getSnapshot().context.spread).toEqual({
      reasons: { 11: firstFree, 13: bestHour },
      posts: { 11: proposal.data[0]!.posts },
      unplaced: [{ videoId: 12, reason: noRoom }],
      days: proposal.days,
    });
    expect(shown).toEqual([`success ${t.spread.proposed(2)}`]);
    expect(draftOf(draftKey)?.videos?.map((video) => [video.id, video.account?.id ?? null, video.date])).toEqual(assigned());
  });

  it("forgets the reason of a video whose date is changed by hand, keeping the others' and what did not fit", async () => {
    const { actor, calls } = await start();
    // Before any proposal there is nothing to forget.
    actor.send({ type: 'video.date', videoId: 11, date: '2026-12-01T08:00' });
    expect(actor.getSnapshot().context.spread).toBeNull();
    actor.send({ type: 'spread.propose', range: days, platforms });
    await calls.resolve('spread', proposal);
    actor.send({ type: 'video.date', videoId: 11, date: '2026-12-03T12:00' });
    // The days' counts were the proposal's: a date by hand makes them stale.
    expect(actor.getSnapshot().context.spread).toEqual({
      reasons: { 13: bestHour },
      posts: {},
      unplaced: [{ videoId: 12, reason: noRoom }],
      days: [],
    });
  });

  it('places a video on a profile the request offers though not chosen, and leaves one placed on a profile it does not offer as it was', async () => {
    const { actor, calls, assigned } = await start();
    actor.send({ type: 'profiles.choose', profiles: [option(1)] });
    actor.send({ type: 'spread.propose', range: days, platforms });
    await calls.resolve('spread', {
      data: [
        { videoId: 11, accountId: 3, date: '2026-12-01T10:00:00+02:00', reason: firstFree },
        { videoId: 12, accountId: 99, date: '2026-12-01T11:00:00+02:00', reason: firstFree },
      ],
      unplaced: [],
    } satisfies SpreadProposal);
    expect(assigned()).toEqual([
      [11, 3, '2026-12-01T10:00'],
      [12, null, ''],
      [13, null, ''],
    ]);
    expect(actor.getSnapshot().context.videos[0]!.account).toEqual(option(3));
  });

  it('goes back to the form as it was when the proposal is refused, with the reason', async () => {
    const { actor, calls, assigned } = await start();
    actor.send({ type: 'profiles.choose', profiles: [option(1)] });
    actor.send({ type: 'spread.propose', range: days, platforms });
    await calls.reject('spread', new ApiError(400, [t.spread.tooLong(31)]));
    expect(actor.getSnapshot().value).toBe('editing');
    expect(assigned()).toEqual([
      [11, 1, ''],
      [12, null, ''],
      [13, null, ''],
    ]);
    expect(actor.getSnapshot().context.spread).toBeNull();
    expect(shown).toEqual([`error ${t.spread.tooLong(31)}`]);
  });

  it('reaches the API at POST /upload-video/{idUpload}/spread', async () => {
    const asked = apiDouble((request) => ({ body: request.startsWith('GET') ? detail : proposal }));
    const actor = createActor(publishMachine, { input: { idUpload } }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    actor.send({ type: 'spread.propose', range: days, platforms });
    await waitFor(actor, (snapshot) => snapshot.context.spread !== null);
    expect(asked[0]).toBe(`GET /api/create-video/request/${idUpload}`);
    const [request, body] = asked[1]!.split(/ (?=\{)/);
    expect(request).toBe(`POST /api/upload-video/${idUpload}/spread`);
    expect(JSON.parse(body!)).toEqual({ ...days, ...platforms, accounts: [], video: [11, 12, 13].map((id) => ({ id, account: null })) });
    expect(asked).toHaveLength(2);
  });
});

describe('publish machine: deleting the request', () => {
  afterEach(() => publishDrafts.trigger.forgetAll());

  it('deletes the request by its id under one toast, forgets its draft and leaves for the list', async () => {
    const draftKey = draftKeyOf(1, idUpload)!;
    const { actor, calls } = await start({ idUpload, draftKey });
    actor.send({ type: 'group.pick', group: detail.group[0] });
    expect(draftOf(draftKey)).toBeDefined();
    actor.send({ type: 'request.delete' });
    actor.send({ type: 'request.delete' });
    expect(calls.started.filter((call) => call.name === 'deleteRequest')).toEqual([{ name: 'deleteRequest', input: { id: 3 } }]);
    await calls.resolve('deleteRequest');
    expect(actor.getSnapshot().value).toBe('deleted');
    expect(left).toBe(1);
    expect(draftOf(draftKey)).toBeUndefined();
    expect(shown).toEqual([`loading Видалення ... #delete-${idUpload}`, `success Запит видалено #delete-${idUpload}`]);
  });

  it("stays on the form when the server refuses: a 409 says the server's reason, anything else 'Помилка при видаленні'", async () => {
    const { actor, calls } = await start();
    const reason = t.finalDelete.inFlight([t.finalDelete.item('Новинка', 1, 'TikTok', '#2')]);
    actor.send({ type: 'request.delete' });
    await calls.reject('deleteRequest', new ApiError(409, [reason]));
    expect(actor.getSnapshot().value).toBe('editing');
    actor.send({ type: 'request.delete' });
    await calls.reject('deleteRequest', new ApiError(500, ['Внутрішня помилка']));
    expect(actor.getSnapshot().value).toBe('editing');
    expect(left).toBe(0);
    expect(shown.filter((line) => line.startsWith('error'))).toEqual([
      `error ${reason} #delete-${idUpload}`,
      `error Помилка при видаленні #delete-${idUpload}`,
    ]);
  });

  it('reaches the API at DELETE /create-video/{id}', async () => {
    const asked = apiDouble((request) => (request.startsWith('GET') ? { body: detail } : { status: 204 }));
    const actor = createActor(publishMachine, { input: { idUpload } }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    actor.send({ type: 'request.delete' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(asked).toEqual([`GET /api/create-video/request/${idUpload}`, 'DELETE /api/create-video/3']);
  });
});

describe('publish machine: the draft', () => {
  const draftKey = draftKeyOf(1, idUpload)!;
  afterEach(() => publishDrafts.trigger.forgetAll());

  it('keeps the draft through a refused submit and forgets it once the publication is sent', async () => {
    const { actor, calls } = await start({ idUpload, draftKey });
    actor.send({ type: 'group.pick', group: detail.group[0] });
    actor.send({ type: 'form.submit', fields });
    await calls.reject('publish', failure);
    expect(draftOf(draftKey)?.accounts).toEqual([option(2), option(3)]);
    actor.send({ type: 'form.submit', fields });
    await calls.resolve('publish', { ok: true });
    expect(actor.getSnapshot().value).toBe('done');
    expect(draftOf(draftKey)).toBeUndefined();
  });

  it('keeps no draft for a form whose user is not known', async () => {
    const { actor } = await start({ idUpload, draftKey: undefined });
    actor.send({ type: 'group.pick', group: detail.group[0] });
    actor.send({ type: 'video.date', videoId: 11, date: '2026-12-01T10:00' });
    expect(publishDrafts.getSnapshot().context.drafts).toEqual({});
  });

  it("opens with the draft's profiles that the request still offers, among others it offers", async () => {
    const { actor } = await start({ idUpload, draftKey, draft: { accounts: [option(2), option(7)] } });
    expect(actor.getSnapshot().context.accounts).toEqual([option(2)]);
  });
});

describe('assignment helpers', () => {
  it('adds profiles not chosen yet, after those chosen', () => {
    expect(withProfiles([option(2)], [option(1), option(2), option(3)])).toEqual([option(2), option(1), option(3)]);
  });

  it('opens with the rendered videos only', () => {
    expect(publishVideosOf(detail).map((video) => video.id)).toEqual([11, 12, 13]);
  });

  it('checks both profiles and videos', () => {
    expect(assignmentErrors([], [])).toEqual({ accounts: 'Мінімум один профіль', video: 'Мінімум одне відео' });
    expect(assignmentErrors([option(1)], publishVideosOf(detail))).toEqual({});
  });
});

const profile = option;

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
  it("shows the YouTube error, else the Instagram error, else 'Причину не вказано'", () => {
    expect(videoErrorText({ error: 'quota', errorInstagram: 'private' })).toBe('quota');
    expect(videoErrorText({ error: null, errorInstagram: 'private' })).toBe('private');
    expect(videoErrorText({ error: '', errorInstagram: null })).toBe('Причину не вказано');
    expect(videoErrorText({ error: null, errorInstagram: null })).toBe('Причину не вказано');
    expect(videoErrorText({ error: null, errorInstagram: null, errorTiktok: 'spam risk' })).toBe('spam risk');
    // A list without errorTiktok reads it from the failed post.
    const posts = [
      { state: 'published', error: null },
      { state: 'failed', error: 'spam risk' },
    ] as const;
    expect(videoErrorText({ error: null, errorInstagram: null, posts: [...posts] })).toBe('spam risk');
  });

  it('turns empty dates into null and keeps only the fields the contract names', () => {
    const form = {
      title: 'Новинка',
      description: '',
      tags: ['shorts'],
      accounts: [profile(1)],
      video: [
        { id: 5, url: '/api/media/a', idUpload, createdAt: '2026-11-20T10:00:00.000Z', account: profile(1), date: '2026-12-01T09:30' },
      ],
      inYouTube: true,
      inTikTok: true,
      inInstagram: false,
      date: '',
    };
    expect(publishPayloadOf(3, { ...form, video: [{ ...form.video[0], date: '' }] }).video[0].date).toBeNull();
    expect(publishPayloadOf(3, form)).toEqual({
      id: 3,
      title: 'Новинка',
      description: '',
      tags: ['shorts'],
      accounts: [profile(1)],
      video: [{ ...form.video[0] }],
      inYouTube: true,
      inTikTok: true,
      inInstagram: false,
      // A platform the form leaves unticked, SPEC's or not, is sent off.
      inFacebook: false,
      date: null,
    });
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
