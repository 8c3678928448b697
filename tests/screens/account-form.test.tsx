import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import toast from 'react-hot-toast';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api, ApiError } from '../../src/lib/api';
import type { AccountDetail, HealthCheckAnswer } from '../../src/lib/contract';
import { AccountCreateScreen } from '../../src/screens/accounts/account-create-screen';
import { AccountDetailScreen } from '../../src/screens/accounts/account-detail-screen';
import { Route } from 'wouter';
import * as t from '../../src/lib/i18n';
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
    health: {},
    reach: [],
    inInstagram: false,
    isActiveFacebook: false,
    inFacebook: false,
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
    slots: { from: '09:00', to: '22:00', minGapMinutes: 90, days: [1, 2, 3, 4, 5, 6, 7], source: 'installation' },
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
    await user.click(screen.getByRole('button', { name: 'Ввести дані входу' }));
    expect(screen.getByLabelText('Логін Instagram')).toBeVisible();
    expect(screen.getByLabelText('Пароль Instagram')).toBeVisible();
    await user.click(screen.getByRole('switch', { name: 'TikTok' }));
    await user.click(screen.getByRole('button', { name: 'Вставити рядок доступу' }));
    expect(screen.getByLabelText('Рядок доступу TikTok')).toBeVisible();

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
    // TikTok and Instagram connect through their consent pages unless their typed way is open.
    const consentOnly = (await screen.findAllByRole('alert')).map((alert) => alert.textContent);
    expect(consentOnly).toEqual(["Проксі обов'язковий", "ID клієнта обов'язковий", "Секрет клієнта обов'язковий"]);

    await user.click(screen.getByRole('button', { name: 'Ввести дані входу' }));
    await user.click(screen.getByRole('button', { name: 'Вставити рядок доступу' }));
    await user.click(screen.getByRole('button', { name: 'Створити' }));
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
        "Проксі обов'язковий",
        "ID клієнта обов'язковий",
        "Секрет клієнта обов'язковий",
        "Логін Instagram обов'язковий",
        "Пароль Instagram обов'язковий",
        "Рядок доступу TikTok обов'язковий",
      ]),
    );
    expect(vi.mocked(api).mock.calls.filter(([method]) => method !== 'GET')).toEqual([]);
  });

  it('creates the profile and opens it', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    answerApi({ 'POST /accounts': (body: unknown) => (sent.push(body), accountDetail()) });
    const { location } = renderScreen(<AccountCreateScreen />, { path: '/accounts/create' });
    await user.type(screen.getByLabelText('Проксі'), '10.0.0.1:8080');
    await user.click(screen.getByLabelText('IPv6'));
    await user.click(screen.getByRole('switch', { name: 'TikTok' }));
    await user.click(screen.getByRole('button', { name: 'Вставити рядок доступу' }));
    expect(screen.getByLabelText('Рядок доступу TikTok')).toHaveFocus();
    await user.keyboard('tt-token');
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
        connectByConsent: ['instagram'],
      }),
    ]);
  });
});

describe('connecting on the way', () => {
  const consentUrl = 'http://127.0.0.1:3000/sandbox/www.tiktok.com/v2/auth/authorize/?state=s';
  const sandboxSetup = { mode: 'sandbox', sandboxProxy: 'http://127.0.0.1:3001' };

  function stubLocationAssign() {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    return assign;
  }

  // The toaster's store outlives a test: what an earlier test said must not answer for this one.
  beforeEach(() => toast.remove());

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('offers the sandbox proxy, then saves a new profile and opens its TikTok consent page with nothing typed', async () => {
    const user = userEvent.setup();
    const assign = stubLocationAssign();
    const calls: string[] = [];
    const sent: unknown[] = [];
    answerApi({
      'GET /accounts/setup': sandboxSetup,
      'POST /accounts': (body: unknown) => (calls.push('save'), sent.push(body), accountDetail({ id: 9 })),
      'POST /accounts/connect-tiktok/9': () => (calls.push('link'), { url: consentUrl }),
    });
    renderScreen(<AccountCreateScreen />, { path: '/accounts/create' });
    const proxy = screen.getByLabelText('Проксі');
    expect(await screen.findByText('Пісочниця приймає проксі http://127.0.0.1:3001')).toBeInTheDocument();
    expect(proxy).toHaveAccessibleDescription('Пісочниця приймає проксі http://127.0.0.1:3001');
    await user.click(screen.getByRole('button', { name: 'Вписати проксі пісочниці' }));
    expect(proxy).toHaveValue('http://127.0.0.1:3001');
    expect(proxy).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Вписати проксі пісочниці' })).toBeNull();

    await user.click(screen.getByRole('switch', { name: 'TikTok' }));
    const tiktok = screen.getByRole('region', { name: 'TikTok' });
    expect(within(tiktok).getByRole('status')).toHaveTextContent('Не підключено; профіль збережеться перед підключенням');
    expect(within(tiktok).getByRole('button', { name: 'Вставити рядок доступу' })).toHaveAttribute('aria-expanded', 'false');
    await user.click(within(tiktok).getByRole('button', { name: 'Підключити TikTok' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith(consentUrl));
    expect(calls).toEqual(['save', 'link']);
    expect(sent).toEqual([
      expect.objectContaining({
        proxy: 'http://127.0.0.1:3001',
        isActiveTikTok: true,
        TikTiokAuthStr: '',
        connectByConsent: ['tiktok', 'instagram'],
      }),
    ]);
    expect(screen.queryByText("Рядок доступу TikTok обов'язковий")).toBeNull();
  });

  it('connects TikTok by its consent page even with the typed way open, and keeps what was typed', async () => {
    const user = userEvent.setup();
    const assign = stubLocationAssign();
    const sent: unknown[] = [];
    answerApi({
      'GET /accounts/setup': sandboxSetup,
      'POST /accounts': (body: unknown) => (sent.push(body), accountDetail({ id: 9 })),
      'POST /accounts/connect-tiktok/9': { url: consentUrl },
    });
    renderScreen(<AccountCreateScreen />, { path: '/accounts/create' });
    await user.type(screen.getByLabelText('Проксі'), '10.0.0.1:8080');
    await user.click(screen.getByRole('switch', { name: 'TikTok' }));
    await user.click(screen.getByRole('button', { name: 'Вставити рядок доступу' }));
    await user.click(screen.getByRole('button', { name: 'Підключити TikTok' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(consentUrl));
    expect(sent).toEqual([expect.objectContaining({ isActiveTikTok: true, connectByConsent: ['tiktok', 'instagram'] })]);
  });

  it("connects TikTok on a new profile with YouTube also on, asking nothing of YouTube's fields (issue 40.4)", async () => {
    const user = userEvent.setup();
    const assign = stubLocationAssign();
    const sent: unknown[] = [];
    answerApi({
      'GET /accounts/setup': sandboxSetup,
      'POST /accounts': (body: unknown) => (sent.push(body), accountDetail({ id: 9 })),
      'POST /accounts/connect-tiktok/9': { url: consentUrl },
    });
    renderScreen(<AccountCreateScreen />, { path: '/accounts/create' });
    await user.type(screen.getByLabelText('Проксі'), '10.0.0.1:8080');
    await user.click(screen.getByRole('switch', { name: 'YouTube' }));
    await user.click(screen.getByRole('switch', { name: 'TikTok' }));
    await user.click(screen.getByRole('button', { name: 'Підключити TikTok' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(consentUrl));
    expect(screen.queryByText("ID клієнта обов'язковий")).toBeNull();
    expect(sent).toEqual([
      expect.objectContaining({ isActiveYouTube: true, YouTubeAuthClientId: '', isActiveTikTok: true, connecting: 'tiktok' }),
    ]);
  });

  it("still asks for YouTube's fields on a plain save of a profile with YouTube on", async () => {
    const user = userEvent.setup();
    answerApi({ 'GET /accounts/setup': sandboxSetup });
    renderScreen(<AccountCreateScreen />, { path: '/accounts/create' });
    await user.type(screen.getByLabelText('Проксі'), '10.0.0.1:8080');
    await user.click(screen.getByRole('switch', { name: 'YouTube' }));
    await user.click(screen.getByRole('switch', { name: 'TikTok' }));
    await user.click(screen.getByRole('button', { name: 'Створити' }));
    expect((await screen.findAllByRole('alert')).map((alert) => alert.textContent)).toEqual([
      "ID клієнта обов'язковий",
      "Секрет клієнта обов'язковий",
    ]);
    expect(screen.getByLabelText('ID клієнта')).toHaveFocus();
  });

  it('checks the form as a save does before leaving, and puts the focus on the first wrong field', async () => {
    const user = userEvent.setup();
    const assign = stubLocationAssign();
    answerApi({ 'GET /accounts/setup': { mode: 'live', sandboxProxy: null } });
    renderScreen(<AccountCreateScreen />, { path: '/accounts/create' });
    // Live mode: the proxy's expected format under the field, and no sandbox proxy to offer.
    expect(screen.getByLabelText('Проксі')).toHaveAccessibleDescription(t.accountForm.proxyHint);
    expect(screen.queryByRole('button', { name: 'Вписати проксі пісочниці' })).toBeNull();
    await user.click(screen.getByRole('switch', { name: 'YouTube' }));
    await user.click(screen.getByRole('button', { name: 'Підключити YouTube' }));
    expect((await screen.findAllByRole('alert')).map((alert) => alert.textContent)).toEqual([
      "Проксі обов'язковий",
      "ID клієнта обов'язковий",
      "Секрет клієнта обов'язковий",
    ]);
    expect(screen.getByLabelText('Проксі')).toHaveFocus();
    expect(vi.mocked(api).mock.calls.filter(([method]) => method !== 'GET')).toEqual([]);
    expect(assign).not.toHaveBeenCalled();
  });

  it('opens the saved profile with the reason when its consent page cannot be had', async () => {
    const user = userEvent.setup();
    stubLocationAssign();
    vi.mocked(api).mockImplementation(async (_method: string, path: string) => {
      if (path === '/accounts/setup') return sandboxSetup;
      if (path === '/accounts') return accountDetail({ id: 9 });
      throw new ApiError(400, ['Застосунок Instagram не налаштовано: задайте INSTAGRAM_APP_ID']);
    });
    const { location } = renderScreen(<AccountCreateScreen />, { path: '/accounts/create' });
    await user.type(screen.getByLabelText('Проксі'), '10.0.0.1:8080');
    await user.click(screen.getByRole('switch', { name: 'Instagram' }));
    await user.click(screen.getByRole('button', { name: 'Підключити Instagram' }));
    expect(await screen.findByText('Застосунок Instagram не налаштовано: задайте INSTAGRAM_APP_ID')).toBeInTheDocument();
    expect(screen.getByText('Профіль створено')).toBeInTheDocument();
    expect(location.history?.at(-1)).toBe('/accounts/9');
  });

  it("opens Google's consent page from a saved YouTube profile, saving nothing left unchanged", async () => {
    const user = userEvent.setup();
    const assign = stubLocationAssign();
    renderDetail(accountDetail(), {
      'GET /accounts/setup': sandboxSetup,
      'POST /accounts/connect-youtube/7': { url: 'http://127.0.0.1:3000/sandbox/accounts.google.com/o/oauth2/v2/auth?state=s' },
    });
    const youtube = await screen.findByRole('region', { name: 'YouTube' });
    expect(within(youtube).getByRole('status')).toHaveTextContent('Не підключено');
    await user.click(within(youtube).getByRole('button', { name: 'Підключити YouTube' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://127.0.0.1:3000/sandbox/accounts.google.com/o/oauth2/v2/auth?state=s'));
    expect(vi.mocked(api).mock.calls.map(([method, path]) => `${method} ${path}`)).not.toContain('PATCH /accounts/7');
  });
});

describe('profile detail', () => {
  it.each([
    ["its comment's first line", { comments: '  Олена — кулінарія\nдругий рядок' }, 'Олена — кулінарія · #7'],
    ['the account it is connected as, without a comment', { comments: '', connectedAs: { tiktok: '@olena' } }, '@olena · #7'],
    ['its number alone, with neither', { comments: ' ', connectedAs: {} }, 'Профіль #7'],
  ])('is headed by %s (issue 40.3)', async (_, overrides, heading) => {
    renderDetail(accountDetail(overrides));
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });

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

  it("shows the profile's health per platform and its reach mark with the figures behind it", async () => {
    renderDetail(
      accountDetail({
        isActiveTikTok: true,
        health: {
          youtube: { state: 'attention', kind: 'platform_unavailable', source: 'health', detail: null, at: '2026-12-01T09:05:00.000Z' },
          tiktok: { state: 'connected', kind: null, source: 'health', detail: null, at: '2026-12-01T09:05:00.000Z' },
        },
        reach: [
          { platform: 'tiktok', views: [12, 3, 0, 40, 7], medianViews: 2400, historyPosts: 30, markedAt: '2026-12-01T09:05:00.000Z' },
        ],
      }),
    );
    const health = (await screen.findByText('Стан')).closest('div')!;
    expect(
      within(health)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      ' YouTube: Увага: платформа не відповіла',
      ' TikTok: Працює',
      ' TikTok: можливе обмеження показівПерегляди останніх публікацій (5): 12, 3, 0, 40, 7; медіана попередніх (30): 2\u00a0400',
    ]);
    expect(health).toHaveTextContent('перевірено 01.12.2026 11:05');
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

  it('refuses a proxy in none of the formats, naming them, and shows a saved one as the server wrote it, its password kept back', async () => {
    const user = userEvent.setup();
    const sent: Record<string, unknown>[] = [];
    const saved = accountDetail({
      proxy: 'http://buyer@127.0.0.1:3589',
      savedSecrets: { ...accountDetail().savedSecrets, proxyPassword: true },
    });
    // What is shown after a save is read again from the server, which keeps the proxy as one URL.
    let stored = accountDetail();
    renderDetail(stored, {
      'GET /accounts/7': () => stored,
      'PATCH /accounts/7': (body: Record<string, unknown>) => (sent.push(body), (stored = saved)),
    });
    const proxy = await screen.findByLabelText('Проксі');
    await user.clear(proxy);
    await user.type(proxy, 'buyer:secret@127.0.0.1:99999');
    await user.click(within(proxy.closest('form')!).getByRole('button', { name: 'Зберегти' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(t.accountForm.proxyInvalid);
    expect(sent).toEqual([]);

    await user.clear(proxy);
    await user.type(proxy, 'buyer:secret@127.0.0.1:3589');
    await user.click(within(proxy.closest('form')!).getByRole('button', { name: 'Зберегти' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ proxy: 'buyer:secret@127.0.0.1:3589' });
    await waitFor(() => expect(proxy).toHaveValue('http://buyer@127.0.0.1:3589'));
    expect(screen.getByText(t.accountForm.proxyPasswordSaved)).toBeInTheDocument();
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
          { platform: 'tiktok', method: 'oauth', state: 'connected', kind: null, name: 'Ранок (@morning)', expiresAt: null },
          { platform: 'instagram', method: 'oauth', state: 'down', kind: 'revoked', name: 'morning.insta', expiresAt: null },
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
        connections: [{ platform: 'tiktok', method: 'pasted', state: 'connected', kind: null, name: null, expiresAt: inAnHour }],
      }),
    );
    expect(await screen.findByText('Рядок доступу TikTok діє ще 1 год 30 хв')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Підключити TikTok' })).toBeInTheDocument();
  });
});

describe("the profile page's 'Перевірити зараз'", () => {
  beforeEach(() => toast.remove());

  const checkedAt = '2026-12-01T09:05:00.000Z';
  const refused = { state: 'down', kind: 'refused', source: 'health', detail: 'Invalid Credentials', at: checkedAt } as const;
  const healthLines = async () =>
    within((await screen.findByText('Стан')).closest('div')!)
      .getAllByRole('listitem')
      .map((item) => item.textContent);

  it('says it is checking while the check runs, then shows the states it found without reading the page again', async () => {
    const user = userEvent.setup();
    let answer: (value: HealthCheckAnswer) => void = () => undefined;
    renderDetail(accountDetail({ health: { youtube: { ...refused, state: 'connected', kind: null, source: 'consent', detail: null } } }), {
      'POST /accounts/7/health-check': () => new Promise((resolve) => (answer = resolve)),
    });
    expect(await healthLines()).toEqual([' YouTube: Працює']);

    await user.click(screen.getByRole('button', { name: t.health.checkNow }));
    expect(await screen.findByRole('button', { name: t.health.checking })).toBeDisabled();

    answer({ account: accountDetail({ status: 'error', failedPlatforms: ['youtube'], health: { youtube: refused } }), unread: [] });
    expect(await screen.findByText(t.health.checked)).toBeInTheDocument();
    expect(await healthLines()).toEqual([' YouTube: Не працює: платформа відмовляє в доступі']);
    expect(screen.getByRole('button', { name: t.health.checkNow })).toBeEnabled();
    expect(vi.mocked(api).mock.calls.filter(([method, path]) => method === 'GET' && path === '/accounts/7')).toHaveLength(1);
  });

  it("tells which platforms the read limit left unchecked, and the server's refusal in its own words", async () => {
    const user = userEvent.setup();
    const account = accountDetail({ isActiveTikTok: true, health: { youtube: refused } });
    let calls = 0;
    renderDetail(account, {
      'POST /accounts/7/health-check': () => {
        calls++;
        if (calls === 1) return { account, unread: ['youtube', 'tiktok'] };
        throw new ApiError(429, ['Профіль щойно перевірено. Перевірити знову можна через 42 с']);
      },
    });

    await user.click(await screen.findByRole('button', { name: t.health.checkNow }));
    expect(await screen.findByText(t.health.checkedExcept(['YouTube', 'TikTok']))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t.health.checkNow }));
    expect(await screen.findByText('Профіль щойно перевірено. Перевірити знову можна через 42 с')).toBeInTheDocument();
    expect(await healthLines()).toEqual([' YouTube: Не працює: платформа відмовляє в доступі', ' TikTok: ще не перевірено']);
  });
});
