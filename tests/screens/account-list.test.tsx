import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api, ApiError } from '../../src/lib/api';
import type { AccountSummary } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { Sidebar } from '../../src/components/sidebar';
import { AccountListScreen } from '../../src/screens/accounts/account-list-screen';
import { answerApi, renderScreen } from './render';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));

/** The dialog's own 'Видалити', once the row's icon has asked. */
async function confirmDeletion(user: ReturnType<typeof userEvent.setup>) {
  const dialog = await screen.findByRole('alertdialog');
  await user.click(within(dialog).getByRole('button', { name: 'Видалити' }));
}

const row: AccountSummary = {
  id: 3,
  proxy: '10.0.0.3:8080',
  ipVersion: 'ipv4',
  comments: 'Канал Анни',
  status: 'success',
  group: null,
  user: { id: 9, login: 'anna' },
  isActiveYouTube: true,
  isActiveTikTok: false,
  isActiveInstagram: false,
  inYouTube: true,
  inTikTok: false,
  connectedAs: { youtube: 'Канал Анни на YouTube' },
  inInstagram: false,
  isActiveFacebook: false,
  inFacebook: false,
  failedPlatforms: [],
  health: {},
  reach: [],
};
const page = { data: [row], page: 1, totalPages: 1, total: 1 };

afterEach(() => {
  vi.mocked(api).mockReset();
});

describe('profile list', () => {
  it("shows an admin the owner's login in a user column", async () => {
    answerApi({ 'GET /accounts?page=1': page });
    renderScreen(<AccountListScreen />, { path: '/accounts/list', role: 'admin' });
    expect(await screen.findByRole('columnheader', { name: 'Користувач' })).toBeInTheDocument();
    const cells = within(screen.getAllByRole('row')[1])
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 9)).toEqual([
      '3',
      '10.0.0.3:8080',
      'Канал Анни',
      'anna',
      ' Підключенопідключено як Канал Анни на YouTube',
      'Вимкнено',
      'Вимкнено',
      'Вимкнено',
      'Активний',
    ]);
  });

  it("shows a platform whose access failed as 'Помилка доступу', never 'Підключено', beside the status 'Помилка'", async () => {
    const failed = { ...row, isActiveTikTok: true, inTikTok: true, status: 'error' as const, failedPlatforms: ['tiktok' as const] };
    answerApi({ 'GET /accounts?page=1': { ...page, data: [failed] } });
    renderScreen(<AccountListScreen />, { path: '/accounts/list' });
    await screen.findByText('10.0.0.3:8080');
    const cells = within(screen.getAllByRole('row')[1])
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(3, 8)).toEqual([
      ' Підключенопідключено як Канал Анни на YouTube',
      ' Помилка доступу',
      'Вимкнено',
      'Вимкнено',
      'Помилка',
    ]);
  });

  it("shows each switched-on platform's health with its reason, when it was checked, and a reach mark, in a 'Стан' column", async () => {
    const checked: AccountSummary = {
      ...row,
      isActiveTikTok: true,
      isActiveInstagram: true,
      health: {
        youtube: { state: 'connected', kind: null, source: 'health', detail: null, at: '2026-12-01T08:00:00.000Z' },
        tiktok: { state: 'down', kind: 'proxy_unreachable', source: 'health', detail: null, at: '2026-12-01T09:05:00.000Z' },
      },
      reach: [{ platform: 'youtube', views: [3, 1, 0, 2, 4], medianViews: 2400, historyPosts: 30, markedAt: '2026-12-01T09:05:00.000Z' }],
    };
    answerApi({ 'GET /accounts?page=1': { ...page, data: [checked] } });
    renderScreen(<AccountListScreen />, { path: '/accounts/list' });
    expect(await screen.findByRole('columnheader', { name: 'Стан' })).toBeInTheDocument();
    const cells = within(screen.getAllByRole('row')[1]).getAllByRole('cell');
    expect(
      within(cells[8]!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      ' YouTube: Працює',
      ' TikTok: Не працює: проксі не відповідає',
      ' Instagram: ще не перевірено',
      ' YouTube: можливе обмеження показів',
    ]);
    expect(cells[8]).toHaveTextContent('перевірено 01.12.2026 11:05');
  });

  it("narrows the list to 'Проблемні' through the address, asking the server for health=problem, and resets it", async () => {
    const user = userEvent.setup();
    const failing = {
      ...row,
      id: 4,
      health: {
        youtube: {
          state: 'attention' as const,
          kind: 'token_expired' as const,
          source: 'health' as const,
          detail: null,
          at: '2026-12-01T09:05:00.000Z',
        },
      },
    };
    answerApi({
      'GET /accounts?page=2': page,
      'GET /accounts?page=1': page,
      'GET /accounts?page=1&health=problem': { ...page, data: [failing] },
    });
    const { location } = renderScreen(<AccountListScreen />, { path: '/accounts/list?page=2' });
    await screen.findByText('10.0.0.3:8080');
    const choice = screen.getByRole('combobox', { name: 'Стан' });
    expect(
      within(choice)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Усі', 'Проблемні']);
    await user.selectOptions(choice, 'Проблемні');
    expect(location.history?.at(-1)).toBe('/accounts/list?health=problem');
    expect(await screen.findByText('YouTube: Увага: токен доступу закінчився і не оновився', { exact: false })).toBeInTheDocument();
    expect(vi.mocked(api).mock.calls.map(([method, path]) => `${method} ${path}`)).toEqual([
      'GET /accounts?page=2',
      'GET /accounts?page=1&health=problem',
    ]);
    await user.click(screen.getByRole('button', { name: 'Скинути фільтри' }));
    expect(location.history?.at(-1)).toBe('/accounts/list');
    expect(screen.getByRole('combobox', { name: 'Стан' })).toHaveValue('');
  });

  it('shows a user no owner column', async () => {
    answerApi({ 'GET /accounts?page=1': page });
    renderScreen(<AccountListScreen />, { path: '/accounts/list' });
    expect(await screen.findByText('10.0.0.3:8080')).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Користувач' })).toBeNull();
    expect(screen.queryByText('anna')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Профілі' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Створити' })).toHaveAttribute('href', '/accounts/create');
  });

  it("says 'Нічого не знайдено' without profiles", async () => {
    answerApi({ 'GET /accounts?page=1': { data: [], page: 1, totalPages: 0, total: 0 } });
    renderScreen(<AccountListScreen />, { path: '/accounts/list' });
    expect(await screen.findByText('Нічого не знайдено')).toBeInTheDocument();
  });

  it('deletes with a loading toast, then the result, and refreshes the list', async () => {
    const user = userEvent.setup();
    let listed = page;
    answerApi({
      'GET /accounts?page=1': () => listed,
      'DELETE /accounts/3': () => {
        listed = { data: [], page: 1, totalPages: 0, total: 0 };
      },
    });
    renderScreen(<AccountListScreen />, { path: '/accounts/list' });
    await user.click(await screen.findByRole('button', { name: 'Видалити профіль #3 Канал Анни' }));
    await confirmDeletion(user);
    expect(await screen.findByText('Акаунт видалено')).toBeInTheDocument();
    expect(await screen.findByText('Нічого не знайдено')).toBeInTheDocument();
  });

  it("says 'Помилка при видаленні' when the deletion fails", async () => {
    const user = userEvent.setup();
    answerApi({
      'GET /accounts?page=1': page,
      'DELETE /accounts/3': () => {
        throw new ApiError(500, ['boom']);
      },
    });
    renderScreen(<AccountListScreen />, { path: '/accounts/list' });
    await user.click(await screen.findByRole('button', { name: 'Видалити профіль #3 Канал Анни' }));
    await confirmDeletion(user);
    expect(await screen.findByText('Помилка при видаленні')).toBeInTheDocument();
  });

  it("shows the server's refusal when the profile's uploads could not be stopped, and keeps the row", async () => {
    const user = userEvent.setup();
    const refusal = t.finalDelete.inFlight([t.finalDelete.item('Ранкова пробіжка', 1, 'TikTok', '#3 Канал Анни')]);
    answerApi({
      'GET /accounts?page=1': page,
      'DELETE /accounts/3': () => {
        throw new ApiError(409, [refusal]);
      },
    });
    renderScreen(<AccountListScreen />, { path: '/accounts/list' });
    await user.click(await screen.findByRole('button', { name: 'Видалити профіль #3 Канал Анни' }));
    await confirmDeletion(user);
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(screen.queryByText('Помилка при видаленні')).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Видалити профіль #3 Канал Анни' })).toBeInTheDocument();
  });

  it('asks first, naming the profile and what stays; Скасувати and Escape keep it, on the row they came from', async () => {
    const user = userEvent.setup();
    const deleted: string[] = [];
    answerApi({
      'GET /accounts?page=1': page,
      'DELETE /accounts/3': () => {
        deleted.push('3');
      },
    });
    const { location } = renderScreen(<AccountListScreen />, { path: '/accounts/list' });
    const icon = await screen.findByRole('button', { name: 'Видалити профіль #3 Канал Анни' });
    await user.click(icon);
    const dialog = screen.getByRole('alertdialog', { name: 'Видалити профіль #3 Канал Анни?' });
    expect(dialog).toHaveAccessibleDescription(
      'Відео, вже опубліковані через цей профіль, залишаться на платформах і в списках, але без профілю; запланованих через нього публікацій не буде.',
    );
    expect(within(dialog).getByRole('button', { name: 'Скасувати' })).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Видалити' })).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Скасувати' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Скасувати' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(icon).toHaveFocus();

    await user.click(icon);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(deleted).toEqual([]);
    // Neither the dialog's clicks nor its keys reached the row, which opens the profile.
    expect(location.history).toEqual(['/accounts/list']);
  });
});

describe('menu', () => {
  it('offers the Users item to an admin only', () => {
    const { unmount } = renderScreen(<Sidebar />, { role: 'admin' });
    expect(screen.getByRole('link', { name: 'Користувачі' })).toHaveAttribute('href', '/users');
    unmount();
    renderScreen(<Sidebar />, { role: 'user' });
    expect(screen.queryByRole('link', { name: 'Користувачі' })).toBeNull();
  });
});
