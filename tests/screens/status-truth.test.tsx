import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { CreationRequestRow, Paged, UploadRow, VideoSummary } from '../../src/lib/contract';
import { VideoTable } from '../../src/components/video-table';
import { RequestListScreen } from '../../src/screens/video/request-list-screen';
import { UploadListScreen } from '../../src/screens/video/upload-list-screen';
import { answerApi, renderScreen } from './render';
import { videoSummary as video } from './video-fixtures';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));

afterEach(() => {
  vi.restoreAllMocks();
});

const pageOf = <T,>(...data: T[]): Paged<T> => ({ data, page: 1, totalPages: 1, total: data.length });
const rowOf = (id: number) => screen.getByRole('cell', { name: String(id) }).closest('tr')!;
const statsOf = (id: number) => within(rowOf(id)).getAllByRole('cell')[3]!;

describe('a video list says what happened on each platform', () => {
  it("shows a rendered, unpublished video as 'Не опубліковано' with no figures", () => {
    renderScreen(<VideoTable data={pageOf(video(1, { status: 'noactive' }))} loading={false} onPageChange={() => {}} />);
    expect(within(rowOf(1)).getByText('Не опубліковано')).toBeInTheDocument();
    expect(within(rowOf(1)).queryByText('Опубліковано')).toBeNull();
    expect(statsOf(1)).toHaveTextContent(/^$/);
  });

  it("shows a video whose publication was cancelled as 'Скасовано', not 'Не опубліковано', with no figures", () => {
    renderScreen(<VideoTable data={pageOf(video(1, { status: 'cancelled' }))} loading={false} onPageChange={() => {}} />);
    expect(within(rowOf(1)).getByText('Скасовано')).toBeInTheDocument();
    expect(within(rowOf(1)).queryByText('Не опубліковано')).toBeNull();
    expect(statsOf(1)).toHaveTextContent(/^$/);
  });

  it('gives the reason of a video that failed on TikTok only, read from its failed post, where the list has no errorTiktok', () => {
    const refused = 'TikTok: Доступ до акаунта відкликано або він недійсний, підключіть профіль знову';
    const posts: VideoSummary['posts'] = [
      { platform: 'tiktok', state: 'failed', kind: refused, url: null, error: refused, date: '2026-11-21T10:00:00.000Z' },
      {
        platform: 'instagram',
        state: 'published',
        kind: null,
        url: 'https://www.instagram.com/reel/x/',
        error: null,
        date: '2026-11-21T10:00:00.000Z',
      },
    ];
    renderScreen(<VideoTable data={pageOf(video(5, { status: 'error', posts }))} loading={false} onPageChange={() => {}} />);
    expect(within(rowOf(5)).getByText('Помилка')).toBeInTheDocument();
    expect(within(rowOf(5)).getByText(/Доступ до акаунта відкликано/)).toBeInTheDocument();
    expect(within(rowOf(5)).queryByText('Причину не вказано')).toBeNull();
    // Issue 40.2: each platform's post under the status, its date labelled as which.
    const badges = within(within(rowOf(5)).getByRole('list', { name: 'Публікації на платформах' })).getAllByRole('listitem');
    expect(badges.map((badge) => badge.textContent)).toEqual([
      'TikTok: помилка; заплановано на 21.11.2026 12:00',
      'Instagram: опубліковано; вийшло 21.11.2026 12:00',
    ]);
    expect(badges[0]).toHaveAttribute('title', expect.stringMatching(/^TikTok: Доступ до акаунта відкликано/));
  });

  it('shows figures only for the platforms a video went out on, each under its own name', () => {
    renderScreen(
      <VideoTable
        data={pageOf(
          video(2, { urlTiktok: 'https://www.tiktok.com/@a/video/1', viewsTikTok: 40, likesTikTok: 4, commentsTikTok: 1 }),
          video(3, { urlInstagram: 'https://www.instagram.com/reel/x/', viewsInstagram: 70, likesInstagram: 7, commentsInstagram: 2 }),
          video(4, {
            urlYouTube: 'https://youtube.com/shorts/q',
            views: 10,
            urlTiktok: 'https://www.tiktok.com/@a/video/2',
            viewsTikTok: 5,
          }),
        )}
        loading={false}
        onPageChange={() => {}}
      />,
    );
    expect(within(rowOf(2)).getByRole('link', { name: /TikTok/ })).toHaveAttribute('href', 'https://www.tiktok.com/@a/video/1');
    expect(statsOf(2)).toHaveTextContent(/^TikTok4041$/);
    expect(within(statsOf(2)).getByLabelText('Перегляди TikTok: 40')).toBeInTheDocument();
    expect(within(statsOf(2)).queryByText('YouTube')).toBeNull();

    expect(statsOf(3)).toHaveTextContent(/^Instagram7072$/);
    expect(within(statsOf(3)).queryByText('YouTube')).toBeNull();

    expect(within(statsOf(4)).getByLabelText('Перегляди YouTube: 10')).toBeInTheDocument();
    expect(within(statsOf(4)).getByLabelText('Перегляди TikTok: 5')).toBeInTheDocument();
    expect(within(statsOf(4)).queryByText('Instagram')).toBeNull();
  });
});

describe('the request list', () => {
  const request = (id: number, overrides: Partial<CreationRequestRow>): CreationRequestRow => ({
    id,
    idUpload: `00000000-0000-4000-8000-00000000000${id}`,
    status: 'published',
    countVideo: 2,
    createdAt: '2026-11-21T10:00:00.000Z',
    sourceName: `clip-${id}.mp4`,
    posterUrl: null,
    ...overrides,
  });

  it("gives a published request its set's status, as the YouTube list names it", async () => {
    answerApi({
      'GET /create-video?page=1': pageOf(
        request(1, { publicationStatus: 'publication' }),
        request(2, { publicationStatus: 'success' }),
        request(3, { status: 'success' }),
        request(4, { publicationStatus: 'cancelled' }),
      ),
    });
    renderScreen(<RequestListScreen />, { path: '/video/request-create' });
    const statusCell = async (id: number) => within((await screen.findByText(`clip-${id}.mp4`)).closest('tr')!).getAllByRole('cell')[4]!;
    expect(await statusCell(1)).toHaveTextContent(/^На публікації$/);
    expect(await statusCell(2)).toHaveTextContent(/^Опубліковано$/);
    expect(await statusCell(3)).toHaveTextContent(/^Готово$/);
    expect(await statusCell(4)).toHaveTextContent(/^Скасовано$/);
  });

  it('names a request by its file and number, never by its UUID', async () => {
    answerApi({
      'GET /create-video?page=1': pageOf(request(1, { status: 'success' }), request(2, { sourceName: null, status: 'success' })),
    });
    renderScreen(<RequestListScreen />, { path: '/video/request-create' });
    const first = (await screen.findByText('clip-1.mp4')).closest('tr')!;
    expect(within(first).getAllByRole('cell')[1]).toHaveTextContent(/^clip-1\.mp4#1$/);
    expect(screen.getByText('#2')).toBeInTheDocument();
    expect(screen.getByRole('table').textContent).not.toMatch(/00000000-0000-4000-8000/);
    expect(within(first).getByRole('link', { name: /Публікувати/ })).toHaveAttribute(
      'href',
      '/video/request/00000000-0000-4000-8000-000000000001',
    );
  });
});

describe('the published sets list', () => {
  it("shows a set whose publication was cancelled as 'Скасовано', and offers it as a filter", async () => {
    const set: UploadRow = {
      id: 5,
      idUpload: '00000000-0000-4000-8000-000000000005',
      title: 'Ранковий випуск',
      sourceName: null,
      publishedAt: '2026-11-21T10:00:00.000Z',
      countVideo: 1,
      posterUrl: null,
      status: 'cancelled',
      posts: { published: 0, scheduled: 0, held: 0, failed: 0, cancelled: 1 },
      postsFrom: null,
      postsTo: null,
    };
    answerApi({ 'GET /upload-video?page=1': pageOf(set) });
    renderScreen(<UploadListScreen />, { path: '/video/list' });
    const row = (await screen.findByText('Ранковий випуск')).closest('tr')!;
    expect(within(row).getByText('Скасовано')).toBeInTheDocument();
    expect(within(screen.getByRole('combobox', { name: 'Статус' })).getByRole('option', { name: 'Скасовано' })).toHaveValue('cancelled');
  });
});
