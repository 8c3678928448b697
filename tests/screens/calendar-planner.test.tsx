import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api } from '../../src/lib/api';
import type { CalendarPost, CalendarRange } from '../../src/lib/contract';
import { calendarPath } from '../../src/machines/calendar-machine';
import { CalendarScreen } from '../../src/screens/calendar/calendar-screen';
import { answerApi, renderScreen } from './render';
import { calendarPost } from '../fixtures/calendar-post';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));

const idUpload = '5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
const post = (id: number, scheduledAt: string, changes: Partial<CalendarPost> = {}): CalendarPost =>
  calendarPost({
    id,
    videoId: id,
    idUpload,
    title: 'Випуск',
    platform: 'youtube',
    scheduledAt,
    account: { id: 4, title: '#4 Ранок' },
    waitKind: null,
    waitReason: null,
    changeable: true,
    ...changes,
  });
const weekOf = (posts: CalendarPost[], changes: Partial<CalendarRange> = {}): CalendarRange => ({
  posts,
  truncated: false,
  sets: [],
  accounts: [{ id: 4, title: '#4 Ранок' }],
  groups: [{ id: 9, title: 'Будні' }],
  slots: null,
  ...changes,
});
const week = calendarPath({ view: 'week', anchor: '2026-11-25', accountId: null });

beforeEach(() => {
  vi.mocked(api).mockReset();
  // Wednesday 25 November 2026, 08:00 in Kyiv.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-25T06:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('calendar as a planner', () => {
  it('tells a post held on a cap or a quota from one tried again after a failure, in words and by the handle each keeps', async () => {
    const cap = 'Ліміт YouTube: 100 завантажень на день для проєкту Google вичерпано (доба за тихоокеанським часом)';
    const quota = 'Платформа просить зачекати: квота вичерпана';
    const retry = 'Спроба не вдалася: YouTube: платформа тимчасово недоступна';
    answerApi({
      [`GET ${week}`]: weekOf([
        post(1, '2026-11-25T08:30:00Z', { waitKind: 'cap', waitReason: cap }),
        post(2, '2026-11-25T09:30:00Z', { waitKind: 'quota', waitReason: quota }),
        post(3, '2026-11-25T10:30:00Z', { waitKind: 'retry', waitReason: retry }),
        post(4, '2026-11-25T11:30:00Z', { state: 'published', changeable: false }),
      ]),
    });
    renderScreen(<CalendarScreen />, { path: '/calendar' });
    const held = await screen.findByRole('link', { name: /^10:30 YouTube/ });
    expect(held).toHaveTextContent('Утримано: ліміт');
    expect(held).toHaveAccessibleName(`10:30 YouTube: Випуск, #4 Ранок, Утримано: ліміт — ${cap}`);
    expect(screen.getByRole('link', { name: /^11:30 YouTube/ })).toHaveTextContent('Утримано: квота');
    const retried = screen.getByRole('link', { name: /^12:30 YouTube/ });
    expect(retried).toHaveTextContent('Повторна спроба');
    expect(retried).not.toHaveTextContent('Утримано');
    expect(retried).toHaveAccessibleName(`12:30 YouTube: Випуск, #4 Ранок, Повторна спроба — ${retry}`);
    // Each still waits unstarted, so each can be moved or cancelled; the post that went out cannot.
    const wednesday = within(document.querySelector<HTMLElement>('[data-day="2026-11-25"]')!);
    expect(wednesday.getAllByRole('button', { name: /^Перенести / }).map((button) => button.getAttribute('aria-label'))).toEqual([
      'Перенести 10:30 YouTube: Випуск',
      'Перенести 11:30 YouTube: Випуск',
      'Перенести 12:30 YouTube: Випуск',
    ]);
    expect(wednesday.getAllByRole('button', { name: /^Скасувати публікацію / })).toHaveLength(3);
    expect(wednesday.getByRole('link', { name: /^13:30 YouTube/ })).toHaveAccessibleName('13:30 YouTube: Випуск, #4 Ранок, Опубліковано');
    // dnd-kit's words for the handle, in Ukrainian.
    const handle = wednesday.getAllByRole('button', { name: /^Перенести / })[0]!;
    expect(handle).toHaveAttribute('aria-roledescription', 'публікація, яку можна перенести');
    expect(document.getElementById(handle.getAttribute('aria-describedby')!)).toHaveTextContent(/^Щоб узяти публікацію, натисніть пробіл/);
  });

  it("shows a group's profiles, and one profile's posting hours on its days and its days off", async () => {
    const group = calendarPath({ view: 'week', anchor: '2026-11-25', accountId: null, groupId: 9 });
    const profile = calendarPath({ view: 'week', anchor: '2026-11-25', accountId: 4 });
    answerApi({
      [`GET ${week}`]: weekOf([post(1, '2026-11-25T08:30:00Z')]),
      [`GET ${group}`]: weekOf([post(1, '2026-11-25T08:30:00Z')]),
      [`GET ${profile}`]: weekOf([post(1, '2026-11-25T08:30:00Z')], {
        slots: { from: '10:00', to: '20:00', minGapMinutes: 90, days: [1, 2, 3, 4, 5], source: 'profile' },
      }),
    });
    renderScreen(<CalendarScreen />, { path: '/calendar' });
    const filter = await screen.findByLabelText('Профіль або група');
    await waitFor(() => expect(within(filter).getByRole('group', { name: 'Групи' })).toHaveTextContent('Будні'));
    expect(within(filter).getByRole('group', { name: 'Профілі' })).toHaveTextContent('#4 Ранок');

    await userEvent.selectOptions(filter, 'g9');
    await waitFor(() => expect(vi.mocked(api).mock.calls.at(-1)).toEqual(['GET', group]));
    expect(screen.queryByText(/^слоти/)).toBeNull();

    await userEvent.selectOptions(filter, 'a4');
    const friday = within(document.querySelector<HTMLElement>('[data-day="2026-11-27"]')!);
    expect(await friday.findByText('слоти 10:00–20:00')).toBeInTheDocument();
    expect(within(document.querySelector<HTMLElement>('[data-day="2026-11-28"]')!).getByText('не публікує')).toBeInTheDocument();
    expect(within(document.querySelector<HTMLElement>('[data-day="2026-11-29"]')!).getByText('не публікує')).toBeInTheDocument();
  });
});
