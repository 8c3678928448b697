import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { api, ApiError } from '../../src/lib/api';
import type { CalendarRange, NotificationList, StatsReport, WaitKind } from '../../src/lib/contract';
import { calendarPath } from '../../src/machines/calendar-machine';
import { NotificationBell } from '../../src/components/notification-bell';
import { StatsPanel } from '../../src/components/stats-panel';
import { CalendarScreen } from '../../src/screens/calendar/calendar-screen';
import { answerApi, renderScreen } from './render';
import { calendarPost } from '../fixtures/calendar-post';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));
// uPlot draws on a canvas jsdom does not have; the browser test (tests/e2e/stats-calendar.test.ts) sees the real chart.
vi.mock('../../src/components/stats-chart', () => ({
  StatsChart: ({ lines }: { lines: StatsReport['views'] }) => (
    <div data-testid="chart">{lines.map((series) => `${series.platform}:${series.values.join(',')}`).join(' ')}</div>
  ),
}));

beforeEach(() => {
  vi.mocked(api).mockReset();
});

const idUpload = '0b7c4d3e-1111-4222-8333-444455556666';

function report(days: StatsReport['days'], views: number[]): StatsReport {
  return {
    days,
    at: views.map((_, index) => 1_795_000_000 + index * 3600),
    views: [{ platform: 'youtube', values: views }],
    byPlatform: [{ platform: 'youtube', posts: 2, views: views.at(-1)!, likes: 12, comments: 3 }],
    byProfile: [
      { account: { id: 4, title: '#4 Ранок' }, posts: 1, views: 100, likes: 10, comments: 1 },
      { account: null, posts: 1, views: views.at(-1)! - 100, likes: 2, comments: 2 },
    ],
    syncedAt: '2026-11-25T08:30:00.000Z',
  };
}

const empty: StatsReport = { days: 7, at: [1, 2], views: [], byPlatform: [], byProfile: [], syncedAt: null };

describe('statistics panel', () => {
  it('shows the chart of the week, the totals per platform and per profile, and loads the period picked', async () => {
    answerApi({
      [`GET /stats/video/${idUpload}?days=7`]: report(7, [0, 150, 400]),
      [`GET /stats/video/${idUpload}?days=30`]: report(30, [0, 900]),
    });
    renderScreen(<StatsPanel path={`/stats/video/${idUpload}`} />);

    expect(await screen.findByTestId('chart')).toHaveTextContent('youtube:0,150,400');
    expect(screen.getByRole('button', { name: '7 днів' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Синхронізовано 25.11.2026 10:30')).toBeInTheDocument();
    const [platforms, profiles] = screen.getAllByRole('table');
    expect(within(platforms!).getAllByRole('row')[1]).toHaveTextContent(/^YouTube2400123$/);
    expect(within(profiles!).getAllByRole('row')[1]).toHaveTextContent(/^#4 Ранок1100101$/);
    expect(within(profiles!).getAllByRole('row')[2]).toHaveTextContent(/^Профіль видалено1300/);

    await userEvent.click(screen.getByRole('button', { name: '30 днів' }));
    await waitFor(() => expect(screen.getByTestId('chart')).toHaveTextContent('youtube:0,900'));
    expect(screen.getByRole('button', { name: '30 днів' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: '7 днів' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('says there are no statistics yet before the first sync, and leaves out the profiles table on a profile', async () => {
    answerApi({ 'GET /stats/accounts/4?days=7': empty });
    renderScreen(<StatsPanel path="/stats/accounts/4" byProfile={false} />);
    expect(
      await screen.findByText('Статистики ще немає: вона зʼявиться після першої синхронізації опублікованих відео'),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('chart')).toBeNull();

    answerApi({ 'GET /stats/accounts/4?days=7': report(7, [5, 9]) });
    await userEvent.click(screen.getByRole('button', { name: '7 днів' }));
    await screen.findByTestId('chart');
    expect(screen.getByText('За платформами')).toBeInTheDocument();
    expect(screen.queryByText('За профілями')).toBeNull();
  });

  it("reaches the chart's figures as a table from the keyboard: a row per moment, a column per platform", async () => {
    answerApi({
      [`GET /stats/video/${idUpload}?days=7`]: {
        ...report(7, [0, 150, 400]),
        views: [
          { platform: 'youtube', values: [0, 150, 400] },
          { platform: 'tiktok', values: [5, 5, 90] },
        ],
      },
    });
    renderScreen(<StatsPanel path={`/stats/video/${idUpload}`} />);
    const toggle = await screen.findByRole('button', { name: 'Показати таблицею' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getAllByRole('table')).toHaveLength(2);

    for (let stops = 0; stops < 10 && document.activeElement !== toggle; stops++) await userEvent.tab();
    expect(toggle).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(toggle).toHaveAccessibleName('Сховати таблицю');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const views = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    const rows = within(views)
      .getAllByRole('row')
      .map((row) => [...within(row).queryAllByRole('columnheader'), ...within(row).queryAllByRole('cell')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Дата', 'YouTube', 'TikTok'],
      ['18.11.2026 13:06', '0', '5'],
      ['18.11.2026 14:06', '150', '5'],
      ['18.11.2026 15:06', '400', '90'],
    ]);

    await userEvent.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getAllByRole('table')).toHaveLength(2);
  });

  it("shows the server's words when the report cannot be read", async () => {
    answerApi({
      'GET /stats/accounts/9?days=7': () => {
        throw new ApiError(404, ['Профіль не знайдено']);
      },
    });
    renderScreen(<StatsPanel path="/stats/accounts/9" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Профіль не знайдено');
  });
});

describe('calendar screen', () => {
  beforeEach(() => {
    // Wednesday 25 November 2026, 12:00 in Kyiv.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T10:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const range = (posts: CalendarRange['posts']): CalendarRange => ({
    posts,
    truncated: false,
    sets: [],
    accounts: [
      { id: 4, title: '#4 Ранок' },
      { id: 5, title: '#5 Вечір' },
    ],
    groups: [],
    slots: null,
  });
  const post = (
    id: number,
    scheduledAt: string,
    state: 'scheduled' | 'published' | 'failed',
    accountId = 4,
    wait: { waitKind: WaitKind; waitReason: string } | null = null,
  ) =>
    calendarPost({
      id,
      videoId: id,
      idUpload,
      title: 'Ранковий випуск',
      platform: 'youtube' as const,
      ...(wait ? {} : { state }),
      scheduledAt,
      account: { id: accountId, title: `#${accountId} Ранок` },
      waitKind: wait?.waitKind ?? null,
      waitReason: wait?.waitReason ?? null,
      changeable: false,
    });

  it('marks a waiting post by why it waits, a cap apart from a retry and a reconnect, and gives its reason in the title', async () => {
    const week = calendarPath({ view: 'week', anchor: '2026-11-25', accountId: null });
    const cap = 'Ліміт YouTube: 100 завантажень на день для проєкту Google вичерпано (доба за тихоокеанським часом)';
    const retry = 'Спроба не вдалася: YouTube: платформа тимчасово недоступна';
    const reconnect = 'Доступ YouTube відкликано — підключіть профіль знову';
    answerApi({
      [`GET ${week}`]: range([
        post(7, '2026-11-25T08:30:00Z', 'scheduled', 4, { waitKind: 'cap', waitReason: cap }),
        post(8, '2026-11-25T09:30:00Z', 'scheduled', 4, { waitKind: 'retry', waitReason: retry }),
        post(9, '2026-11-25T10:30:00Z', 'scheduled', 4, { waitKind: 'reconnect', waitReason: reconnect }),
        post(10, '2026-11-25T11:30:00Z', 'scheduled'),
      ]),
    });
    renderScreen(<CalendarScreen />, { path: '/calendar' });
    const held = await screen.findByRole('link', { name: /^10:30 YouTube/ });
    expect(held).toHaveTextContent('Утримано: ліміт');
    expect(held.getAttribute('title')).toContain(`Утримано: ліміт — ${cap}`);
    const retried = screen.getByRole('link', { name: /^11:30 YouTube/ });
    expect(retried).toHaveTextContent('Повторна спроба');
    expect(retried).not.toHaveTextContent('Утримано');
    expect(retried.getAttribute('title')).toContain(`Повторна спроба — ${retry}`);
    const reconnecting = screen.getByRole('link', { name: /^12:30 YouTube/ });
    expect(reconnecting).toHaveTextContent('Утримано: підключення');
    expect(reconnecting.getAttribute('title')).toContain(`Утримано: підключення — ${reconnect}`);
    const planned = screen.getByRole('link', { name: /^13:30 YouTube/ });
    expect(planned.getAttribute('title')).toMatch(/Заплановано$/);
    expect(planned).not.toHaveTextContent(/Утримано|Повторна спроба|Чекає/);
  });

  it('shows the week in Kyiv days, each post opening its set, and moves by week, month and profile', async () => {
    const week = calendarPath({ view: 'week', anchor: '2026-11-25', accountId: null });
    expect(week).toBe(
      `/calendar?from=${encodeURIComponent('2026-11-22T22:00:00.000Z')}&to=${encodeURIComponent('2026-11-29T22:00:00.000Z')}`,
    );
    answerApi({
      // 22:30 UTC on Sunday the 22nd is already Monday the 23rd in Kyiv.
      [`GET ${week}`]: range([post(1, '2026-11-22T22:30:00Z', 'published'), post(2, '2026-11-25T08:30:00Z', 'scheduled')]),
      [`GET ${calendarPath({ view: 'month', anchor: '2026-11-25', accountId: null })}`]: range([
        post(1, '2026-11-22T22:30:00Z', 'published'),
        ...[3, 4, 5, 6].map((id) => post(id, '2026-11-27T09:00:00Z', 'scheduled')),
      ]),
    });
    const { location } = renderScreen(
      <>
        <Route path="/calendar" component={CalendarScreen} />
        <Route path="/video/youtube/:idUpload">opened</Route>
      </>,
      { path: '/calendar' },
    );

    expect(await screen.findByRole('heading', { name: '23.11 – 29.11.2026' })).toBeInTheDocument();
    await waitFor(() => expect(document.querySelectorAll('[data-day] a')).toHaveLength(2));
    const monday = document.querySelector('[data-day="2026-11-23"]') as HTMLElement;
    expect(within(monday).getByRole('link')).toHaveAccessibleName('00:30 YouTube: Ранковий випуск, #4 Ранок, Опубліковано');
    const wednesday = document.querySelector('[data-day="2026-11-25"]') as HTMLElement;
    expect(within(wednesday).getByRole('link')).toHaveAccessibleName('10:30 YouTube: Ранковий випуск, #4 Ранок, Заплановано');

    await userEvent.click(screen.getByRole('button', { name: 'Місяць' }));
    expect(await screen.findByRole('heading', { name: 'листопад 2026' })).toBeInTheDocument();
    // 1 November 2026 is a Sunday: six weeks, from Monday 26 October to Sunday 6 December.
    await waitFor(() => expect(document.querySelectorAll('[data-day]')).toHaveLength(42));
    const friday = document.querySelector('[data-day="2026-11-27"]') as HTMLElement;
    await waitFor(() => expect(within(friday).getAllByRole('link')).toHaveLength(3));
    // The day's week: the same week as before, now without posts.
    answerApi({
      [`GET ${week}`]: range([]),
      [`GET ${calendarPath({ view: 'week', anchor: '2026-11-27', accountId: 5 })}`]: range([]),
      [`GET ${calendarPath({ view: 'week', anchor: '2026-12-04', accountId: 5 })}`]: { ...range([]), accounts: [] },
    });
    await userEvent.click(within(friday).getByRole('button', { name: 'ще 1' }));
    expect(await screen.findByRole('heading', { name: '23.11 – 29.11.2026' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('У цьому періоді публікацій немає')).toBeInTheDocument());

    await userEvent.selectOptions(screen.getByLabelText('Профіль або група'), 'a5');
    await userEvent.click(screen.getByRole('button', { name: 'Наступний період' }));
    expect(await screen.findByRole('heading', { name: '30.11 – 06.12.2026' })).toBeInTheDocument();
    // The profile stays picked even where it has no posts.
    await waitFor(() => expect(screen.getByLabelText('Профіль або група')).toHaveValue('a5'));
    expect(vi.mocked(api).mock.calls.at(-1)).toEqual(['GET', calendarPath({ view: 'week', anchor: '2026-12-04', accountId: 5 })]);

    answerApi({ [`GET ${week}`]: range([post(2, '2026-11-25T08:30:00Z', 'scheduled')]) });
    await userEvent.selectOptions(screen.getByLabelText('Профіль або група'), '');
    answerApi({ [`GET ${week}`]: range([post(2, '2026-11-25T08:30:00Z', 'scheduled')]) });
    await userEvent.click(screen.getByRole('button', { name: 'Сьогодні' }));
    const link = await screen.findByRole('link', { name: /^10:30 YouTube/ });
    await userEvent.click(link);
    expect(location.history.at(-1)).toBe(`/video/youtube/${idUpload}`);
  });
});

describe('calendar month on a phone', () => {
  beforeEach(() => {
    // Wednesday 25 November 2026, 12:00 in Kyiv.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T10:00:00Z'));
    // The phone's width (calendar-screen.tsx asks for max-width: 768px).
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query) =>
        ({
          matches: query === '(max-width: 768px)',
          media: query,
          addEventListener() {},
          removeEventListener() {},
        }) as unknown as MediaQueryList,
    );
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  const post = (id: number, scheduledAt: string, state: 'scheduled' | 'published' | 'failed', title: string) => ({
    id,
    videoId: id,
    idUpload,
    title,
    platform: 'tiktok' as const,
    state,
    kind: null,
    url: null,
    error: null,
    scheduledAt,
    account: { id: 4, title: '#4 Ранок' },
    waitKind: null,
    waitReason: null,
    changeable: false,
  });

  it("counts each day's posts in the month and lists the picked day's posts with their titles under it", async () => {
    const week = calendarPath({ view: 'week', anchor: '2026-11-25', accountId: null });
    const month = calendarPath({ view: 'month', anchor: '2026-11-25', accountId: null });
    answerApi({
      [`GET ${week}`]: { posts: [], truncated: false, sets: [], accounts: [], groups: [], slots: null },
      [`GET ${month}`]: {
        posts: [
          post(1, '2026-11-20T08:00:00Z', 'published', 'Вчорашній випуск'),
          post(2, '2026-11-27T08:00:00Z', 'scheduled', 'Пʼятничний випуск'),
          post(3, '2026-11-27T09:00:00Z', 'failed', 'Невдалий випуск'),
        ],
        truncated: false,
        sets: [],
        accounts: [],
        groups: [],
        slots: null,
      },
    });
    renderScreen(<CalendarScreen />, { path: '/calendar' });
    await userEvent.click(await screen.findByRole('button', { name: 'Місяць' }));

    const friday = await screen.findByRole('button', { name: 'Пт 27.11: 2 публікації' });
    expect(screen.getByRole('button', { name: 'Пт 20.11: 1 публікація' })).toHaveAttribute('aria-pressed', 'false');
    // The next day with posts is listed first: Friday, after today.
    expect(friday).toHaveAttribute('aria-pressed', 'true');
    const listed = screen.getByRole('region', { name: 'Публікації за Пт 27.11' });
    expect(
      within(listed)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['10:00 TikTok: Пʼятничний випуск#4 Ранок · Заплановано', '11:00 TikTok: Невдалий випуск#4 Ранок · Помилка']);
    // Days without posts are no tab stops.
    expect(document.querySelectorAll('[data-day] button')).toHaveLength(2);
    expect(document.querySelectorAll('[data-day] a')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Пт 20.11: 1 публікація' }));
    const picked = screen.getByRole('region', { name: 'Публікації за Пт 20.11' });
    expect(within(picked).getByRole('link')).toHaveAccessibleName('10:00 TikTok: Вчорашній випуск, #4 Ранок, Опубліковано');
    expect(friday).toHaveAttribute('aria-pressed', 'false');
  });
});

describe('notification bell', () => {
  const otherUpload = '9b2f0a4e-3c1d-4e5f-8a7b-6c5d4e3f2a1b';
  const list: NotificationList = {
    unread: 2,
    items: [
      {
        id: 7,
        kind: 'set_posts',
        idUpload,
        account: null,
        title: 'Ранкова пробіжка',
        platform: null,
        message: null,
        posts: { published: 5, failed: 1, held: 0 },
        failure: null,
        createdAt: '2026-11-25T08:30:00.000Z',
        read: false,
      },
      {
        id: 6,
        kind: 'credentials_failed',
        idUpload: null,
        account: { id: 4, name: '#4 Олена' },
        title: null,
        platform: 'youtube',
        message: null,
        posts: null,
        failure: 'revoked',
        createdAt: '2026-11-25T08:00:00.000Z',
        read: false,
      },
      {
        id: 5,
        kind: 'set_posts',
        idUpload: otherUpload,
        account: null,
        title: '',
        platform: null,
        message: null,
        posts: { published: 0, failed: 2, held: 21 },
        failure: null,
        createdAt: '2026-11-24T09:00:00.000Z',
        read: true,
      },
      {
        id: 4,
        kind: 'credentials_failed',
        idUpload: null,
        account: { id: 9, name: '#9 olena (@olena)' },
        title: null,
        platform: 'tiktok',
        message: null,
        posts: null,
        failure: 'refused',
        createdAt: '2026-11-24T08:30:00.000Z',
        read: true,
      },
      {
        id: 3,
        kind: 'render_done',
        idUpload,
        account: null,
        title: 'Ранкова пробіжка',
        platform: null,
        message: null,
        posts: null,
        failure: null,
        createdAt: '2026-11-24T08:00:00.000Z',
        read: true,
      },
      {
        id: 1,
        kind: 'profile_unhealthy',
        idUpload: null,
        account: { id: 12, name: '#12 Ранок' },
        title: null,
        platform: null,
        message: null,
        posts: null,
        failure: null,
        health: 'proxy_unreachable',
        createdAt: '2026-11-23T07:00:00.000Z',
        read: true,
      },
      {
        id: 2,
        kind: 'sign_in_spray',
        idUpload: null,
        account: null,
        title: null,
        platform: null,
        message: 'admin',
        posts: null,
        failure: null,
        createdAt: '2026-11-23T08:00:00.000Z',
        read: true,
      },
    ],
  };
  it('counts the unread, lists each with its link, and marks one read when followed', async () => {
    const read: number[] = [];
    answerApi({
      'GET /notifications': () => {
        const items = list.items.map((item) => ({ ...item, read: item.read || read.includes(item.id) }));
        return { items, unread: items.filter((item) => !item.read).length };
      },
      'POST /notifications/7/read': () => read.push(7),
    });
    const { location } = renderScreen(<NotificationBell />);
    const bell = await screen.findByRole('button', { name: 'Сповіщення: 2 непрочитані' });
    expect(bell).toHaveTextContent('2');
    await userEvent.click(bell);

    const links = screen.getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      // One entry per set, its counts in words by Ukrainian plurals; it leads to the set, where a post is retried or moved.
      ['НовеНабір «Ранкова пробіжка»: 5 публікацій вийшло, 1 не вдалася25.11.2026 10:30', `/video/youtube/${idUpload}`],
      ['НовеПрофіль #4 Олена: доступ YouTube відкликано — підключіть профіль знову25.11.2026 10:00', '/accounts/4'],
      ['Набір без назви: 2 публікації не вдалися, 21 утримана24.11.2026 11:00', `/video/youtube/${otherUpload}`],
      ['Профіль #9 olena (@olena): TikTok відмовляє в доступі — перевірте профіль24.11.2026 10:30', '/accounts/9'],
      ['Запит «Ранкова пробіжка»: відео створено, можна публікувати24.11.2026 10:00', `/video/request/${idUpload}`],
      // A profile that stopped working before a post due within a day: it leads to the profile.
      [
        'Профіль #12 Ранок не працює: проксі не відповідає. Є публікації на найближчу добу — перевірте профіль23.11.2026 09:00',
        '/accounts/12',
      ],
      // The message holds the login the title names; the users are where an admin changes a password.
      ['Логін «admin»: пароль підбирають з багатьох адрес, вхід з нових браузерів сповільнено23.11.2026 10:00', '/users'],
    ]);

    await userEvent.click(links[0]!);
    expect(location.history.at(-1)).toBe(`/video/youtube/${idUpload}`);
    await waitFor(() => expect(read).toEqual([7]));
    expect(screen.queryByRole('link')).toBeNull();
    expect(await screen.findByRole('button', { name: 'Сповіщення: 1 непрочитане' })).toBeInTheDocument();
  });

  it('marks all read at once, and says there is nothing when the list is empty', async () => {
    answerApi({ 'GET /notifications': list, 'POST /notifications/read': undefined });
    renderScreen(<NotificationBell />);
    await userEvent.click(await screen.findByRole('button', { name: 'Сповіщення: 2 непрочитані' }));
    answerApi({ 'GET /notifications': { items: [], unread: 0 }, 'POST /notifications/read': undefined });
    await userEvent.click(screen.getByRole('button', { name: 'Позначити всі прочитаними' }));
    await waitFor(() => expect(screen.getByText('Немає повідомлень')).toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Сповіщення' })).toBeInTheDocument();
    expect(vi.mocked(api)).toHaveBeenCalledWith('POST', '/notifications/read');
  });
});
