import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { Route } from 'wouter';
import { api, ApiError } from '../../src/lib/api';
import * as t from '../../src/lib/i18n';
import { kyivWallTime } from '../../src/lib/kyiv-time';
import type { Paged, PublishedVideo, SelectOption, UploadDetail, UploadRow, VideoSummary } from '../../src/lib/contract';
import { VideoTable } from '../../src/components/video-table';
import { PublishScreen } from '../../src/screens/video/publish-screen';
import { PublishedScreen } from '../../src/screens/video/published-screen';
import { UploadListScreen } from '../../src/screens/video/upload-list-screen';
import { publishedDetailPollMs } from '../../src/machines/polling-machine';
import { answerApi, pickDateTime, renderScreen, shownDateTime } from './render';
import { boris, idUpload, numberOf, request, vira } from './publish-fixtures';
import { publishedVideo as videoOfSet } from './video-fixtures';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));
// The statistics panel has its own tests (stats-calendar-bell.test.tsx); these answer only the screen's own calls.
vi.mock('../../src/components/stats-panel', () => ({ StatsPanel: () => null }));

afterEach(() => {
  vi.mocked(api).mockReset();
  toast.remove();
});

const publishRoute = /^\/video\/request(?:\/(?<idUpload>[^/]+))?\/?$/;
const publishedRoute = /^\/video\/youtube(?:\/(?<idUpload>[^/]+))?\/?$/;

function renderPublish(routes: Record<string, unknown> = {}, path = `/video/request/${idUpload}`) {
  answerApi({ [`GET /create-video/request/${idUpload}`]: request, ...routes });
  return renderScreen(
    <Route path={publishRoute}>
      <PublishScreen />
    </Route>,
    { path },
  );
}

const videoProfile = (id: number) => screen.getByLabelText(`Профіль відео ${numberOf(id)}`);

describe('publish form', () => {
  it("shows the request's videos, each opening its file in a new tab, with its poster when there is one", async () => {
    renderPublish();
    const preview = await screen.findByRole('link', { name: 'Переглянути відео 1' });
    expect(preview).toHaveAttribute('href', request.video[0].url);
    expect(preview).toHaveAttribute('target', '_blank');
    expect(preview.querySelector('img')).toHaveAttribute('src', '/api/media/poster-11.jpg?exp=1&sig=p');
    expect(screen.getByRole('link', { name: 'Переглянути відео 2' }).querySelector('img')).toBeNull();
    for (const id of [11, 12, 13]) {
      expect(videoProfile(id)).toHaveValue('');
      expect(within(videoProfile(id)).getByRole('option', { name: 'Будь-який' })).toBeInTheDocument();
    }
  });

  it('puts the spec messages under the fields and sends nothing', async () => {
    const user = userEvent.setup();
    renderPublish();
    for (const id of [11, 12, 13]) await user.click(await screen.findByRole('button', { name: `Прибрати відео ${numberOf(id)}` }));
    await user.click(screen.getByRole('button', { name: 'Зберегти' }));

    const messages = (await screen.findAllByRole('alert')).map((alert) => alert.textContent);
    expect(messages).toEqual(["Назва обов'язкова", 'Мінімум один тег', 'Мінімум один профіль', 'Мінімум одне відео']);
    expect(vi.mocked(api).mock.calls.map(([method]) => method)).toEqual(['GET']);
  });

  it("says what a ticked platform refuses in the texts, in the server's words, and sends nothing", async () => {
    const user = userEvent.setup();
    renderPublish();
    await user.type(await screen.findByLabelText('Назва'), 'Випуск <1>');
    await user.type(screen.getByLabelText('Теги'), 'shorts ');
    await user.click(screen.getByRole('button', { name: 'Ранкові' }));
    await user.click(screen.getByRole('button', { name: 'Зберегти' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(t.postingRules.angleBrackets.title);
    expect(vi.mocked(api).mock.calls.filter(([method]) => method !== 'GET')).toEqual([]);
  });

  it('fills the tags from a tag-set chip', async () => {
    const user = userEvent.setup();
    renderPublish();
    await user.type(await screen.findByLabelText('Теги'), 'beats news ');
    await user.click(screen.getByRole('button', { name: 'Музика' }));
    const tags = screen.getAllByRole('button', { name: /^Видалити тег / }).map((button) => button.getAttribute('aria-label'));
    expect(tags).toEqual(['Видалити тег beats', 'Видалити тег news', 'Видалити тег music']);
  });

  it('fills the profiles from a group chip and gives video i the i-th profile', async () => {
    const user = userEvent.setup();
    renderPublish();
    await user.click(await screen.findByRole('button', { name: 'Ранкові' }));
    expect(screen.getByRole('button', { name: 'Прибрати #2 boris' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Прибрати #3 vira' })).toBeInTheDocument();
    expect([11, 12, 13].map((id) => (videoProfile(id) as HTMLSelectElement).value)).toEqual(['2', '3', '']);
    // A video's own select offers the chosen profiles besides 'Будь-який'.
    expect(
      within(videoProfile(13))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Будь-який', '#2 boris', '#3 vira']);

    // Choosing one more profile in the multi-select applies the rule again.
    await user.click(screen.getByRole('combobox', { name: 'Профілі' }));
    await user.click(screen.getByRole('option', { name: '#1 anna' }));
    expect([11, 12, 13].map((id) => (videoProfile(id) as HTMLSelectElement).value)).toEqual(['2', '3', '1']);
  });

  it("shows whom 'Будь-який' gets by the server's rule, and warns when videos or profiles are left over", async () => {
    const user = userEvent.setup();
    renderPublish();
    // Three videos, two profiles: the third video goes round to the first profile, which gets two.
    await user.click(await screen.findByRole('button', { name: 'Ранкові' }));
    expect(videoProfile(13)).toHaveAccessibleDescription('Отримає #2 boris — за чергою вибраних профілів');
    expect(screen.getByRole('status')).toHaveTextContent('Відео більше, ніж профілів: #2 boris отримає кілька відео.');
    expect(screen.getByText(/«Будь-який» означає профіль за цією чергою/)).toBeInTheDocument();

    // Two videos removed, three profiles: two of them get nothing, and the form says which.
    await user.click(screen.getByRole('combobox', { name: 'Профілі' }));
    await user.click(screen.getByRole('option', { name: '#1 anna' }));
    await user.click(screen.getByRole('button', { name: 'Прибрати відео 2' }));
    await user.click(screen.getByRole('button', { name: 'Прибрати відео 3' }));
    expect(screen.getByRole('status')).toHaveTextContent('Профілів більше, ніж відео: 2 з вибраних не отримають відео (#3 vira, #1 anna).');
  });

  it('keeps the half-filled form across a reload and forgets it once sent', async () => {
    const user = userEvent.setup();
    const first = renderPublish();
    await user.type(await screen.findByLabelText('Назва'), 'Чернетка');
    await user.click(screen.getByRole('button', { name: 'Ранкові' }));
    await user.click(screen.getByRole('button', { name: 'Прибрати відео 2' }));
    pickDateTime('Дата відео 3', '2031-12-01T12:30');
    first.unmount();
    expect(localStorage.getItem('shorts-office.publish-drafts')).toContain('Чернетка');

    const sent: unknown[] = [];
    renderPublish({ [`POST /upload-video/${idUpload}`]: (body: unknown) => (sent.push(body), { ok: true }) });
    expect(await screen.findByLabelText('Назва')).toHaveValue('Чернетка');
    // The rest of the form is drawn a render after its texts (publish-screen.tsx).
    await screen.findByRole('button', { name: 'Зберегти' });
    expect(screen.queryByRole('link', { name: 'Переглянути відео 2' })).toBeNull();
    expect([11, 13].map((id) => (videoProfile(id) as HTMLSelectElement).value)).toEqual(['2', '']);
    expect(videoProfile(13)).toHaveAccessibleDescription('Отримає #3 vira — за чергою вибраних профілів');
    expect(shownDateTime('Дата відео 3')).toBe('2031-12-01T12:30');
    await user.type(screen.getByLabelText('Теги'), 'shorts ');
    await user.click(screen.getByRole('button', { name: 'Зберегти' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    await waitFor(() => expect(localStorage.getItem('shorts-office.publish-drafts')).not.toContain('Чернетка'));
  });

  it('removes a video from the list', async () => {
    const user = userEvent.setup();
    renderPublish();
    await user.click(await screen.findByRole('button', { name: 'Прибрати відео 2' }));
    expect(screen.queryByRole('link', { name: 'Переглянути відео 2' })).toBeNull();
    expect(screen.getAllByRole('link', { name: /^Переглянути відео/ }).map((link) => link.getAttribute('aria-label'))).toEqual([
      'Переглянути відео 1',
      'Переглянути відео 3',
    ]);
  });

  it('sends the whole form, toasts, and goes back to the request list', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    const { location } = renderPublish({ [`POST /upload-video/${idUpload}`]: (body: unknown) => (sent.push(body), { ok: true }) });
    await user.type(await screen.findByLabelText('Назва'), 'Ранковий випуск');
    await user.type(screen.getByLabelText('Опис'), 'Коротко про головне');
    await user.type(screen.getByLabelText('Теги'), 'shorts ');
    await user.click(screen.getByRole('button', { name: 'Ранкові' }));
    await user.click(screen.getByRole('checkbox', { name: 'TikTok' }));
    const day = kyivWallTime(Date.now() + 30 * 86_400_000).slice(0, 10);
    pickDateTime('Дата', `${day}T09:00`);
    pickDateTime('Дата відео 2', `${day}T12:30`);
    await user.selectOptions(videoProfile(12), '2');
    await user.click(screen.getByRole('button', { name: 'Прибрати відео 3' }));
    await user.click(screen.getByRole('button', { name: 'Зберегти' }));

    await waitFor(() => expect(location.history?.at(-1)).toBe('/video/request-create'));
    expect(await screen.findByText('Відео надіслано на публікацію')).toBeInTheDocument();
    const video = (id: number, account: SelectOption | null, date: string | null) => ({
      id,
      url: `/api/media/render-${id}.mp4?exp=1&sig=s${id}`,
      idUpload,
      createdAt: '2026-11-20T10:00:00.000Z',
      account,
      date,
    });
    expect(sent).toEqual([
      {
        id: 4,
        title: 'Ранковий випуск',
        description: 'Коротко про головне',
        tags: ['shorts'],
        accounts: [boris, vira],
        video: [video(11, boris, null), video(12, boris, `${day}T12:30`)],
        inYouTube: true,
        inTikTok: true,
        inInstagram: false,
        inFacebook: false,
        date: `${day}T09:00`,
        // Possible duplicates are named before saving (issue 43.5), until the operator consents.
        checkDuplicates: true,
      },
    ]);
  });

  it('refuses a date more than a year ahead, as the server would, and sends nothing', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    renderPublish({ [`POST /upload-video/${idUpload}`]: (body: unknown) => (sent.push(body), { ok: true }) });
    await user.type(await screen.findByLabelText('Назва'), 'Випуск');
    await user.click(screen.getByRole('button', { name: 'Ранкові' }));
    const yearOn = kyivWallTime(Date.now() + 400 * 86_400_000).slice(0, 10);
    pickDateTime('Дата відео 2', `${yearOn}T12:30`);
    expect(await screen.findByText(t.publish.tooFarAhead)).toBeInTheDocument();
    pickDateTime('Дата', `${yearOn}T09:00`);
    await user.click(screen.getByRole('button', { name: 'Зберегти' }));
    expect(await screen.findAllByText(t.publish.tooFarAhead)).toHaveLength(2);
    expect(sent).toEqual([]);
  });

  it("stays on the form and toasts each of the server's messages when the publication is refused", async () => {
    const user = userEvent.setup();
    const { location } = renderPublish({
      [`POST /upload-video/${idUpload}`]: () => {
        throw new ApiError(400, ['Профіль #2 не підключено до TikTok', 'Вичерпано ліміт платформи, повторимо пізніше']);
      },
    });
    await user.type(await screen.findByLabelText('Назва'), 'Випуск');
    await user.type(screen.getByLabelText('Теги'), 'shorts ');
    await user.click(screen.getByRole('button', { name: 'Ранкові' }));
    await user.click(screen.getByRole('button', { name: 'Зберегти' }));

    expect(await screen.findByText('Профіль #2 не підключено до TikTok')).toBeInTheDocument();
    expect(screen.getByText('Вичерпано ліміт платформи, повторимо пізніше')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Зберегти' })).toBeEnabled());
    // The loading toast goes once the server has answered; no success toast replaces it.
    await waitFor(() => expect(screen.queryByText('Відео надіслано на публікацію')).toBeNull(), { timeout: 3000 });
    expect(screen.getByLabelText('Назва')).toHaveValue('Випуск');
    expect(location.history?.at(-1)).toBe(`/video/request/${idUpload}`);
  });

  it('goes back to the request list without an idUpload, and when the request cannot be loaded', async () => {
    const withoutId = renderPublish({}, '/video/request');
    await waitFor(() => expect(withoutId.location.history?.at(-1)).toBe('/video/request-create'));
    expect(api).not.toHaveBeenCalled();
    withoutId.unmount();

    answerApi({
      'GET /create-video/request/missing': () => {
        throw new ApiError(404, ['Запит не знайдено']);
      },
    });
    const failed = renderScreen(
      <Route path={publishRoute}>
        <PublishScreen />
      </Route>,
      { path: '/video/request/missing' },
    );
    await waitFor(() => expect(failed.location.history?.at(-1)).toBe('/video/request-create'));
    expect(await screen.findByText('Запит не знайдено')).toBeInTheDocument();
  });
});

const page = <T,>(data: T[], totalPages = 1): Paged<T> => ({ data, page: 1, totalPages, total: data.length });

const setTexts = {
  title: '',
  sourceName: null,
  posterUrl: null,
  publishedAt: '2026-12-01T07:00:00.000Z',
  countVideo: 3,
  posts: { published: 0, scheduled: 0, held: 0, failed: 0, cancelled: 0 },
  postsFrom: null,
  postsTo: null,
};

describe('YouTube list', () => {
  it('asks the API for the search, status and platform in the address, and a new search starts from page 1', async () => {
    const user = userEvent.setup();
    answerApi({
      'GET /upload-video?page=2&q=%D1%80%D0%B0%D0%BD%D0%BE%D0%BA&status=error': page([{ id: 2, idUpload, status: 'error', ...setTexts }]),
      'GET /upload-video?page=1&q=%D0%B2%D0%B5%D1%87%D1%96%D1%80&status=error': page([]),
      'GET /upload-video?page=1&q=%D0%B2%D0%B5%D1%87%D1%96%D1%80&status=error&platform=tiktok': page([]),
      'GET /upload-video?page=1': page([]),
    });
    const { location } = renderScreen(<UploadListScreen />, { path: '/video/list?page=2&q=ранок&status=error' });
    const address = () => location.history?.at(-1);
    expect(await screen.findByRole('link', { name: 'Публікація без назви' })).toBeInTheDocument();
    const box = screen.getByRole('searchbox', { name: 'Пошук' });
    expect(box).toHaveValue('ранок');
    expect(screen.getByRole('combobox', { name: 'Статус' })).toHaveValue('error');

    await user.clear(box);
    await user.type(box, 'вечір{Enter}');
    await waitFor(() => expect(address()).toBe('/video/list?q=%D0%B2%D0%B5%D1%87%D1%96%D1%80&status=error'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Платформа' }), 'tiktok');
    await waitFor(() => expect(address()).toContain('platform=tiktok'));
    expect(await screen.findByText('Нічого не знайдено')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Скинути фільтри' }));
    await waitFor(() => expect(address()).toBe('/video/list'));
    expect(screen.getByRole('searchbox', { name: 'Пошук' })).toHaveValue('');
  });

  it('shows id, poster, title, file, date, count and status, each row linking to its published set by its idUpload, which it never shows', async () => {
    const user = userEvent.setup();
    const rows: UploadRow[] = [
      {
        id: 2,
        idUpload,
        status: 'publication',
        ...setTexts,
        title: 'Ранковий випуск',
        sourceName: 'morning.mp4',
        posts: { published: 0, scheduled: 6, held: 0, failed: 0, cancelled: 0 },
        postsFrom: '2026-12-02T08:00:00.000Z',
        postsTo: '2026-12-04T08:00:00.000Z',
      },
      // Half-published (issue 40.2): out on one platform, failed on the other.
      {
        id: 1,
        idUpload: 'aaaa-bbbb',
        status: 'error',
        ...setTexts,
        posts: { published: 1, scheduled: 0, held: 0, failed: 1, cancelled: 0 },
        postsFrom: '2026-12-01T10:00:00.000Z',
        postsTo: '2026-12-01T10:05:00.000Z',
      },
    ];
    answerApi({ 'GET /upload-video?page=1': page(rows) });
    const { location } = renderScreen(<UploadListScreen />, { path: '/video/list' });

    expect(screen.getByRole('heading', { name: 'Публікації' })).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: 'Ранковий випуск' });
    expect(link).toHaveAttribute('href', `/video/youtube/${idUpload}`);
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'ID',
      '',
      'Назва',
      'Дати публікацій',
      'Відео',
      'Статус',
    ]);
    const cells = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(cells).toEqual([
      [
        '2',
        '',
        'Ранковий випускmorning.mp4',
        '02.12.2026 – 04.12.2026надіслано 01.12.2026 09:00',
        '3',
        'На публікаціїВийшло 0 з 6, заплановано — 6',
      ],
      [
        '1',
        '',
        'Публікація без назви',
        '01.12.2026 12:00–12:05надіслано 01.12.2026 09:00',
        '3',
        'ПомилкаЧастково: вийшло 1 з 2, з помилкою — 1',
      ],
    ]);
    await user.click(screen.getByRole('cell', { name: '1' }));
    expect(location.history?.at(-1)).toBe('/video/youtube/aaaa-bbbb');
  });

  it("asks for the page in the address and says 'Нічого не знайдено' when there is nothing", async () => {
    answerApi({ 'GET /upload-video?page=3': { data: [], page: 3, totalPages: 0, total: 0 } });
    renderScreen(<UploadListScreen />, { path: '/video/list?page=3' });
    expect(await screen.findByText('Нічого не знайдено')).toBeInTheDocument();
  });
});

function publishedVideo(overrides: Partial<PublishedVideo>): PublishedVideo {
  return videoOfSet(overrides.id ?? 1, { date: '2026-12-01T07:00:00.000Z', account: { id: 7 }, ...overrides });
}

const published: UploadDetail = {
  id: 4,
  idUpload,
  publishedAt: '2026-11-20T08:00:00.000Z',
  status: 'error',
  title: 'Ранковий випуск',
  description: 'Коротко',
  tags: 'shorts,news',
  tagProfile: [{ id: 5, name: 'Музика', tags: ['music'] }],
  edits: [],
  posts: { published: 0, scheduled: 0, held: 0, failed: 0, cancelled: 0 },
  accounts: [
    { id: 7, title: '#7 Олена', value: 7, platforms: ['youtube'] },
    { id: 8, title: '#8 Борис', value: 8, platforms: ['youtube', 'tiktok'] },
  ],
  video: [
    publishedVideo({
      id: 21,
      views: 120,
      likes: 7,
      comments: 3,
      urlYouTube: 'https://youtube.com/shorts/abc',
      urlInstagram: 'https://instagram.com/reel/xyz',
      viewsInstagram: 40,
      likesInstagram: 5,
      commentsInstagram: 1,
    }),
    publishedVideo({ id: 22, status: 'error', views: 9, account: { id: 8 } }),
    publishedVideo({ id: 23, status: 'error', error: 'Вичерпано ліміт платформи, повторимо пізніше', errorInstagram: 'private' }),
    publishedVideo({ id: 24, status: 'error', errorInstagram: 'Платформа відхилила запит' }),
    publishedVideo({ id: 25, status: 'success', urlTiktok: 'https://www.tiktok.com/@olena/video/25', viewsTikTok: 50 }),
  ],
};

function renderPublished(routes: Record<string, unknown> = {}, path = `/video/youtube/${idUpload}`) {
  answerApi({ [`GET /upload-video/${idUpload}`]: published, ...routes });
  return renderScreen(
    <Route path={publishedRoute}>
      <PublishedScreen />
    </Route>,
    { path },
  );
}

const rowOf = (id: number) => screen.getByRole('cell', { name: String(id) }).closest('tr')!;

/** A set with a post waiting for a retry, a scheduled video, and a video that missed a platform. */
const waitingSet: UploadDetail = {
  ...published,
  status: 'publication',
  video: [
    publishedVideo({
      id: 26,
      status: 'publication',
      waitReason: 'Проксі не відповів вчасно',
      waitKind: 'retry',
      nextAttemptAt: '2026-12-01T12:32:00.000Z',
    }),
    publishedVideo({ id: 27, status: 'publication', plannedAt: '2031-12-02T08:00:00.000Z', changeable: true }),
    publishedVideo({ id: 28, status: 'success', publishNote: 'Не публікується в TikTok: профіль #7 Олена не має цієї платформи' }),
  ],
};

describe('published set: waits and scheduled videos', () => {
  it('says why a waiting post waits and when it is tried next (Kyiv time), when a scheduled one goes, and what a video missed', async () => {
    // 1 December 2026, 09:00 in Kyiv: the next attempt is today, so its time alone says when.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-01T07:00:00Z'));
    try {
      renderPublished({ [`GET /upload-video/${idUpload}`]: waitingSet });
      await screen.findByRole('heading', { level: 1, name: 'Ранковий випуск' });
    } finally {
      vi.useRealTimers();
    }
    expect(within(rowOf(26)).getByText('Проксі не відповів вчасно; наступна спроба о 14:32')).toBeInTheDocument();
    expect(within(rowOf(26)).queryByRole('button', { name: /^Змінити/ })).toBeNull();
    expect(within(rowOf(27)).getByText('На публікації')).toBeInTheDocument();
    expect(within(rowOf(27)).getByText('заплановано на 02.12.2031 10:00')).toBeInTheDocument();
    expect(within(rowOf(28)).getByText('Не публікується в TikTok: профіль #7 Олена не має цієї платформи')).toBeInTheDocument();
  });

  it("says the next attempt's day when it is not today in Kyiv, as the date column does", async () => {
    // 30 November 2026, 22:00 in Kyiv: 00:54 is tomorrow's, 23:10 today's.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-30T20:00:00Z'));
    try {
      const tonight = { status: 'publication', waitReason: 'Проксі не відповів вчасно', waitKind: 'retry' } as const;
      renderPublished({
        [`GET /upload-video/${idUpload}`]: {
          ...waitingSet,
          video: [
            publishedVideo({ id: 26, ...tonight, nextAttemptAt: '2026-11-30T22:54:00.000Z' }),
            publishedVideo({ id: 27, ...tonight, nextAttemptAt: '2026-11-30T21:10:00.000Z' }),
          ],
        },
      });
      await screen.findByRole('heading', { level: 1, name: 'Ранковий випуск' });
    } finally {
      vi.useRealTimers();
    }
    expect(within(rowOf(26)).getByText('Проксі не відповів вчасно; наступна спроба 01.12.2026 о 00:54')).toBeInTheDocument();
    expect(within(rowOf(27)).getByText('Проксі не відповів вчасно; наступна спроба о 23:10')).toBeInTheDocument();
  });

  it('moves a scheduled video to another profile and date, cancels it, and toasts a refusal', async () => {
    const user = userEvent.setup();
    const calls: [string, unknown][] = [];
    const moved = {
      ...waitingSet,
      video: waitingSet.video.map((video) =>
        video.id === 27 ? { ...video, account: { id: 8 }, plannedAt: '2031-12-03T07:15:00.000Z' } : video,
      ),
    };
    renderPublished({
      [`GET /upload-video/${idUpload}`]: waitingSet,
      [`PATCH /upload-video/${idUpload}/video/27`]: (body: unknown) => {
        calls.push(['PATCH', body]);
        return moved;
      },
      [`DELETE /upload-video/${idUpload}/video/27/schedule`]: () => {
        calls.push(['DELETE', undefined]);
        throw new ApiError(409, ['Публікація цього відео вже почалася: змінити чи скасувати її не можна']);
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Змінити публікацію відео #27' }));
    const editor = within(screen.getByRole('region', { name: 'Публікація відео #27: поки вона не почалася' }));
    expect(shownDateTime('Нова дата відео #27')).toBe('2031-12-02T10:00');
    expect(editor.getByRole('button', { name: 'Зберегти' })).toBeDisabled();
    await user.selectOptions(editor.getByLabelText('Новий профіль відео #27'), '8');
    pickDateTime('Нова дата відео #27', '2031-12-03T09:15');
    await user.click(editor.getByRole('button', { name: 'Зберегти' }));

    expect(calls).toEqual([['PATCH', { date: '2031-12-03T09:15', accountId: 8 }]]);
    expect(await screen.findByText('Публікацію перенесено')).toBeInTheDocument();
    expect(within(rowOf(27)).getByText('заплановано на 03.12.2031 09:15')).toBeInTheDocument();
    expect(within(rowOf(27)).getByRole('link', { name: '#8 Борис' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /^Публікація відео #27/ })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Змінити публікацію відео #27' }));
    await user.click(screen.getByRole('button', { name: 'Скасувати публікацію' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Скасувати публікацію' }));
    expect(await screen.findByText('Публікація цього відео вже почалася: змінити чи скасувати її не можна')).toBeInTheDocument();
    expect(calls.at(-1)).toEqual(['DELETE', undefined]);
  });
});

describe('published set', () => {
  it('shows each video with its profile link, date, platform links and status', async () => {
    renderPublished();
    await screen.findByRole('heading', { level: 1, name: 'Ранковий випуск' });
    const first = within(rowOf(21));
    expect(first.getByRole('link', { name: '#7 Олена' })).toHaveAttribute('href', '/accounts/7');
    expect(first.getByText('01.12.2026 09:00')).toBeInTheDocument();
    expect(first.getByRole('link', { name: 'YouTube' })).toHaveAttribute('href', 'https://youtube.com/shorts/abc');
    expect(first.getByRole('link', { name: 'Instagram' })).toHaveAttribute('href', 'https://instagram.com/reel/xyz');
    expect(first.getByText('Опубліковано')).toBeInTheDocument();
    expect(within(rowOf(22)).getByRole('link', { name: '#8 Борис' })).toHaveAttribute('href', '/accounts/8');
  });

  it('shows likes, views and comments only for published videos, and only for the platforms each went out on', async () => {
    renderPublished();
    await screen.findByRole('heading', { level: 1, name: 'Ранковий випуск' });
    expect(
      within(rowOf(21))
        .getAllByLabelText(/: \d+$/)
        .map((stat) => stat.getAttribute('aria-label')),
    ).toEqual([
      'Перегляди YouTube: 120',
      'Вподобання YouTube: 7',
      'Коментарі YouTube: 3',
      'Перегляди Instagram: 40',
      'Вподобання Instagram: 5',
      'Коментарі Instagram: 1',
    ]);
    // On TikTok only: its figures under TikTok, no YouTube row.
    expect(
      within(rowOf(25))
        .getAllByLabelText(/: \d+$/)
        .map((stat) => stat.getAttribute('aria-label')),
    ).toEqual(['Перегляди TikTok: 50', 'Вподобання TikTok: 0', 'Коментарі TikTok: 0']);
    expect(within(rowOf(22)).queryAllByLabelText(/: \d+$/)).toEqual([]);
  });

  it("marks a post read with no views 48 hours on, and one behind its profile's reach mark, with their figures", async () => {
    const marked = {
      ...published,
      video: [
        publishedVideo({
          id: 31,
          reach: [
            { platform: 'youtube', mark: 'limited', views: 12, medianViews: 2400, hoursLive: null },
            { platform: 'tiktok', mark: 'unseen', views: 0, medianViews: null, hoursLive: 49 },
          ],
        }),
        publishedVideo({ id: 32 }),
      ],
    };
    renderPublished({ [`GET /upload-video/${idUpload}`]: marked });
    await screen.findByRole('heading', { level: 1, name: 'Ранковий випуск' });
    expect(
      within(rowOf(31))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      ' YouTube: можливе обмеження показів — 12 переглядів при медіані профілю 2\u00a0400',
      ' TikTok: жодного перегляду через 49 год після публікації',
    ]);
    expect(within(rowOf(32)).queryAllByRole('listitem')).toEqual([]);
  });

  it("shows the YouTube error, else the Instagram error, else 'Причину не вказано' on failed videos", async () => {
    renderPublished();
    await screen.findByRole('heading', { level: 1, name: 'Ранковий випуск' });
    expect(within(rowOf(22)).getByText('Причину не вказано')).toBeInTheDocument();
    expect(within(rowOf(23)).getByText('Вичерпано ліміт платформи, повторимо пізніше')).toBeInTheDocument();
    expect(within(rowOf(23)).queryByText('private')).toBeNull();
    expect(within(rowOf(24)).getByText('Платформа відхилила запит')).toBeInTheDocument();
    expect(within(rowOf(21)).queryByRole('button', { name: 'Опублікувати' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Опублікувати' })).toHaveLength(3);
  });

  it('retries a failed video with { videoId, youTubeId } and shows the refreshed set', async () => {
    const user = userEvent.setup();
    const retried: unknown[] = [];
    let retriedAlready = false;
    renderPublished({
      'POST /upload-video/upload': (body: unknown) => {
        retried.push(body);
        retriedAlready = true;
        return { ok: true };
      },
      [`GET /upload-video/${idUpload}`]: () =>
        retriedAlready
          ? { ...published, video: published.video.map((video) => (video.id === 22 ? { ...video, status: 'publication' } : video)) }
          : published,
    });
    await screen.findByRole('heading', { level: 1, name: 'Ранковий випуск' });
    await user.click(within(rowOf(22)).getByRole('button', { name: 'Опублікувати' }));

    expect(retried).toEqual([{ videoId: 22, youTubeId: idUpload }]);
    await waitFor(() => expect(within(rowOf(22)).getByText('На публікації')).toBeInTheDocument());
    expect(within(rowOf(22)).queryByText('Причину не вказано')).toBeNull();
  });

  it("saves the title, description and tags, with a tag-set chip, and toasts 'Оновлено дані'", async () => {
    const user = userEvent.setup();
    const patched: unknown[] = [];
    renderPublished({
      [`PATCH /upload-video/${idUpload}`]: (body: unknown) => (patched.push(body), { ...published, title: 'Вечірній випуск' }),
    });
    const title = await screen.findByLabelText('Назва');
    expect(title).toHaveValue('Ранковий випуск');
    await user.clear(title);
    await user.type(title, 'Вечірній випуск');
    await user.click(screen.getByRole('button', { name: 'Музика' }));
    await user.click(screen.getByRole('button', { name: 'Зберегти' }));

    expect(await screen.findByText('Оновлено дані')).toBeInTheDocument();
    expect(patched).toEqual([{ title: 'Вечірній випуск', description: 'Коротко', tags: ['shorts', 'news', 'music'] }]);
  });

  it('refuses to save without a title or tags', async () => {
    const user = userEvent.setup();
    renderPublished();
    await user.clear(await screen.findByLabelText('Назва'));
    for (const tag of ['shorts', 'news']) await user.click(screen.getByRole('button', { name: `Видалити тег ${tag}` }));
    await user.click(screen.getByRole('button', { name: 'Зберегти' }));
    expect((await screen.findAllByRole('alert')).map((alert) => alert.textContent)).toEqual(["Назва обов'язкова", 'Мінімум один тег']);
    expect(vi.mocked(api).mock.calls.map(([method]) => method)).toEqual(['GET']);
  });

  it('refreshes while a video is on its way, and stops once every video has settled', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const answers = [
        { ...published, video: [publishedVideo({ id: 41, status: 'publication' })] },
        { ...published, video: [publishedVideo({ id: 41, status: 'loading' })] },
        { ...published, video: [publishedVideo({ id: 41, status: 'success', urlYouTube: 'https://youtube.com/shorts/q', views: 3 })] },
      ];
      const gets: number[] = [];
      renderPublished({ [`GET /upload-video/${idUpload}`]: () => answers[Math.min(gets.push(1), answers.length) - 1] });
      expect(await screen.findByText('На публікації')).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(publishedDetailPollMs);
      expect(await screen.findByText('Створюється')).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(publishedDetailPollMs);
      expect(await screen.findByLabelText('Перегляди YouTube: 3')).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(3 * publishedDetailPollMs);
      expect(gets).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('follows a saved edit to YouTube until it lands, and says TikTok keeps its texts', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const tiktok = { platform: 'tiktok' as const, editable: false, pending: 0, done: 0, errors: [] };
      const answers: UploadDetail[] = [
        { ...published, edits: [{ platform: 'youtube', editable: true, pending: 2, done: 0, errors: [] }, tiktok] },
        {
          ...published,
          edits: [
            { platform: 'youtube', editable: true, pending: 0, done: 1, errors: ['YouTube: Відео на платформі не знайдено'] },
            tiktok,
          ],
        },
      ];
      const gets: number[] = [];
      renderPublished({ [`GET /upload-video/${idUpload}`]: () => answers[Math.min(gets.push(1), answers.length) - 1] });
      const reach = await screen.findByRole('status', { name: 'Куди дійдуть зміни' });
      expect(reach).toHaveTextContent('YouTube: зміни надсилаються (відео: 2)…');
      expect(reach).toHaveTextContent('TikTok: не змінюється через API: опубліковані відео зберігають попередні назву, опис і теги');
      await vi.advanceTimersByTimeAsync(publishedDetailPollMs);
      await waitFor(() =>
        expect(screen.getByRole('status', { name: 'Куди дійдуть зміни' })).toHaveTextContent('YouTube: не вдалося змінити відео: 1'),
      );
      expect(screen.getByRole('status', { name: 'Куди дійдуть зміни' })).toHaveTextContent('YouTube: Відео на платформі не знайдено');
      await vi.advanceTimersByTimeAsync(3 * publishedDetailPollMs);
      expect(gets).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('goes back to the YouTube list without an idUpload, and when the set cannot be loaded', async () => {
    const withoutId = renderPublished({}, '/video/youtube');
    await waitFor(() => expect(withoutId.location.history?.at(-1)).toBe('/video/list'));
    expect(api).not.toHaveBeenCalled();
    withoutId.unmount();

    const failed = renderPublished({}, '/video/youtube/missing');
    await waitFor(() => expect(failed.location.history?.at(-1)).toBe('/video/list'));
  });
});

describe('video rows of a profile or a user', () => {
  const summary = (overrides: Partial<VideoSummary>): VideoSummary => {
    const { idUpload: _idUpload, url: _url, posterUrl: _posterUrl, ...video } = publishedVideo(overrides);
    return video;
  };

  it('show id, date, links when present, the status label, figures only once published and the error text on failure', () => {
    render(
      <VideoTable
        loading={false}
        onPageChange={() => {}}
        data={page([
          summary({ id: 31, views: 10, likes: 2, comments: 1, urlYouTube: 'https://youtube.com/shorts/q' }),
          summary({ id: 32, status: 'error', views: 10, errorInstagram: 'Доступ до акаунта відкликано' }),
          summary({ id: 33, status: 'loading', date: null }),
        ])}
      />,
    );
    const cellsOf = (id: number) =>
      within(rowOf(id))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'ID',
      'Дата',
      'Посилання',
      'Статистика',
      'Статус',
    ]);
    expect(cellsOf(31)).toEqual(['31', '01.12.2026 09:00', 'YouTube', 'YouTube1021', 'Опубліковано']);
    expect(cellsOf(32)).toEqual(['32', '01.12.2026 09:00', '—', '', 'ПомилкаДоступ до акаунта відкликано']);
    expect(cellsOf(33)).toEqual(['33', '', '—', '', 'Створюється']);
    expect(within(rowOf(31)).getByLabelText('Перегляди YouTube: 10')).toBeInTheDocument();
  });
});
