import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api, ApiError } from '../../src/lib/api';
import type { HomeSummary } from '../../src/lib/contract';
import { HomeScreen } from '../../src/screens/home/home-screen';
import { answerApi, renderScreen } from './render';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));

const allDone = { profile: true, connect: true, backgrounds: true, video: true };

const busyDay: HomeSummary = {
  day: '2026-11-25',
  posts: { scheduled: 3, published: 12, held: 2, failed: 4 },
  attention: {
    profiles: [
      { id: 3, title: '#3 Канал Анни', user: { id: 9, login: 'anna' }, failedPlatforms: ['youtube', 'tiktok'] },
      { id: 7, title: '#7', user: { id: 9, login: 'anna' }, failedPlatforms: ['instagram'] },
    ],
    total: 13,
  },
  steps: allDone,
};

const newAccount: HomeSummary = {
  day: '2026-11-25',
  posts: { scheduled: 0, published: 0, held: 0, failed: 0 },
  attention: { profiles: [], total: 0 },
  steps: { profile: false, connect: false, backgrounds: false, video: false },
};

/** A figure's link: its number, its state and what the state means, in that order. */
const figure = (name: RegExp) => screen.getByRole('link', { name });

afterEach(() => {
  vi.mocked(api).mockReset();
});

describe('home screen', () => {
  it('shows the spinner until the day is read', async () => {
    vi.mocked(api).mockImplementation(() => new Promise(() => undefined));
    renderScreen(<HomeScreen />);
    expect(screen.getByRole('heading', { level: 1, name: 'Головна' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Завантаження' })).toBeInTheDocument();
    expect(api).toHaveBeenCalledWith('GET', '/home');
  });

  it("shows today's posts by state, each linked to where they are shown, and the profiles that need attention", async () => {
    answerApi({ 'GET /home': busyDay });
    renderScreen(<HomeScreen />);
    expect(await screen.findByText('Сьогодні 25.11.2026, за київським часом')).toBeInTheDocument();
    expect(screen.getByText('Усього 21 публікація')).toBeInTheDocument();
    expect(figure(/^3 Заплановано/)).toHaveAttribute('href', '/calendar');
    expect(figure(/^12 Опубліковано/)).toHaveAttribute('href', '/calendar');
    expect(figure(/^2 Утримано чекають ліміту, квоти або нового підключення$/)).toHaveAttribute('href', '/calendar');
    expect(figure(/^4 Помилка/)).toHaveAttribute('href', '/video/list?status=error');

    const attention = screen.getByRole('region', { name: 'Профілі, що потребують уваги' });
    expect(within(attention).getByText('13 профілів потребують нового підключення')).toBeInTheDocument();
    const rows = within(attention)
      .getAllByRole('listitem')
      .map((row) => row.textContent);
    expect(rows).toEqual(['#3 Канал Аннине працює доступ до YouTube, TikTok', '#7не працює доступ до Instagram']);
    expect(within(attention).getByRole('link', { name: '#3 Канал Анни' })).toHaveAttribute('href', '/accounts/3');
    expect(within(attention).getByRole('link', { name: 'Ще 11 профілів у списку профілів' })).toHaveAttribute('href', '/accounts/list');
    // An operator's own profiles need no owner named; every step is done, so none is offered.
    expect(screen.queryByText(/оператор/)).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Перші кроки' })).toBeNull();
  });

  it("names each profile's operator to an admin, and says when every profile works", async () => {
    answerApi({ 'GET /home': busyDay });
    const { unmount } = renderScreen(<HomeScreen />, { role: 'admin' });
    const attention = await screen.findByRole('region', { name: 'Профілі, що потребують уваги' });
    expect(within(attention).getAllByText('оператор anna')).toHaveLength(2);
    unmount();

    answerApi({ 'GET /home': { ...busyDay, attention: { profiles: [], total: 0 } } });
    renderScreen(<HomeScreen />);
    const calm = await screen.findByRole('region', { name: 'Профілі, що потребують уваги' });
    expect(within(calm).getByText('Доступ усіх профілів до платформ працює.')).toBeInTheDocument();
    expect(within(calm).queryByText(/нового підключення/)).toBeNull();
    expect(within(calm).queryByRole('listitem')).toBeNull();
  });

  it("shows a new account its first steps, each linked, and no day's figures yet", async () => {
    answerApi({ 'GET /home': newAccount });
    renderScreen(<HomeScreen />);
    const steps = await screen.findByRole('region', { name: 'Перші кроки' });
    expect(within(steps).getByText('Залишилося 4 кроки')).toBeInTheDocument();
    expect(within(steps).getAllByRole('img', { name: 'Ще не зроблено' })).toHaveLength(4);
    expect(
      within(steps)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Додати профіль', '/accounts/create'],
      ['До профілів', '/accounts/list'],
      ['Завантажити зображення', '/photos/create'],
      ['Створити відео', '/video/create'],
    ]);
    expect(screen.getByText('На сьогодні публікацій немає.')).toBeInTheDocument();
    // No request made yet: nothing is ready to publish, and the steps say what to do first.
    expect(screen.queryByRole('link', { name: 'Опублікувати готовий запит' })).toBeNull();
    expect(screen.queryByText('Усього', { exact: false })).toBeNull();
    // Without a profile there is nothing to attend to.
    expect(screen.queryByRole('region', { name: 'Профілі, що потребують уваги' })).toBeNull();
  });

  it('marks the steps done and leaves only the others to do', async () => {
    answerApi({ 'GET /home': { ...newAccount, steps: { profile: true, connect: true, backgrounds: false, video: false } } });
    const { unmount } = renderScreen(<HomeScreen />);
    const steps = await screen.findByRole('region', { name: 'Перші кроки' });
    expect(within(steps).getByText('Залишилося 2 кроки')).toBeInTheDocument();
    expect(within(steps).getAllByRole('img', { name: 'Зроблено' })).toHaveLength(2);
    expect(
      within(steps)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Завантажити зображення', 'Створити відео']);
    expect(screen.getByText('Доступ усіх профілів до платформ працює.')).toBeInTheDocument();

    unmount();
    answerApi({ 'GET /home': { ...newAccount, steps: { ...allDone, video: false } } });
    renderScreen(<HomeScreen />);
    expect(await screen.findByText('Залишився 1 крок')).toBeInTheDocument();
  });

  it('points a quiet day at a ready request once the operator has made one', async () => {
    answerApi({ 'GET /home': { ...newAccount, steps: allDone } });
    renderScreen(<HomeScreen />);
    expect(await screen.findByText('На сьогодні публікацій немає.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Опублікувати готовий запит' })).toHaveAttribute('href', '/video/request-create');
    expect(screen.queryByRole('region', { name: 'Перші кроки' })).toBeNull();
  });

  it("says the server's words when the day cannot be read, and reads it again on 'Спробувати ще раз'", async () => {
    const ui = userEvent.setup();
    answerApi({ 'GET /home': busyDay });
    vi.mocked(api).mockRejectedValueOnce(new ApiError(500, ['Внутрішня помилка сервера']));
    renderScreen(<HomeScreen />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Внутрішня помилка сервера');
    expect(screen.queryByRole('heading', { name: 'Публікації сьогодні' })).toBeNull();
    await ui.click(screen.getByRole('button', { name: 'Спробувати ще раз' }));
    expect(await screen.findByRole('heading', { name: 'Публікації сьогодні' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api).toHaveBeenCalledTimes(2);
  });
});
