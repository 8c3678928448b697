import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { Link } from 'wouter';
import { emptyAccountForm } from '../../src/lib/schemas';
import { AccountFormCard } from '../../src/screens/accounts/account-form';
import { ApiError } from '../../src/lib/api';
import type { Paged, VideoSummary } from '../../src/lib/contract';
import { splitError } from '../../src/lib/platform-error';
import { toasts } from '../../src/lib/toasts';
import { Sidebar } from '../../src/components/sidebar';
import { TagSetPicker } from '../../src/components/tag-set-picker';
import { VideoTable } from '../../src/components/video-table';
import { TagListScreen } from '../../src/screens/tags/tag-list-screen';
import { AccountListScreen } from '../../src/screens/accounts/account-list-screen';
import { RequestListScreen } from '../../src/screens/video/request-list-screen';
import { answerApi, renderScreen } from './render';
import { videoSummary as video } from './video-fixtures';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));

const tiktokRevoked =
  'TikTok: Доступ до акаунта відкликано або він недійсний, підключіть профіль знову (access_token_invalid: The access token is invalid)';

const pageOf = (...data: VideoSummary[]): Paged<VideoSummary> => ({ data, page: 1, totalPages: 1, total: data.length });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('names', () => {
  it("names a video's profile by its title, and by its number only when the list sent none", () => {
    renderScreen(
      <VideoTable
        data={pageOf(video(1, { account: { id: 2, title: '#2 Канал Олени' } }), video(2, { account: { id: 3 } }))}
        loading={false}
        onPageChange={() => {}}
        showAccount
      />,
    );
    expect(screen.getByRole('link', { name: '#2 Канал Олени' })).toHaveAttribute('href', '/accounts/2');
    expect(screen.getByRole('link', { name: '#3' })).toHaveAttribute('href', '/accounts/3');
  });
});

describe('platform errors in words', () => {
  it("splits the server's 'Платформа: summary (detail)' and leaves other texts whole", () => {
    expect(splitError(tiktokRevoked)).toEqual({
      summary: 'TikTok: Доступ до акаунта відкликано або він недійсний, підключіть профіль знову',
      detail: 'access_token_invalid: The access token is invalid',
    });
    const plain = 'Профілів більше, ніж відео: 2 з вибраних не отримають відео (#3 vira, #1 anna).';
    expect(splitError(plain)).toEqual({ summary: plain, detail: null });
  });

  it("says a failed video's error in Ukrainian, the platform's own answer behind 'Подробиці' (issue 40.7)", async () => {
    const user = userEvent.setup();
    renderScreen(<VideoTable data={pageOf(video(5, { status: 'error', error: tiktokRevoked }))} loading={false} onPageChange={() => {}} />);
    const summary = screen.getByText('TikTok: Доступ до акаунта відкликано або він недійсний, підключіть профіль знову', { exact: false });
    const answer = within(summary).getByText('Відповідь платформи: access_token_invalid: The access token is invalid');
    expect(answer).not.toBeVisible();
    await user.click(within(summary).getByText('Подробиці'));
    expect(answer).toBeVisible();
  });

  it('shows a toast of a platform failure in Ukrainian alone, and clears failed sign-ins once one succeeds', async () => {
    render(<Toaster />);
    act(() => toasts.errors(new ApiError(400, [tiktokRevoked])));
    const failure = await screen.findByRole('status');
    expect(failure).toHaveTextContent('TikTok: Доступ до акаунта відкликано або він недійсний, підключіть профіль знову', {
      normalizeWhitespace: false,
    });
    act(() => toasts.errors(new ApiError(401, ['Невірний логін або пароль'])));
    expect(await screen.findByText('Невірний логін або пароль')).toBeInTheDocument();
    act(() => toasts.authorized());
    expect(await screen.findByText('Ви увійшли')).toBeInTheDocument();
    // A dismissed toast leaves the page after react-hot-toast's exit delay (1 s).
    await vi.waitFor(() => expect(screen.queryByText('Невірний логін або пароль')).toBeNull(), { timeout: 5000 });
  });
});

describe('phones', () => {
  it('puts the bell in the top bar on a phone, and only there', () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query) =>
        ({
          matches: query === '(max-width: 768px)',
          media: query,
          addEventListener() {},
          removeEventListener() {},
        }) as unknown as MediaQueryList,
    );
    renderScreen(<Sidebar />, { path: '/accounts/list' });
    const bar = screen.getByRole('banner');
    expect(within(bar).getByRole('button', { name: /^Сповіщення/ })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Сповіщення/ })).toHaveLength(1);
  });
});

describe('empty lists', () => {
  const empty = { data: [], page: 1, totalPages: 0, total: 0 };
  it.each([
    ['profiles', <AccountListScreen key="a" />, '/accounts/list', 'GET /accounts?page=1', 'Додати профіль', '/accounts/create'],
    ['tag sets', <TagListScreen key="t" />, '/tags', 'GET /tags?page=1', 'Створити набір тегів', '/tags/create'],
    ['requests', <RequestListScreen key="r" />, '/video/request-create', 'GET /create-video?page=1', 'Створити відео', '/video/create'],
  ])("say SPEC's text, then what to do first with a link to it: %s", async (_name, ui, path, route, link, href) => {
    answerApi({ [route]: empty });
    renderScreen(ui, { path });
    expect(await screen.findByText('Нічого не знайдено')).toBeInTheDocument();
    expect(within(screen.getByRole('cell')).getByRole('link', { name: link })).toHaveAttribute('href', href);
  });
});

describe('tag sets', () => {
  const sets = Array.from({ length: 46 }, (_, index) => ({ id: index + 1, name: `Набір ${index + 1}`, tags: [`тег${index + 1}`] }));

  it('keeps a few sets as chips, and offers many through a search that adds the picked set', async () => {
    const user = userEvent.setup();
    const picked: number[] = [];
    const { rerender } = render(<TagSetPicker label="Набори тегів" items={sets.slice(0, 8)} onPick={(set) => picked.push(set.id)} />);
    expect(screen.getAllByRole('button')).toHaveLength(8);

    rerender(<TagSetPicker label="Набори тегів" items={sets} onPick={(set) => picked.push(set.id)} />);
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    const search = screen.getByRole('combobox', { name: 'Набори тегів' });
    await user.type(search, 'тег42');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Набір 42тег42']);
    await user.keyboard('{Enter}');
    expect(picked).toEqual([42]);
    expect(search).toHaveValue('');
    await user.type(search, 'немає');
    expect(screen.getByText('Не знайдено')).toBeInTheDocument();
  });
});

describe('unsaved changes', () => {
  it('asks before an in-app link leaves a changed profile form, stays when told to, and lets an untouched one go', async () => {
    const user = userEvent.setup();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { location } = renderScreen(
      <>
        <Link href="/tags">Теги</Link>
        <AccountFormCard initial={emptyAccountForm} submitLabel="Створити" saving={false} onSubmit={() => {}} />
      </>,
      { path: '/accounts/create' },
    );
    await user.click(screen.getByRole('link', { name: 'Теги' }));
    expect(confirm).not.toHaveBeenCalled();
    expect(location.history.at(-1)).toBe('/tags');

    location.navigate('/accounts/create');
    await user.type(await screen.findByLabelText('Коментар'), 'Новий канал');
    await user.click(screen.getByRole('link', { name: 'Теги' }));
    expect(confirm).toHaveBeenCalledWith('Зміни не збережено. Піти зі сторінки й втратити їх?');
    expect(location.history.at(-1)).toBe('/accounts/create');
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    confirm.mockReturnValue(true);
    await user.click(screen.getByRole('link', { name: 'Теги' }));
    expect(location.history.at(-1)).toBe('/tags');
  });
});
