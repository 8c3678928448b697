import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { Route } from 'wouter';
import { TestModel } from 'xstate/graph';
import { ApiError } from '../../src/lib/api';
import type { PublishedVideo, UploadDetail } from '../../src/lib/contract';
import { publishedMachine, type PublishedContext } from '../../src/machines/published-machine';
import { PublishedScreen } from '../../src/screens/video/published-screen';
import { renderScreen } from './render';
import { publishedVideo } from './video-fixtures';
import { errorBody, serverDouble, type ServerDouble, statesReached, testEachPath } from './server-double';

// The statistics panel has its own tests (stats-calendar-bell.test.tsx); here only the set's own requests are counted.
vi.mock('../../src/components/stats-panel', () => ({ StatsPanel: () => null }));

/**
 * The undo's window as long as an hour, so that it never ends by itself while a path is walked
 * (a path takes seconds on a busy machine); the step 'undo.expire' makes the hour pass. The 10 s
 * are the machine's own test (tests/machines/published-machine.test.ts).
 */
const { undoWindow } = vi.hoisted(() => ({ undoWindow: 3_600_000 }));
vi.mock('../../src/machines/published-machine', async (original) => {
  const actual = await original<typeof import('../../src/machines/published-machine')>();
  return { ...actual, publishedMachine: actual.publishedMachine.provide({ delays: { undoWindow } }) };
});

const idUpload = '7c0e4f2a-2222-4333-8444-555566667777';
const video = (id: number, status: PublishedVideo['status'], error: string | null = null): PublishedVideo =>
  publishedVideo(id, { idUpload, status, error });
const setWith = (title: string, ...videos: PublishedVideo[]): UploadDetail => ({
  id: 8,
  idUpload,
  publishedAt: '2026-11-20T08:00:00.000Z',
  status: 'publication',
  title,
  description: '',
  tags: 'shorts',
  tagProfile: [],
  edits: [],
  video: videos,
  accounts: [
    { id: 7, title: '#7 Олена', value: 7, platforms: ['youtube'] },
    { id: 8, title: '#8 Борис', value: 8, platforms: ['youtube'] },
  ],
  posts: { published: 0, scheduled: 0, held: 0, failed: 0, cancelled: 0 },
});
/** A set with a video on its way (the page keeps reading it), and the same set settled. */
/** Video 1 waits for its planned time: its date and profile can still change. */
const scheduled = { ...video(1, 'publication'), plannedAt: '2031-12-02T08:00:00.000Z', changeable: true };
const busy = setWith('Випуск', scheduled, video(2, 'error', 'quotaExceeded'));
/** Video 1 moved to profile #8, and video 1 cancelled (nothing of it went out; the undo puts back `busy`). */
const moved = setWith('Випуск', { ...scheduled, account: { id: 8 } }, video(2, 'error', 'quotaExceeded'));
const cancelled = setWith('Випуск', video(1, 'cancelled'), video(2, 'error', 'quotaExceeded'));
const schedulePath = `/upload-video/${idUpload}/video/1`;
const settled = setWith('Випуск', video(1, 'success'), video(2, 'error', 'quotaExceeded'));
const saved = setWith('Новий випуск', video(1, 'success'), video(2, 'error', 'quotaExceeded'));
const down = ['Сервер тимчасово недоступний'];
const restoreRefused = 'Не можна повернути публікацію: її профіль видалено';
const statusLabel: Record<string, string> = {
  publication: 'На публікації',
  success: 'Опубліковано',
  error: 'Помилка',
  noactive: 'Не опубліковано',
  cancelled: 'Скасовано',
};

function eventsFor(snapshot: Parameters<typeof publishedMachine.getPersistedSnapshot>[0]) {
  const { context } = snapshot;
  // While the set is read again only the server answers: what the operator may do meanwhile is the machine's own test.
  if (snapshot.matches({ ready: 'refreshing' }))
    return [
      { type: 'xstate.done.actor.refreshSet', output: busy },
      { type: 'xstate.done.actor.refreshSet', output: settled },
      { type: 'xstate.error.actor.refreshSet', error: new ApiError(500, down) },
    ] as never[];
  // While the undo is offered the operator takes it or lets it go: what else they may do meanwhile is the machine's own test.
  if (context.undoable !== null)
    return [
      ...(snapshot.matches('ready') ? [{ type: 'schedule.restore' }] : []),
      { type: 'xstate.done.actor.restoreSchedule', output: busy },
      { type: 'xstate.error.actor.restoreSchedule', error: new ApiError(409, [restoreRefused]) },
      ...(snapshot.matches({ ready: 'settled' }) ? [{ type: 'undo.expire' }] : []),
    ] as never[];
  return [
    { type: 'xstate.done.actor.loadSet', output: busy },
    { type: 'xstate.done.actor.loadSet', output: settled },
    { type: 'xstate.error.actor.loadSet', error: new ApiError(500, down) },
    { type: 'refresh' },
    { type: 'xstate.done.actor.refreshSet', output: busy },
    { type: 'xstate.done.actor.refreshSet', output: settled },
    { type: 'xstate.error.actor.refreshSet', error: new ApiError(500, down) },
    { type: 'video.retry', videoId: 2 },
    { type: 'xstate.done.actor.retryVideo', output: {} },
    { type: 'xstate.error.actor.retryVideo', error: new ApiError(500, down) },
    ...(context.detail ? [{ type: 'edit.submit', values: { title: context.detail.title, description: '', tags: ['shorts'] } }] : []),
    { type: 'xstate.done.actor.saveTexts', output: saved },
    { type: 'xstate.error.actor.saveTexts', error: new ApiError(500, down) },
    ...(context.scheduling === null && context.detail?.video.some((one) => one.id === 1 && one.changeable)
      ? [{ type: 'schedule.open', videoId: 1 }]
      : []),
    ...(context.scheduling === 1
      ? [
          { type: 'schedule.close' },
          // To the profile video 1 is not on yet: the same one again changes nothing and is not sent.
          { type: 'schedule.save', videoId: 1, change: { accountId: context.detail?.video[0]?.account?.id === 8 ? 7 : 8 } },
          { type: 'schedule.cancel', videoId: 1 },
        ]
      : []),
    { type: 'xstate.done.actor.reschedule', output: moved },
    { type: 'xstate.error.actor.reschedule', error: new ApiError(500, down) },
    { type: 'xstate.done.actor.cancelSchedule', output: cancelled },
    { type: 'xstate.error.actor.cancelSchedule', error: new ApiError(500, down) },
  ] as never[];
}

const model = new TestModel(publishedMachine, {
  input: { idUpload },
  events: eventsFor,
  stateMatcher: (snapshot, key) => snapshot.matches(key as never),
  // Only what the state takes: an answer to a call that is not running has nothing to drive on screen.
  filterEvents: (snapshot, event) => snapshot.can(event as never),
  // What the operator can tell apart (where the machine is, which set is on screen), and how it got
  // there, so that every kind of transition into a state gets a path of its own.
  serializeState: (snapshot, event, previous) => {
    const seen = (each: typeof snapshot) => [
      each.value,
      each.context.detail?.video.map((one) => [one.status, one.account?.id]),
      each.context.detail?.title,
      each.context.scheduling,
      each.context.undoable,
    ];
    const changed = !previous || JSON.stringify(seen(previous)) !== JSON.stringify(seen(snapshot));
    return JSON.stringify([...seen(snapshot), changed ? event?.type : undefined]);
  },
});

let server: ServerDouble;
let user: UserEvent;
/** The set the server last handed over, and the failures the operator was told about. */
let shown: UploadDetail | null;
let toasts: string[];
let location: ReturnType<typeof renderScreen>['location'];
/** The profile the operator last moved video 1 to. */
let movedTo: number | undefined;

beforeEach(() => {
  // The undo's window is the machine's timer: a step makes it pass at once; the rest runs in real time.
  vi.useFakeTimers({ shouldAdvanceTime: true });
  server = serverDouble();
  user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  shown = null;
  toasts = [];
});

afterEach(() => {
  toast.remove();
  setTab('visible');
  vi.useRealTimers();
});

function setTab(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

const setPath = `/upload-video/${idUpload}`;
const answerSet = (body: UploadDetail) => async () => {
  await server.answer('GET', setPath, 200, body);
  shown = body;
};
const refuse = (method: string, path: string) => async () => {
  await server.answer(method, path, 500, errorBody(500, down));
  toasts.push(...down);
};
const editor = () => within(screen.getByRole('region', { name: 'Публікація відео #1: поки вона не почалася' }));
const undoButton = () => screen.getByRole('button', { name: 'Повернути публікацію відео #1' });
const changeButton = () => screen.getByRole('button', { name: 'Змінити публікацію відео #1' });
const retryButton = () => within(screen.getAllByRole('row')[2]).getByRole('button', { name: 'Опублікувати' });

const events = {
  'xstate.init': async () => {
    ({ location } = renderScreen(
      <Route path={/^\/video\/youtube(?:\/(?<idUpload>[^/]+))?\/?$/}>
        <PublishedScreen />
      </Route>,
      { path: `/video/youtube/${idUpload}` },
    ));
  },
  'xstate.done.actor.loadSet': ({ event }: { event: { output: UploadDetail } }) => answerSet(event.output)(),
  'xstate.error.actor.loadSet': refuse('GET', setPath),
  // The operator comes back to the tab: a set with videos on their way is read again at once.
  refresh: async () => {
    setTab('hidden');
    setTab('visible');
  },
  'xstate.done.actor.refreshSet': ({ event }: { event: { output: UploadDetail } }) => answerSet(event.output)(),
  'xstate.error.actor.refreshSet': refuse('GET', setPath),
  'video.retry': () => user.click(retryButton()),
  'xstate.done.actor.retryVideo': async () => {
    expect(server.calls.at(-1)!.body).toEqual({ videoId: 2, youTubeId: idUpload });
    await server.answer('POST', '/upload-video/upload', 200, {});
  },
  'xstate.error.actor.retryVideo': refuse('POST', '/upload-video/upload'),
  // The set's texts are saved by the first 'Зберегти'; an open schedule has its own below.
  'edit.submit': () => user.click(screen.getAllByRole('button', { name: 'Зберегти' })[0]!),
  'xstate.done.actor.saveTexts': async () => {
    await server.answer('PATCH', setPath, 200, saved);
    shown = saved;
    toasts.push('Оновлено дані');
  },
  'xstate.error.actor.saveTexts': refuse('PATCH', setPath),
  // Each change sends the keyboard on: into the editor it opened, back to 'Змінити' when it closed.
  'schedule.open': async () => {
    await user.click(changeButton());
    await waitFor(() => expect(editor().getByLabelText('Нова дата відео #1: день')).toHaveFocus());
  },
  'schedule.close': async () => {
    await user.click(editor().getByRole('button', { name: 'Закрити' }));
    await waitFor(() => expect(changeButton()).toHaveFocus());
  },
  'schedule.save': async ({ event }: { event: { change: { accountId: number } } }) => {
    movedTo = event.change.accountId;
    await user.selectOptions(editor().getByLabelText('Новий профіль відео #1'), String(event.change.accountId));
    await user.click(editor().getByRole('button', { name: 'Зберегти' }));
  },
  'xstate.done.actor.reschedule': async () => {
    expect(server.calls.at(-1)!.body).toEqual({ accountId: movedTo });
    await server.answer('PATCH', schedulePath, 200, moved);
    shown = moved;
    toasts.push('Публікацію перенесено');
    await waitFor(() => expect(changeButton()).toHaveFocus());
  },
  'xstate.error.actor.reschedule': refuse('PATCH', schedulePath),
  // Asked first: nothing is sent until the dialog's own 'Скасувати публікацію'.
  'schedule.cancel': async () => {
    await user.click(editor().getByRole('button', { name: 'Скасувати публікацію' }));
    const dialog = within(screen.getByRole('alertdialog', { name: 'Скасувати публікацію відео #1?' }));
    expect(dialog.getByText('Відео не буде опубліковано. Ще 10 секунд після скасування його можна повернути.')).toBeInTheDocument();
    expect(server.pending()).toEqual([]);
    await user.click(dialog.getByRole('button', { name: 'Скасувати публікацію' }));
  },
  'xstate.done.actor.cancelSchedule': async () => {
    await server.answer('DELETE', `${schedulePath}/schedule`, 200, cancelled);
    shown = cancelled;
    await waitFor(() => expect(undoButton()).toHaveFocus());
  },
  'xstate.error.actor.cancelSchedule': refuse('DELETE', `${schedulePath}/schedule`),
  'schedule.restore': () => user.click(undoButton()),
  'xstate.done.actor.restoreSchedule': async () => {
    await server.answer('POST', `${schedulePath}/schedule`, 200, busy);
    shown = busy;
    toasts.push('Публікацію повернуто');
    await waitFor(() => expect(changeButton()).toHaveFocus());
  },
  'xstate.error.actor.restoreSchedule': async () => {
    await server.answer('POST', `${schedulePath}/schedule`, 409, errorBody(409, restoreRefused));
    toasts.push(restoreRefused);
  },
  // The toast goes, and the keyboard it held goes to the videos' heading rather than the page.
  'undo.expire': async () => {
    const hadFocus = document.activeElement === undoButton();
    await vi.advanceTimersByTimeAsync(undoWindow);
    await waitFor(() => expect(screen.queryByText('Публікацію відео #1 скасовано')).toBeNull());
    if (hadFocus) expect(screen.getByRole('heading', { level: 2, name: 'Відео' })).toHaveFocus();
    // The other toasts had their seconds too.
    toasts = [];
  },
};

/** The set on screen is the one the server last sent: its title and each video's status. */
async function showsTheSet() {
  // Titled by the set's name, and under it by its request's number and publishing date, never by its UUID.
  expect(await screen.findByRole('heading', { level: 1, name: shown!.title })).toBeInTheDocument();
  expect(screen.getByText('Запит #8, надіслано на публікацію 20.11.2026 10:00')).toBeInTheDocument();
  expect(screen.queryByText(new RegExp(idUpload))).toBeNull();
  const rows = screen.getAllByRole('row').slice(1);
  shown!.video.forEach((each, index) => {
    const profile = shown!.accounts.find((account) => account.id === each.account?.id);
    if (profile) expect(within(rows[index]).getByRole('link', { name: profile.title })).toHaveAttribute('href', `/accounts/${profile.id}`);
  });
  expect(rows.map((row) => within(row).getAllByRole('cell')[0].textContent)).toEqual(shown!.video.map((each) => String(each.id)));
  shown!.video.forEach((each, index) => expect(within(rows[index]).getByText(statusLabel[each.status])).toBeInTheDocument());
  expect(screen.getByLabelText('Назва')).toHaveValue('Випуск');
  for (const text of toasts) expect(await screen.findByText(text)).toBeInTheDocument();
}

/** The undo toast is there exactly while the machine offers the undo. */
function offersUndo(undoable: number | null) {
  if (undoable === null) expect(screen.queryByRole('button', { name: /^Повернути публікацію/ })).toBeNull();
  else {
    expect(screen.getByText(`Публікацію відео #${undoable} скасовано`)).toBeInTheDocument();
    expect(undoButton()).toBeEnabled();
  }
}

const states = {
  loading: () => {
    expect(screen.getByRole('status', { name: 'Завантаження' })).toBeInTheDocument();
    expect(server.pending()).toEqual([`GET ${setPath}`]);
  },
  'ready.polling': async ({ context }: { context: PublishedContext }) => {
    await waitFor(() => expect(retryButton()).toBeEnabled());
    await showsTheSet();
    offersUndo(context.undoable);
    expect(server.pending()).toEqual([]);
  },
  'ready.settled': async ({ context }: { context: PublishedContext }) => {
    await waitFor(() => expect(retryButton()).toBeEnabled());
    await showsTheSet();
    offersUndo(context.undoable);
    // Nothing is on its way any more: coming back to the tab asks the server nothing.
    setTab('hidden');
    setTab('visible');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.pending()).toEqual([]);
  },
  'ready.refreshing': async () => {
    await waitFor(() => expect(server.pending()).toEqual([`GET ${setPath}`]));
    await showsTheSet();
  },
  retrying: async () => {
    await waitFor(() => expect(retryButton()).toBeDisabled());
    expect(server.pending()).toEqual(['POST /upload-video/upload']);
  },
  saving: async () => {
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Зберегти' })[0]).toBeDisabled());
    expect(server.pending()).toEqual([`PATCH ${setPath}`]);
  },
  rescheduling: async () => {
    await waitFor(() => expect(editor().getByRole('button', { name: 'Зберегти' })).toBeDisabled());
    expect(server.pending()).toEqual([`PATCH ${schedulePath}`]);
  },
  cancellingSchedule: async () => {
    await waitFor(() => expect(editor().getByRole('button', { name: 'Скасувати публікацію' })).toBeDisabled());
    expect(server.pending()).toEqual([`DELETE ${schedulePath}/schedule`]);
  },
  // The toast stays while the undo is sent, its button still in the keyboard's hand.
  restoringSchedule: async () => {
    await waitFor(() => expect(server.pending()).toEqual([`POST ${schedulePath}/schedule`]));
    offersUndo(1);
    expect(undoButton()).toHaveFocus();
  },
  failed: async () => {
    await waitFor(() => expect(location.history?.at(-1)).toBe('/video/list'));
    for (const text of toasts) expect(await screen.findByText(text)).toBeInTheDocument();
  },
};

describe('published set screen, walked along the published machine', () => {
  const paths = model.getShortestPaths();

  it('reaches every state of the machine', () => {
    expect(statesReached(paths)).toEqual(
      [
        '"cancellingSchedule"',
        '"failed"',
        '"loading"',
        '{"ready":"refreshing"}',
        '"rescheduling"',
        '"restoringSchedule"',
        '"retrying"',
        '"saving"',
        '{"ready":"polling"}',
        '{"ready":"settled"}',
      ].sort(),
    );
  });

  testEachPath(paths, { events: events as never, states });
});

describe('published set journeys the graph does not give', () => {
  it("keeps the publication when the operator answers 'Залишити', sending nothing, and gives the keyboard back to the editor", async () => {
    await events['xstate.init']();
    await answerSet(busy)();
    await user.click(await screen.findByRole('button', { name: 'Змінити публікацію відео #1' }));
    await user.click(editor().getByRole('button', { name: 'Скасувати публікацію' }));
    const dialog = within(screen.getByRole('alertdialog', { name: 'Скасувати публікацію відео #1?' }));
    // Enter never cancels by accident: the focus starts on the answer that keeps it.
    expect(dialog.getByRole('button', { name: 'Залишити' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(editor().getByRole('button', { name: 'Скасувати публікацію' })).toHaveFocus();
    expect(server.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('reads nothing while the tab is hidden, and stops reading when the screen closes', async () => {
    await events['xstate.init']();
    await answerSet(busy)();
    await screen.findByRole('heading', { level: 1, name: 'Випуск' });
    setTab('hidden');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.pending()).toEqual([]);
    cleanup();
    setTab('visible');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.pending()).toEqual([]);
  });
});
