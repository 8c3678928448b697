import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { Route } from 'wouter';
import { TestModel } from 'xstate/graph';
import { ApiError } from '../../src/lib/api';
import type { SelectOption } from '../../src/lib/contract';
import { publishMachine, type PublishContext } from '../../src/machines/publish-machine';
import { PublishScreen } from '../../src/screens/video/publish-screen';
import { pickDateTime, renderScreen, shownDateTime } from './render';
import { anna, boris, idUpload, numberOf, offered, request, vira } from './publish-fixtures';
import { t } from '../../server/messages';
import { errorBody, serverDouble, type ServerDouble, statesReached, testEachPath } from './server-double';

const profiles = request.accounts;
const morning = request.group[0];
const fields = { title: 'Випуск', description: '', tags: ['shorts'], inYouTube: true, inTikTok: false, inInstagram: false, date: '' };
const refused = ['Профіль #2 не підключено до TikTok'];
/** The server's refusal of a delete whose uploads could not be stopped (its own words, tests/server/final-delete.test.ts). */
const inFlight = t.finalDelete.inFlight([t.finalDelete.item('Випуск', 1, 'TikTok', '#2 boris')]);

/**
 * The model's events for a snapshot: one user action of each kind (add the next profile, drop the
 * first, pick the group, remove the first video, submit with and without the title) and each answer
 * of the server. Which profiles and videos a step touches comes from the snapshot; what the screen
 * must show comes from the test's own record of what the operator did.
 */
function eventsFor({ context }: { context: PublishContext }) {
  const next = profiles.find((option) => !context.accounts.some((chosen) => chosen.id === option.id));
  return [
    { type: 'xstate.done.actor.loadRequest', output: request },
    { type: 'xstate.error.actor.loadRequest', error: new ApiError(404, ['Запит не знайдено']) },
    ...(next ? [{ type: 'profiles.choose', profiles: [...context.accounts, next] }] : []),
    ...(context.accounts.length > 0 ? [{ type: 'profiles.choose', profiles: context.accounts.slice(1) }] : []),
    { type: 'group.pick', group: morning },
    ...(context.videos.length > 0 ? [{ type: 'video.remove', videoId: context.videos[0].id }] : []),
    { type: 'form.invalid' },
    { type: 'form.submit', fields },
    { type: 'xstate.done.actor.publish', output: { ok: true } },
    { type: 'xstate.error.actor.publish', error: new ApiError(400, refused) },
    { type: 'request.delete' },
    { type: 'xstate.done.actor.deleteRequest', output: null },
    { type: 'xstate.error.actor.deleteRequest', error: new ApiError(409, [inFlight]) },
  ] as never[];
}

// TestModel rather than createTestModel, which refuses machines that invoke actors.
const model = new TestModel(publishMachine, {
  input: { idUpload },
  events: eventsFor,
  stateMatcher: (snapshot, key) => snapshot.matches(key as never),
  // Only what the state takes: an answer to a call that is not running has nothing to drive on screen.
  filterEvents: (snapshot, event) => snapshot.can(event as never),
  // States differ by what the operator can tell apart: none, one or several profiles; how many videos are left; a submit tried.
  serializeState: (snapshot) => {
    const { accounts, videos, submitted } = snapshot.context;
    return JSON.stringify([snapshot.value, Math.min(accounts.length, 2), videos.length, submitted]);
  },
});

/** What the operator did so far, and so what the screen must show. */
interface Expected {
  chosen: SelectOption[];
  videos: number[];
  /** Each video's profile: the i-th rule when the choice changes; a removal leaves the others as they were. */
  assigned: Map<number, SelectOption | null>;
  submitted: boolean;
  toasts: string[];
}

let server: ServerDouble;
let user: UserEvent;
let expected: Expected;
let location: ReturnType<typeof renderScreen>['location'];

beforeEach(() => {
  server = serverDouble();
  user = userEvent.setup();
  expected = { chosen: [], videos: [], assigned: new Map(), submitted: false, toasts: [] };
});

afterEach(() => {
  toast.remove();
});

const saveButton = () => screen.getByRole('button', { name: 'Зберегти' });
const videoProfile = (id: number) => screen.getByLabelText(`Профіль відео ${numberOf(id)}`) as HTMLSelectElement;

async function chooseProfiles(next: SelectOption[]) {
  if (next.length > expected.chosen.length) {
    await user.click(screen.getByRole('combobox', { name: 'Профілі' }));
    await user.click(screen.getByRole('option', { name: next.at(-1)!.title }));
  } else {
    await user.click(screen.getByRole('button', { name: `Прибрати ${expected.chosen[0].title}` }));
  }
  choose(next);
}

function choose(next: SelectOption[]) {
  expected.chosen = next;
  // SPEC: when profiles are chosen, the video at position i is assigned the i-th chosen profile.
  expected.assigned = new Map(expected.videos.map((id, index) => [id, next[index] ?? null]));
}

async function fillFields() {
  const title = screen.getByLabelText('Назва');
  if ((title as HTMLInputElement).value === '') await user.type(title, fields.title);
  if (screen.queryAllByRole('button', { name: /^Видалити тег / }).length === 0) await user.type(screen.getByLabelText('Теги'), 'shorts ');
}

const events = {
  'xstate.init': async () => {
    ({ location } = renderScreen(
      <Route path={/^\/video\/request(?:\/(?<idUpload>[^/]+))?\/?$/}>
        <PublishScreen />
      </Route>,
      { path: `/video/request/${idUpload}` },
    ));
  },
  'xstate.done.actor.loadRequest': async () => {
    await server.answer('GET', `/create-video/request/${idUpload}`, 200, request);
    expected.videos = [11, 12, 13];
    choose([]);
  },
  'xstate.error.actor.loadRequest': async () => {
    await server.answer('GET', `/create-video/request/${idUpload}`, 404, errorBody(404, 'Запит не знайдено'));
    expected.toasts.push('Запит не знайдено');
  },
  'profiles.choose': async ({ event }: { event: { profiles: SelectOption[] } }) => chooseProfiles(event.profiles),
  'group.pick': async () => {
    await user.click(screen.getByRole('button', { name: 'Ранкові' }));
    choose([...expected.chosen, ...morning.accounts.filter((added) => !expected.chosen.some((chosen) => chosen.id === added.id))]);
  },
  'video.remove': async ({ event }: { event: { videoId: number } }) => {
    await user.click(screen.getByRole('button', { name: `Прибрати відео ${numberOf(event.videoId)}` }));
    expected.videos = expected.videos.filter((id) => id !== event.videoId);
  },
  'form.invalid': async () => {
    await user.clear(screen.getByLabelText('Назва'));
    await user.click(saveButton());
    expected.submitted = true;
  },
  'form.submit': async () => {
    await fillFields();
    await user.click(saveButton());
    expected.submitted = true;
  },
  'xstate.done.actor.publish': async () => {
    const sent = server.calls.at(-1)!.body as { video: Array<{ id: number; account: SelectOption | null }> };
    // A profile goes as SPEC's payload has it: without the platforms the form shows beside it.
    const asSent = (profile: SelectOption | null | undefined) => profile && { id: profile.id, title: profile.title, value: profile.value };
    expect(sent.video).toEqual(expected.videos.map((id) => expect.objectContaining({ id, account: asSent(expected.assigned.get(id)) })));
    await server.answer('POST', `/upload-video/${idUpload}`, 200, { ok: true });
  },
  'xstate.error.actor.publish': async () => {
    await server.answer('POST', `/upload-video/${idUpload}`, 400, errorBody(400, refused));
    expected.toasts.push(...refused);
  },
  // Asked first, naming what goes; nothing is sent until 'Видалити'.
  'request.delete': async () => {
    await user.click(screen.getByRole('button', { name: 'Видалити запит #4' }));
    const dialog = within(screen.getByRole('alertdialog', { name: 'Видалити запит #4?' }));
    expect(dialog.getByText('Разом із запитом буде видалено його відео та їхні файли.')).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === 'DELETE')).toEqual([]);
    await user.click(dialog.getByRole('button', { name: 'Видалити' }));
  },
  'xstate.done.actor.deleteRequest': () => server.answer('DELETE', `/create-video/${request.id}`, 204),
  'xstate.error.actor.deleteRequest': async () => {
    await server.answer('DELETE', `/create-video/${request.id}`, 409, errorBody(409, inFlight));
    expected.toasts.push(inFlight);
  },
};

const states = {
  loading: () => {
    expect(screen.getByRole('status', { name: 'Завантаження' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Зберегти' })).toBeNull();
    expect(server.pending()).toEqual([`GET /create-video/request/${idUpload}`]);
  },
  editing: async () => {
    await waitFor(() => expect(saveButton()).toBeEnabled());
    const shown = screen.queryAllByRole('link', { name: /^Переглянути відео / }).map((link) => link.getAttribute('aria-label'));
    expect(shown).toEqual(expected.videos.map((id) => `Переглянути відео ${numberOf(id)}`));
    if (expected.videos.length === 0) expect(screen.getByText('Усі відео прибрано')).toBeInTheDocument();
    expect(expected.videos.map((id) => videoProfile(id).value)).toEqual(
      expected.videos.map((id) => String(expected.assigned.get(id)?.id ?? '')),
    );
    for (const id of expected.videos) expect(within(videoProfile(id)).getByRole('option', { name: 'Будь-який' })).toBeInTheDocument();
    const alerts = screen.queryAllByRole('alert').map((alert) => alert.textContent);
    expect(alerts.includes('Мінімум один профіль')).toBe(expected.submitted && expected.chosen.length === 0);
    expect(alerts.includes('Мінімум одне відео')).toBe(expected.submitted && expected.videos.length === 0);
    for (const text of expected.toasts) expect(await screen.findByText(text)).toBeInTheDocument();
  },
  submitting: async () => {
    expect(saveButton()).toBeDisabled();
    expect(await screen.findByText('Відео надіслано на публікацію')).toBeInTheDocument();
    // The posting budget (tests/e2e/posting-caps.test.ts) and the platform panel's posting rules
    // (tests/screens/platform-options.test.tsx) read on their own; the machine sends the publish alone.
    const own = (call: string) => !call.startsWith('GET /accounts/budget?') && !call.startsWith('GET /posting-rules');
    expect(server.pending().filter(own)).toEqual([`POST /upload-video/${idUpload}`]);
  },
  done: async () => {
    await waitFor(() => expect(location.history?.at(-1)).toBe('/video/request-create'));
    expect(await screen.findByText('Відео надіслано на публікацію')).toBeInTheDocument();
  },
  failed: async () => {
    await waitFor(() => expect(location.history?.at(-1)).toBe('/video/request-create'));
    for (const text of expected.toasts) expect(await screen.findByText(text)).toBeInTheDocument();
  },
  deleting: async () => {
    expect(await screen.findByText('Видалення ...')).toBeInTheDocument();
    await waitFor(() => expect(server.pending()).toContain(`DELETE /create-video/${request.id}`));
  },
  deleted: async () => {
    await waitFor(() => expect(location.history?.at(-1)).toBe('/video/request-create'));
    expect(await screen.findByText('Запит видалено')).toBeInTheDocument();
  },
};

describe('publish screen, walked along the publish machine', () => {
  const paths = model.getShortestPaths();

  it('reaches every state of the machine', () => {
    expect(statesReached(paths)).toEqual(['"deleted"', '"deleting"', '"done"', '"editing"', '"failed"', '"loading"', '"submitting"']);
  });

  testEachPath(paths, { events: events as never, states });
});

describe('publish screen journeys the graph does not give', () => {
  it('a second click on Зберегти while the first is sent publishes once', async () => {
    await events['xstate.init']();
    await events['xstate.done.actor.loadRequest']();
    await user.click(await screen.findByRole('button', { name: 'Ранкові' }));
    await fillFields();
    fireEvent.click(saveButton());
    fireEvent.click(saveButton());
    await waitFor(() => expect(saveButton()).toBeDisabled());
    expect(server.calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  it("keeps a video's profile picked by hand while the choice changes, and says so when that profile is removed", async () => {
    await events['xstate.init']();
    await events['xstate.done.actor.loadRequest']();
    await user.click(await screen.findByRole('button', { name: 'Ранкові' }));
    await user.selectOptions(videoProfile(11), '3');
    pickDateTime('Дата відео 2', '2031-12-01T12:30');
    expect([11, 12, 13].map((id) => videoProfile(id).value)).toEqual(['3', '3', '']);
    expect(shownDateTime('Дата відео 2')).toBe('2031-12-01T12:30');
    await user.click(screen.getByRole('combobox', { name: 'Профілі' }));
    await user.click(screen.getByRole('option', { name: '#1 anna' }));
    // Video #11 keeps #3, picked by hand; the others follow the i-th rule.
    expect([11, 12, 13].map((id) => videoProfile(id).value)).toEqual(['3', '3', '1']);
    expect(videoProfile(11)).toHaveAccessibleDescription(t.postTruth.chosenByHand);
    expect(screen.getByText(/Відео по черзі отримують вибрані профілі/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Прибрати #3 vira' }));
    expect([11, 12, 13].map((id) => videoProfile(id).value)).toEqual(['2', '1', '']);
    expect(videoProfile(11)).toHaveAccessibleDescription(t.postTruth.manualProfileRemoved('#3 vira'));
    expect(shownDateTime('Дата відео 2')).toBe('2031-12-01T12:30');
  });

  it('warns on each video whose profile lacks a ticked platform, and refuses to send one that would get no post', async () => {
    await events['xstate.init']();
    await server.answer('GET', `/create-video/request/${idUpload}`, 200, {
      ...request,
      accounts: [offered(anna, ['youtube', 'tiktok']), offered(boris, ['instagram']), offered(vira, ['youtube'])],
    });
    const choose = async (name: string) => {
      await user.click(await screen.findByRole('combobox', { name: 'Профілі' }));
      await user.click(screen.getByRole('option', { name }));
    };
    await choose('#1 anna');
    await choose('#3 vira');
    await user.click(screen.getByRole('checkbox', { name: 'TikTok' }));
    // #1 has both; #3 lacks TikTok: a warning the video keeps; the third is on no profile yet.
    expect(videoProfile(11)).not.toHaveAccessibleDescription(/TikTok/);
    expect(videoProfile(12)).toHaveAccessibleDescription(t.postTruth.platformsMissing('#3 vira', ['TikTok']));
    expect(screen.getByText(t.postTruth.gapsSummary(1, 0))).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Прибрати #3 vira' }));
    await choose('#2 boris');
    await user.click(screen.getByRole('checkbox', { name: 'YouTube' }));
    // TikTok only: #2 boris has Instagram alone, so video #12 would get no post at all.
    const none = t.postTruth.noPlatformFor(`Відео ${numberOf(12)}`, '#2 boris', 'TikTok');
    expect(videoProfile(12)).toHaveAccessibleDescription(none);
    await fillFields();
    await user.click(saveButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(none);
    expect(server.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('unmounting while the request loads leaves nothing behind: no navigation, no toast', async () => {
    await events['xstate.init']();
    const view = screen.getByRole('status', { name: 'Завантаження' });
    expect(view).toBeInTheDocument();
    const before = location.history?.length;
    (await import('@testing-library/react')).cleanup();
    await server.answer('GET', `/create-video/request/${idUpload}`, 404, errorBody(404, 'Запит не знайдено'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(location.history?.length).toBe(before);
    expect(screen.queryByText('Запит не знайдено')).toBeNull();
  });
});
