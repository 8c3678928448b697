import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api, ApiError } from '../../src/lib/api';
import type { AccountDetail } from '../../src/lib/contract';
import { AccountCreateScreen } from '../../src/screens/accounts/account-create-screen';
import { AccountDetailScreen } from '../../src/screens/accounts/account-detail-screen';
import { Route } from 'wouter';
import { answerApi, renderScreen } from './render';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));
// The statistics panel has its own tests (stats-calendar-bell.test.tsx); these answer only the screen's own calls.
vi.mock('../../src/components/stats-panel', () => ({ StatsPanel: () => null }));

const emptyPage = { data: [], page: 1, totalPages: 0, total: 0 };

function accountDetail(overrides: Partial<AccountDetail> = {}): AccountDetail {
  return {
    id: 7,
    proxy: '10.0.0.1:8080',
    ipVersion: 'ipv4',
    comments: 'Main',
    status: 'loading',
    group: null,
    user: { id: 1, login: 'operator' },
    isActiveYouTube: true,
    isActiveTikTok: false,
    isActiveInstagram: false,
    inYouTube: false,
    inTikTok: false,
    connectedAs: {},
    failedPlatforms: [],
    inInstagram: false,
    connections: [],
    YouTubeAuthClientId: 'client-7',
    YouTubeAuthClientSecret: '',
    YouTubeLogin: '',
    YouTubePassword: '',
    InstagramLogin: '',
    InstagramPassword: '',
    InstagramAccessToken: '',
    InstagramUserId: '',
    TikTiokAuthStr: '',
    description: '',
    titleChannel: '',
    urlChannel: '',
    urlInstagram: '',
    profileNameInstagram: '',
    profileDescriptionInstagram: '',
    error: null,
    video: emptyPage,
    savedSecrets: {
      proxyPassword: false,
      YouTubeAuthClientSecret: true,
      YouTubePassword: false,
      InstagramPassword: false,
      InstagramAccessToken: false,
      TikTiokAuthStr: false,
    },
    ...overrides,
  };
}

function renderDetail(account: AccountDetail, extraRoutes: Record<string, unknown> = {}, path = '/accounts/7') {
  answerApi({ 'GET /accounts/7': account, ...extraRoutes });
  return renderScreen(
    <Route path={/^\/accounts\/(?<id>\d+)$/}>
      <AccountDetailScreen />
    </Route>,
    { path },
  );
}

afterEach(() => {
  vi.mocked(api).mockReset();
});

describe('profile form', () => {
  it("shows each platform's fields only while its switch is on", async () => {
    const user = userEvent.setup();
    renderScreen(<AccountCreateScreen />, { path: '/accounts/create' });
    expect(screen.queryByLabelText('ID клієнта')).toBeNull();

    await user.click(screen.getByRole('switch', { name: 'YouTube' }));
    for (const label of ['ID клієнта', 'Секрет клієнта', 'Логін YouTube', 'Пароль YouTube'])
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Instagram' }));
    expect(screen.getByLabelText('Логін Instagram')).toBeInTheDocument();
    expect(screen.getByLabelText('Пароль Instagram')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'TikTok' }));
    expect(screen.getByLabelText('Рядок доступу TikTok')).toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'YouTube' }));
    expect(screen.queryByLabelText('ID клієнта')).toBeNull();
    // A new profile has no authorization link to copy yet.
    expect(screen.queryByRole('button', { name: 'Скопіювати посилання авторизації' })).toBeNull();
  });

  it('puts the spec messages under the fields and sends nothing', async () => {
    const user = userEvent.setup();
    renderScreen(<AccountCreateScreen />, { path: '/accounts/create' });
    for (const name of ['YouTube', 'Instagram', 'TikTok']) await user.click(screen.getByRole('switch', { name }));
    await user.click(screen.getByRole('button', { name: 'Створити' }));

    const messages = (await screen.findAllByRole('alert')).map((alert) => alert.textContent);
    expect(messages).toEqual([
      "Проксі обов'язковий",
      "ID клієнта обов'язковий",
      "Секрет клієнта обов'язковий",
      "Логін Instagram обов'язковий",
      "Пароль Instagram обов'язковий",
      "Рядок доступу TikTok обов'язковий",
    ]);
    expect(api).not.toHaveBeenCalled();
  });

  it('creates the profile and opens it', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    answerApi({ 'POST /accounts': (body: unknown) => (sent.push(body), accountDetail()) });
    const { location } = renderScreen(<AccountCreateScreen />, { path: '/accounts/create' });
    await user.type(screen.getByLabelText('Проксі'), '10.0.0.1:8080');
    await user.click(screen.getByLabelText('IPv6'));
    await user.click(screen.getByRole('switch', { name: 'TikTok' }));
    await user.type(screen.getByLabelText('Рядок доступу TikTok'), 'tt-token');
    await user.click(screen.getByRole('button', { name: 'Створити' }));

    expect(await screen.findByText('Профіль створено')).toBeInTheDocument();
    expect(location.history?.at(-1)).toBe('/accounts/7');
    expect(sent).toEqual([
      expect.objectContaining({
        proxy: '10.0.0.1:8080',
        ipVersion: 'ipv6',
        isActiveTikTok: true,
        TikTiokAuthStr: 'tt-token',
        isActiveYouTube: false,
      }),
    ]);
  });
});

describe('profile detail', () => {
  it('copies the authorization link and says so', async () => {
    const user = userEvent.setup();
    // After setup(), which puts its own clipboard in place.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    renderDetail(accountDetail(), { 'POST /accounts/connect-youtube/7': { url: 'https://accounts.example/consent?x=1' } });
    await user.click(await screen.findByRole('button', { name: 'Скопіювати посилання авторизації' }));
    expect(await screen.findByText('Посилання скопійоване в буфер обміну')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('https://accounts.example/consent?x=1');
  });

  it("shows the server's reason when no link can be made, and a generic message when the clipboard refuses", async () => {
    const user = userEvent.setup();
    renderDetail(accountDetail());
    vi.mocked(api).mockImplementation(async (method: string, path: string) => {
      if (method === 'GET') return accountDetail();
      throw new ApiError(400, [`Немає client_id для ${path}`]);
    });
    await user.click(await screen.findByRole('button', { name: 'Скопіювати посилання авторизації' }));
    expect(await screen.findByText('Немає client_id для /accounts/connect-youtube/7')).toBeInTheDocument();

    vi.mocked(api).mockImplementation(async (method: string) => (method === 'GET' ? accountDetail() : { url: 'https://x.example' }));
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Скопіювати посилання авторизації' }));
    expect(await screen.findByText('Помилка при копіюванні посилання')).toBeInTheDocument();
  });

  it('shows the channel panel only with YouTube on, and the Instagram panel only with Instagram on', async () => {
    renderDetail(
      accountDetail({
        isActiveYouTube: false,
        isActiveInstagram: true,
        InstagramLogin: 'shop',
        savedSecrets: { ...accountDetail().savedSecrets, InstagramPassword: true },
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Профіль Instagram' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Канал YouTube' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Відео профілю' })).toBeInTheDocument();
    expect(screen.getByText('Нічого не знайдено')).toBeInTheDocument();
  });

  it('asks for the Instagram name or description, and saves with just one of them', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    const account = accountDetail({
      isActiveYouTube: false,
      isActiveInstagram: true,
      InstagramLogin: 'shop',
      savedSecrets: { ...accountDetail().savedSecrets, InstagramPassword: true },
    });
    renderDetail(account, { 'PATCH /accounts/update-profile-inst/7': (body: unknown) => (sent.push(body), account) });
    const panel = (await screen.findByRole('heading', { name: 'Профіль Instagram' })).closest('form')!;

    await user.click(within(panel).getByRole('button', { name: 'Зберегти' }));
    expect((await within(panel).findAllByRole('alert')).map((alert) => alert.textContent)).toEqual([
      "Назва обов'язкова",
      "Опис обов'язковий",
    ]);
    expect(sent).toEqual([]);

    await user.type(within(panel).getByLabelText('Назва профілю'), 'Shop');
    await waitFor(() => expect(within(panel).queryAllByRole('alert')).toEqual([]));
    await user.click(within(panel).getByRole('button', { name: 'Зберегти' }));
    expect(await screen.findByText('Профіль змінено')).toBeInTheDocument();
    expect(sent).toEqual([{ profileName: 'Shop', profileDescription: '' }]);
  });

  it('requires the channel description', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    renderDetail(accountDetail(), { 'PATCH /accounts/update-channel/7': (body: unknown) => (sent.push(body), accountDetail()) });
    const panel = (await screen.findByRole('heading', { name: 'Канал YouTube' })).closest('form')!;
    await user.click(within(panel).getByRole('button', { name: 'Зберегти' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent("Опис обов'язковий");
    await user.type(within(panel).getByLabelText('Опис каналу'), 'Daily shorts');
    await user.click(within(panel).getByRole('button', { name: 'Зберегти' }));
    expect(await screen.findByText('Опис змінено')).toBeInTheDocument();
    expect(sent).toEqual([{ description: 'Daily shorts' }]);
  });

  it('says a stored secret is saved, and sends it blank unless the operator types a new one', async () => {
    const user = userEvent.setup();
    const sent: Record<string, unknown>[] = [];
    const account = accountDetail({ savedSecrets: { ...accountDetail().savedSecrets, proxyPassword: true } });
    renderDetail(account, { 'PATCH /accounts/7': (body: Record<string, unknown>) => (sent.push(body), account) });
    const secret = await screen.findByLabelText('Секрет клієнта');
    expect(secret).toHaveValue('');
    expect(secret).toHaveAttribute('placeholder', 'збережено');
    expect(screen.getByLabelText('Пароль YouTube')).not.toHaveAttribute('placeholder');
    expect(screen.getByText('Пароль проксі збережено; впишіть проксі з паролем, щоб замінити його')).toBeInTheDocument();

    const form = secret.closest('form')!;
    await user.click(within(form).getByRole('button', { name: 'Зберегти' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ YouTubeAuthClientSecret: '', YouTubeAuthClientId: 'client-7' });

    await user.type(secret, 'new-secret');
    await user.click(within(form).getByRole('button', { name: 'Зберегти' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toMatchObject({ YouTubeAuthClientSecret: 'new-secret' });
  });

  it('tells how the YouTube connection ended when the OAuth callback lands on the profile, then tidies the URL', async () => {
    const { location } = renderDetail(accountDetail(), {}, `/accounts/7?youtubeError=${encodeURIComponent('Доступ до YouTube не надано')}`);
    expect(await screen.findByText('Доступ до YouTube не надано')).toBeInTheDocument();
    await waitFor(() => expect(location.history?.at(-1)).toBe('/accounts/7'));
  });

  it("shows each platform's connection, needs no pasted string once TikTok is linked, and opens the consent page", async () => {
    const user = userEvent.setup();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const sent: unknown[] = [];
    renderDetail(
      accountDetail({
        isActiveYouTube: false,
        isActiveTikTok: true,
        isActiveInstagram: true,
        InstagramLogin: '',
        connections: [
          { platform: 'tiktok', method: 'oauth', state: 'connected', name: 'Ранок (@morning)', expiresAt: null },
          { platform: 'instagram', method: 'oauth', state: 'revoked', name: 'morning.insta', expiresAt: null },
        ],
      }),
      {
        'PATCH /accounts/7': (body: unknown) => (sent.push(body), accountDetail()),
        'POST /accounts/connect-instagram/7': { url: 'https://www.instagram.com/oauth/authorize?state=s' },
      },
    );
    expect(await screen.findByText('Підключено як Ранок (@morning)')).toBeInTheDocument();
    const instagram = screen.getByRole('region', { name: 'Instagram' });
    expect(within(instagram).getByRole('status')).toHaveTextContent('Підключіть знову');

    // The profile form's own button; the Instagram profile panel beside it has one of its own.
    await user.click(screen.getAllByRole('button', { name: 'Зберегти' })[0]!);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(screen.queryByText("Рядок доступу TikTok обов'язковий")).toBeNull();

    await user.click(within(instagram).getByRole('button', { name: 'Підключіть знову' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://www.instagram.com/oauth/authorize?state=s'));
    vi.unstubAllGlobals();
  });

  it('tells how long a pasted TikTok string has left', async () => {
    const inAnHour = new Date(Date.now() + 90 * 60_000).toISOString();
    renderDetail(
      accountDetail({
        isActiveTikTok: true,
        savedSecrets: { ...accountDetail().savedSecrets, TikTiokAuthStr: true },
        connections: [{ platform: 'tiktok', method: 'pasted', state: 'connected', name: null, expiresAt: inAnHour }],
      }),
    );
    expect(await screen.findByText('Рядок доступу TikTok діє ще 1 год 30 хв')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Підключити TikTok' })).toBeInTheDocument();
  });
});
