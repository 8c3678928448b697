import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { TestModel } from 'xstate/graph';
import { ApiError } from '../../src/lib/api';
import * as t from '../../src/lib/i18n';
import type { CalendarPost, CalendarRange } from '../../src/lib/contract';
import { calendarMachine, calendarPath, type CalendarContext } from '../../src/machines/calendar-machine';
import { CalendarScreen } from '../../src/screens/calendar/calendar-screen';
import { renderScreen } from './render';
import { errorBody, serverDouble, type ServerDouble, statesReached, testEachPath } from './server-double';
import { calendarPost } from '../fixtures/calendar-post';

/**
 * The undo's window as long as an hour, so that it never ends by itself while a path is walked;
 * the step 'undo.expire' makes the hour pass. The 10 s are the machine's own test
 * (tests/machines/calendar-machine.test.ts).
 */
const { undoWindow } = vi.hoisted(() => ({ undoWindow: 3_600_000 }));
vi.mock('../../src/machines/calendar-machine', async (original) => {
  const actual = await original<typeof import('../../src/machines/calendar-machine')>();
  return { ...actual, calendarMachine: actual.calendarMachine.provide({ delays: { undoWindow } }) };
});

/**
 * jsdom lays nothing out, and dnd-kit finds the day under a dragged post by its box: each day of
 * the week is drawn 100 px wide side by side, each post 30 px high under its date, and the post in
 * the hand (dnd-kit's overlay, outside every day) where it was picked up.
 */
function layOutTheWeek() {
  let picked = new DOMRect(0, 0, 0, 0);
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const cell = this.closest<HTMLElement>('[data-day]');
    if (!cell) return picked;
    const left = [...cell.parentElement!.children].indexOf(cell) * 100;
    if (this === cell) return new DOMRect(left, 100, 100, 400);
    picked = new DOMRect(left + 5, 140, 90, 30);
    return picked;
  });
}

const idUpload = '5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
/** Wednesday 25 November 2026, 10:30 in Kyiv: video 11's post, which the operator moves to Thursday or cancels. */
const scheduled: CalendarPost = calendarPost({
  id: 1,
  videoId: 11,
  idUpload,
  title: 'Ранковий випуск',
  platform: 'instagram',
  scheduledAt: '2026-11-25T08:30:00.000Z',
  account: { id: 4, title: '#4 Ранок' },
  waitKind: null,
  waitReason: null,
  changeable: true,
});
const weekOf = (...posts: CalendarPost[]): CalendarRange => ({
  posts,
  truncated: false,
  sets: [],
  accounts: [{ id: 4, title: '#4 Ранок' }],
  groups: [],
  slots: null,
});
const before = weekOf(scheduled);
/** The server's posts are new rows after a move (replanPosts), so the post comes back with a new id. */
const moved = weekOf({ ...scheduled, id: 2, scheduledAt: '2026-11-26T08:30:00.000Z' });
const cancelled = weekOf();
const week = calendarPath({ view: 'week', anchor: '2026-11-25', accountId: null });
const schedulePath = `/upload-video/${idUpload}/video/11`;
const down = 'Сервер тимчасово недоступний';
const capRefusal = 'Не перенесено: профіль #4 Ранок — ліміт Instagram 2 на добу';
const restoreRefused = 'Не можна повернути публікацію: її профіль видалено';
/** Issue 43.5: the move lands within the profile's gap of another post: a possible duplicate, asked about. */
const duplicate = 'Відео #11: профіль #4 Ранок публікує відео #12 о 26.11 11:00 — ближче, ніж його проміжок 90 хв';
const duplicateRefusal = new ApiError(409, [t.spread.duplicatesFound, duplicate]);

function eventsFor(snapshot: Parameters<typeof calendarMachine.getPersistedSnapshot>[0]) {
  const { context } = snapshot;
  const onWednesday = context.range?.posts.some((post) => post.scheduledAt === scheduled.scheduledAt);
  const ready = snapshot.matches({ browsing: 'ready' });
  return [
    { type: 'xstate.done.actor.load', output: before },
    { type: 'xstate.done.actor.load', output: moved },
    { type: 'xstate.done.actor.load', output: cancelled },
    { type: 'xstate.error.actor.load', error: new ApiError(500, [down]) },
    // A failed read is read again from 'Сьогодні', the same week.
    ...(snapshot.matches({ browsing: 'failed' }) ? [{ type: 'period.today' }] : []),
    ...(ready && onWednesday ? [{ type: 'post.move', post: context.range!.posts[0], day: '2026-11-26' }] : []),
    ...(ready && context.range?.posts.length ? [{ type: 'post.cancel', post: context.range.posts[0], allPlatforms: false }] : []),
    { type: 'xstate.done.actor.move', output: {} },
    { type: 'xstate.error.actor.move', error: new ApiError(409, [capRefusal]) },
    { type: 'xstate.error.actor.move', error: duplicateRefusal },
    ...(snapshot.matches('confirmingDuplicate') ? [{ type: 'duplicate.confirm' }, { type: 'duplicate.dismiss' }] : []),
    { type: 'xstate.done.actor.cancelSchedule', output: {} },
    { type: 'xstate.error.actor.cancelSchedule', error: new ApiError(500, [down]) },
    ...(ready && context.undoable ? [{ type: 'cancel.restore' }, { type: 'undo.expire' }] : []),
    { type: 'xstate.done.actor.restoreSchedule', output: {} },
    { type: 'xstate.error.actor.restoreSchedule', error: new ApiError(409, [restoreRefused]) },
  ] as never[];
}

const model = new TestModel(calendarMachine, {
  events: eventsFor,
  stateMatcher: (snapshot, key) => snapshot.matches(key as never),
  filterEvents: (snapshot, event) => snapshot.can(event as never),
  serializeState: (snapshot, event, previous) => {
    const seen = (each: typeof snapshot) => [
      each.value,
      each.context.range?.posts.map((post) => post.scheduledAt),
      each.context.undoable?.videoId,
      each.context.error ? 'error' : null,
    ];
    const changed = !previous || JSON.stringify(seen(previous)) !== JSON.stringify(seen(snapshot));
    return JSON.stringify([...seen(snapshot), changed ? event?.type : undefined]);
  },
});

let server: ServerDouble;
let user: UserEvent;
/** The week the server last sent, and the toasts the operator has been shown since. */
let shown: CalendarRange | null;
let toasts: string[];

beforeEach(() => {
  // Wednesday 25 November 2026, 10:00 in Kyiv; the undo's window is the machine's timer, the rest runs in real time.
  vi.useFakeTimers({ shouldAdvanceTime: true, now: new Date('2026-11-25T08:00:00Z') });
  layOutTheWeek();
  server = serverDouble();
  user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  shown = null;
  toasts = [];
});

afterEach(() => {
  toast.remove();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const day = (date: string) => within(document.querySelector<HTMLElement>(`[data-day="${date}"]`)!);
const handle = () => screen.getByRole('button', { name: 'Перенести 10:30 Instagram: Ранковий випуск' });
const cancelButton = () => screen.getByRole('button', { name: 'Скасувати публікацію 10:30 Instagram: Ранковий випуск' });
const undoButton = () => screen.getByRole('button', { name: 'Повернути публікацію відео #11 в Instagram' });
const answerWeek = async (range: CalendarRange) => {
  await server.answer('GET', week, 200, range);
  shown = range;
};

const events = {
  'xstate.init': async () => {
    renderScreen(<CalendarScreen />, { path: '/calendar' });
  },
  'xstate.done.actor.load': ({ event }: { event: { output: CalendarRange } }) => answerWeek(event.output),
  'xstate.error.actor.load': async () => {
    await server.answer('GET', week, 500, errorBody(500, down));
  },
  'period.today': () => user.click(screen.getByRole('button', { name: 'Сьогодні' })),
  // The keyboard alone: the post's handle, Space to pick it up, an arrow to the next day, Space to drop it.
  'post.move': async () => {
    handle().focus();
    await user.keyboard('[Space]');
    await waitFor(() => expect(document.body).toHaveTextContent('10:30 Instagram: Ранковий випуск: над днем Ср 25.11'));
    await user.keyboard('[ArrowRight]');
    await waitFor(() => expect(document.body).toHaveTextContent('10:30 Instagram: Ранковий випуск: над днем Чт 26.11'));
    await user.keyboard('[Space]');
  },
  'xstate.done.actor.move': async () => {
    // The same Kyiv time on the day it was dropped on (and the operator's consent, when asked: see 'duplicate.confirm').
    expect(server.calls.at(-1)!.body).toMatchObject({ date: '2026-11-26T10:30', platform: 'instagram' });
    await server.answer('PATCH', schedulePath, 200, {});
    toasts.push('Публікацію перенесено на 26.11 о 10:30');
  },
  'xstate.error.actor.move': async ({ event }: { event: { error: ApiError } }) => {
    await server.answer('PATCH', schedulePath, 409, errorBody(409, event.error.messages));
    if (event.error !== duplicateRefusal) toasts.push(capRefusal);
  },
  'duplicate.confirm': async () => {
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Все одно перенести' }));
    await waitFor(() =>
      expect(server.calls.at(-1)!.body).toEqual({ date: '2026-11-26T10:30', platform: 'instagram', allowDuplicates: true }),
    );
  },
  'duplicate.dismiss': () => user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Скасувати' })),
  // Asked first, naming exactly what goes: nothing is sent until the dialog's own 'Скасувати публікацію в Instagram'.
  // The video has no other post, so there is no choice of cancelling all its platforms.
  'post.cancel': async ({ event }: { event: { post: CalendarPost } }) => {
    await user.click(cancelButton());
    const dialog = screen.getByRole('alertdialog', { name: 'Скасувати публікацію відео #11 в Instagram?' });
    const time = event.post.scheduledAt === scheduled.scheduledAt ? '25.11.2026 10:30' : '26.11.2026 10:30';
    expect(dialog).toHaveTextContent(`Відео#11 «Ранковий випуск»ПлатформаInstagramПрофіль#4 РанокЧас${time}`);
    expect(within(dialog).queryByRole('button', { name: 'Скасувати всі платформи відео' })).toBeNull();
    expect(server.pending()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Скасувати публікацію в Instagram' }));
  },
  'xstate.done.actor.cancelSchedule': async () => {
    await server.answer('DELETE', `${schedulePath}/schedule/instagram`, 200, {});
    await waitFor(() => expect(undoButton()).toHaveFocus());
    expect(screen.getByText('Публікацію відео #11 в Instagram скасовано')).toBeInTheDocument();
  },
  'xstate.error.actor.cancelSchedule': async () => {
    await server.answer('DELETE', `${schedulePath}/schedule/instagram`, 500, errorBody(500, down));
    toasts.push(down);
  },
  'cancel.restore': () => user.click(undoButton()),
  'xstate.done.actor.restoreSchedule': async () => {
    await server.answer('POST', `${schedulePath}/schedule/instagram`, 200, {});
    toasts.push('Публікацію повернуто');
  },
  'xstate.error.actor.restoreSchedule': async () => {
    await server.answer('POST', `${schedulePath}/schedule/instagram`, 409, errorBody(409, restoreRefused));
    toasts.push(restoreRefused);
  },
  // The toast goes, and the keyboard it held goes to the period's heading rather than the page.
  'undo.expire': async () => {
    const hadFocus = document.activeElement === undoButton();
    await vi.advanceTimersByTimeAsync(undoWindow);
    await waitFor(() => expect(screen.queryByText('Публікацію відео #11 в Instagram скасовано')).toBeNull());
    if (hadFocus) expect(screen.getByRole('heading', { level: 2, name: '23.11 – 29.11.2026' })).toHaveFocus();
    toasts = [];
  },
};

/** Where the post is drawn: Wednesday, Thursday, or nowhere. */
function postShownOn(context: CalendarContext) {
  const at = context.range?.posts[0]?.scheduledAt;
  const wednesday = day('2026-11-25').queryAllByRole('button', { name: /^Перенести/ });
  const thursday = day('2026-11-26').queryAllByRole('button', { name: /^Перенести/ });
  expect([wednesday.length, thursday.length]).toEqual(
    at === scheduled.scheduledAt ? [1, 0] : at === moved.posts[0]!.scheduledAt ? [0, 1] : [0, 0],
  );
}

async function toastsShown() {
  for (const text of toasts) expect(await screen.findByText(text)).toBeInTheDocument();
}

function offersUndo(context: CalendarContext) {
  if (context.undoable === null) expect(screen.queryByRole('button', { name: /^Повернути публікацію/ })).toBeNull();
  else expect(undoButton()).toBeEnabled();
}

const states = {
  'browsing.loading': async () => {
    await waitFor(() => expect(server.pending()).toEqual([`GET ${week}`]));
  },
  'browsing.ready': async ({ context }: { context: CalendarContext }) => {
    await waitFor(() => postShownOn(context));
    expect(context.range).toEqual(shown);
    expect(server.pending()).toEqual([]);
    if (context.range!.posts.length > 0) {
      expect(handle()).toBeEnabled();
      expect(cancelButton()).toBeEnabled();
    } else expect(screen.getByText('У цьому періоді публікацій немає')).toBeInTheDocument();
    offersUndo(context);
    await toastsShown();
  },
  'browsing.failed': async () => {
    expect(await screen.findByRole('alert')).toHaveTextContent(down);
  },
  // Shown on Thursday at once, while the server takes the move; nothing else starts meanwhile.
  moving: async ({ context }: { context: CalendarContext }) => {
    await waitFor(() => expect(server.pending()).toEqual([`PATCH ${schedulePath}`]));
    postShownOn(context);
    expect(day('2026-11-26').getByRole('button', { name: /^Скасувати публікацію/ })).toBeDisabled();
    expect(screen.getByText('10:30 Instagram: Ранковий випуск покладено на Чт 26.11 о 10:30, переносимо')).toBeInTheDocument();
  },
  // Asked, the post still on Thursday, nothing sent until the operator answers.
  confirmingDuplicate: async ({ context }: { context: CalendarContext }) => {
    const dialog = await screen.findByRole('alertdialog', { name: 'Перенести, попри можливий дубль?' });
    expect(dialog).toHaveTextContent(duplicate);
    expect(server.pending()).toEqual([]);
    postShownOn(context);
    expect(toasts).toEqual([]);
  },
  cancelling: async () => {
    await waitFor(() => expect(server.pending()).toEqual([`DELETE ${schedulePath}/schedule/instagram`]));
    expect(cancelButton()).toBeDisabled();
  },
  // The toast stays while the undo is sent, its button still in the keyboard's hand.
  restoring: async () => {
    await waitFor(() => expect(server.pending()).toEqual([`POST ${schedulePath}/schedule/instagram`]));
    expect(undoButton()).toHaveFocus();
  },
};

describe('calendar screen, walked along the calendar machine', () => {
  const paths = model.getShortestPaths();

  it('reaches every state of the machine', () => {
    expect(statesReached(paths)).toEqual(
      [
        '"cancelling"',
        '"confirmingDuplicate"',
        '"moving"',
        '"restoring"',
        '{"browsing":"failed"}',
        '{"browsing":"loading"}',
        '{"browsing":"ready"}',
      ].sort(),
    );
  });

  testEachPath(paths, { events: events as never, states });
});

describe('calendar journeys the graph does not give', () => {
  it('takes no drop on a day gone by, and leaves the post where it was when Escape ends the move, sending nothing', async () => {
    await events['xstate.init']();
    await answerWeek(before);
    await waitFor(() => expect(handle()).toBeEnabled());
    handle().focus();
    await user.keyboard('[Space]');
    await waitFor(() => expect(document.body).toHaveTextContent('10:30 Instagram: Ранковий випуск: над днем Ср 25.11'));
    // Tuesday has passed: the post stays over Wednesday.
    await user.keyboard('[ArrowLeft]');
    await user.keyboard('[Space]');
    await waitFor(() => expect(document.body).toHaveTextContent('10:30 Instagram: Ранковий випуск лишилася на своєму дні'));
    handle().focus();
    await user.keyboard('[Space]');
    await user.keyboard('[ArrowRight]');
    await user.keyboard('[Escape]');
    await waitFor(() =>
      expect(document.body).toHaveTextContent('Перенесення скасовано, 10:30 Instagram: Ранковий випуск лишилася на місці'),
    );
    expect(day('2026-11-25').getAllByRole('button', { name: /^Перенести/ })).toHaveLength(1);
    expect(server.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });
});

describe('one post of a video on two platforms', () => {
  const youtube = calendarPost({ ...scheduled, id: 5, platform: 'youtube' });
  const tiktok = calendarPost({ ...scheduled, id: 6, platform: 'tiktok' });
  const otherProfile = calendarPost({ ...scheduled, id: 7, videoId: 12, platform: 'tiktok', account: { id: 5, title: '#5 Вечір' } });
  const both = weekOf(youtube, tiktok, otherProfile);
  const sent = () => server.calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.path}`);

  async function askToCancelYouTube(range = both) {
    await events['xstate.init']();
    await answerWeek(range);
    await user.click(await screen.findByRole('button', { name: 'Скасувати публікацію 10:30 YouTube: Ранковий випуск' }));
    return screen.getByRole('alertdialog', { name: 'Скасувати публікацію відео #11 в YouTube?' });
  }

  it("names each post's profile and its state in words, and says what each look means", async () => {
    await events['xstate.init']();
    await answerWeek(both);
    await waitFor(() => expect(day('2026-11-25').getAllByRole('link')).toHaveLength(3));
    expect(
      day('2026-11-25')
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      '10:30 YouTube: Ранковий випуск#4 Ранок · Заплановано',
      '10:30 TikTok: Ранковий випуск#4 Ранок · Заплановано',
      '10:30 TikTok: Ранковий випуск#5 Вечір · Заплановано',
    ]);
    const legend = screen.getByRole('list', { name: 'Позначення' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Заплановано', 'Публікується', 'Опубліковано', 'Утримано', 'Помилка', 'Повторна спроба']);
  });

  it('cancels the YouTube post alone after listing what goes and what stays, and the undo puts back that post', async () => {
    const dialog = await askToCancelYouTube();
    expect(dialog).toHaveTextContent('Відео#11 «Ранковий випуск»ПлатформаYouTubeПрофіль#4 РанокЧас25.11.2026 10:30');
    expect(dialog).toHaveTextContent(
      'Публікації відео на інших платформах залишаться: TikTok, 25.11.2026 10:30, заплановано. ' +
        'Кнопка «Скасувати всі платформи відео» скасує й їх. Скасоване можна повернути ще 10 секунд.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Скасувати публікацію в YouTube' }));
    await server.answer('DELETE', `${schedulePath}/schedule/youtube`, 200, {});
    await answerWeek(weekOf(tiktok, otherProfile));
    const undo = screen.getByRole('button', { name: 'Повернути публікацію відео #11 в YouTube' });
    await waitFor(() => expect(undo).toHaveFocus());
    expect(screen.getByText('Публікацію відео #11 в YouTube скасовано')).toBeInTheDocument();
    // The TikTok post of the same video stays in the week.
    await waitFor(() => expect(day('2026-11-25').getAllByRole('link')).toHaveLength(2));
    expect(day('2026-11-25').getByRole('link', { name: '10:30 TikTok: Ранковий випуск, #4 Ранок, Заплановано' })).toBeInTheDocument();

    await user.click(undo);
    await server.answer('POST', `${schedulePath}/schedule/youtube`, 200, {});
    expect(await screen.findByText('Публікацію повернуто')).toBeInTheDocument();
    expect(sent()).toEqual([`DELETE ${schedulePath}/schedule/youtube`, `POST ${schedulePath}/schedule/youtube`]);
  });

  it("cancels all the video's platforms as a choice of its own, and puts them all back", async () => {
    const dialog = await askToCancelYouTube();
    await user.click(within(dialog).getByRole('button', { name: 'Скасувати всі платформи відео' }));
    await server.answer('DELETE', `${schedulePath}/schedule`, 200, {});
    await answerWeek(weekOf(otherProfile));
    await user.click(await screen.findByRole('button', { name: 'Повернути публікацію відео #11' }));
    expect(screen.getByText('Публікацію відео #11 скасовано')).toBeInTheDocument();
    await server.answer('POST', `${schedulePath}/schedule`, 200, {});
    expect(await screen.findByText('Публікацію повернуто')).toBeInTheDocument();
    expect(sent()).toEqual([`DELETE ${schedulePath}/schedule`, `POST ${schedulePath}/schedule`]);
  });

  it('offers the post alone, and moves it alone, while another post of its video has gone out', async () => {
    const out = calendarPost({ ...tiktok, state: 'published', changeable: false, cancellable: false });
    const dialog = await askToCancelYouTube(weekOf({ ...youtube, changeable: false, cancellable: true }, out));
    const handles = screen.getAllByRole('button', { name: /^Перенести/ });
    expect(handles.map((handle) => handle.getAttribute('aria-label'))).toEqual([expect.stringMatching(/^Перенести 10:30 YouTube: /)]);
    expect(dialog).toHaveTextContent('Публікації відео на інших платформах залишаться: TikTok, 25.11.2026 10:30, опубліковано.');
    expect(within(dialog).queryByRole('button', { name: 'Скасувати всі платформи відео' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Залишити' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(sent()).toEqual([]);
  });

  it("gives a month's post its whole words on hover, profile and state included", async () => {
    await events['xstate.init']();
    await answerWeek(both);
    await user.click(await screen.findByRole('button', { name: 'Місяць' }));
    await server.answer('GET', calendarPath({ view: 'month', anchor: '2026-11-25', accountId: null }), 200, both);
    const link = await day('2026-11-25').findByRole('link', { name: /^10:30 YouTube/ });
    expect(link).toHaveAttribute('title', '10:30 YouTube: Ранковий випуск, #4 Ранок, Заплановано');
    expect(link).toHaveTextContent('#4 Ранок · Заплановано');
  });
});
