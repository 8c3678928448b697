import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api } from '../../src/lib/api';
import type { StatsChoices, StatsOverview, TopVideos } from '../../src/lib/contract';
import * as t from '../../src/lib/i18n';
import { StatsScreen } from '../../src/screens/stats/stats-screen';
import { answerApi, renderScreen } from './render';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));
// uPlot draws on a canvas jsdom does not have; the browser test (tests/e2e/stats-export.test.ts) sees the real chart.
vi.mock('../../src/components/stats-chart', () => ({
  StatsChart: ({ at, lines, reading }: { at: number[]; lines: StatsOverview['daily']; reading: string }) => (
    <div data-testid="chart">
      {reading} {at.length}: {lines.map((line) => `${line.platform} ${line.values.join(',')}`).join('; ')}
    </div>
  ),
}));

const choices: StatsChoices = {
  accounts: [
    { id: 3, title: '#3 Ранок' },
    { id: 4, title: '#4 Вечір' },
  ],
  groups: [{ id: 2, name: 'Київ' }],
};

const top: TopVideos = {
  videos: [
    {
      videoId: 11,
      idUpload: '0b7c4d3e-1111-4222-8333-444455556666',
      title: 'Ранкова кава',
      number: 2,
      account: { id: 3, title: '#3 Ранок' },
      platforms: ['youtube', 'tiktok'],
      gained: 1200,
      views: 5000,
    },
    {
      videoId: 12,
      idUpload: '0b7c4d3e-1111-4222-8333-444455556667',
      title: '',
      number: 1,
      account: null,
      platforms: ['instagram'],
      gained: 300,
      views: 300,
    },
  ],
};

const opening = 'from=2026-11-02&to=2026-12-01';

/** Thousands as the catalog groups them: a no-break space between groups of three digits. */
const nbsp = '\u00a0';

const overview: StatsOverview = {
  totals: [
    { platform: 'youtube', gained: 12_345, likes: 1_200, comments: 45, posts: 3 },
    { platform: 'tiktok', gained: 800, likes: 40, comments: 2, posts: 1 },
  ],
  days: ['2026-11-29', '2026-11-30', '2026-12-01'],
  at: [1_764_367_200, 1_764_453_600, 1_764_540_000],
  daily: [
    { platform: 'youtube', values: [10_000, 2_000, 345] },
    { platform: 'tiktok', values: [0, 300, 500] },
  ],
  profiles: [
    { account: { id: 3, title: '#3 Ранок' }, gained: 12_000, likes: 1_100, comments: 40, posts: 2 },
    { account: null, gained: 1_145, likes: 140, comments: 7, posts: 2 },
  ],
};
const noFigures: StatsOverview = { totals: [], days: ['2026-10-01'], at: [1_759_266_000], daily: [], profiles: [] };

/** Types a Kyiv day into a day field, as `dd.mm.yyyy`. */
function typeDay(label: string, day: string) {
  fireEvent.change(screen.getByLabelText(`${label}: день`), { target: { value: day.split('-').reverse().join('.') } });
}

beforeEach(() => {
  vi.mocked(api).mockReset();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-30T22:30:00Z'));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('statistics screen', () => {
  it('ranks the top videos of the last 30 Kyiv days and reads them again for the filters applied', async () => {
    const asked: string[] = [];
    answerApi({
      'GET /stats/choices': choices,
      [`GET /stats/overview?${opening}`]: overview,
      [`GET /stats/top?${opening}`]: () => (asked.push(opening), top),
      'GET /stats/overview?from=2026-10-01&to=2026-10-31&groupId=2&platform=tiktok': noFigures,
      'GET /stats/top?from=2026-10-01&to=2026-10-31&groupId=2&platform=tiktok': () => (asked.push('october'), { videos: [] }),
    });
    renderScreen(<StatsScreen />, { path: '/stats' });

    const topSection = await screen.findByRole('region', { name: t.statsScreen.top });
    const rows = within(topSection).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      '№ВідеоПрофільПлатформиНові переглядиУсього переглядів',
      `1Ранкова кава · відео 2#3 РанокYouTube, TikTok1${nbsp}2005${nbsp}000`,
      '2Публікація без назви · відео 1Профіль видаленоInstagram300300',
    ]);
    expect(within(rows[1]!).getByRole('link', { name: 'Ранкова кава · відео 2' })).toHaveAttribute(
      'href',
      '/video/youtube/0b7c4d3e-1111-4222-8333-444455556666',
    );
    expect(screen.getByText(t.statsScreen.topPeriod('02.11.2026', '01.12.2026'))).toBeInTheDocument();

    typeDay(t.statsScreen.from, '2026-10-01');
    typeDay(t.statsScreen.to, '2026-10-31');
    const scope = screen.getByLabelText(t.statsScreen.scope);
    expect(
      within(scope)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Усі профілі', 'Київ', '#3 Ранок', '#4 Вечір']);
    await userEvent.selectOptions(scope, 'Київ');
    await userEvent.selectOptions(screen.getByLabelText(t.statsScreen.platform), 'TikTok');
    await userEvent.click(screen.getByRole('button', { name: t.statsScreen.show }));
    expect(await screen.findByText(t.statsScreen.topEmpty)).toBeInTheDocument();
    // No figures in the period: one line says so, and neither tiles, chart nor ranking stand empty.
    expect(screen.getByText(t.statsScreen.overviewEmpty)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: t.statsScreen.totals })).not.toBeInTheDocument();
    expect(screen.queryByTestId('chart')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: t.statsScreen.profilesTitle })).not.toBeInTheDocument();
    expect(asked).toEqual([opening, 'october']);
    expect(screen.getByText(t.statsScreen.topPeriod('01.10.2026', '31.10.2026'))).toBeInTheDocument();
  });

  it('shows the period’s totals per platform and all together, each day’s new views, and the profiles ranked', async () => {
    let answer: (figures: StatsOverview) => void = () => {};
    answerApi({
      'GET /stats/choices': choices,
      [`GET /stats/overview?${opening}`]: () => new Promise<StatsOverview>((resolve) => (answer = resolve)),
      [`GET /stats/top?${opening}`]: top,
    });
    renderScreen(<StatsScreen />, { path: '/stats' });
    // Loading: a spinner says so, no figure is shown yet.
    expect(await screen.findByRole('status', { name: t.app.loading })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: t.statsScreen.totals })).not.toBeInTheDocument();
    expect(screen.getByText(t.statsScreen.period('02.11.2026', '01.12.2026'))).toBeInTheDocument();
    answer(overview);

    const totals = await screen.findByRole('region', { name: t.statsScreen.totals });
    const tiles = within(totals).getAllByRole('listitem');
    expect(tiles.map((tile) => tile.textContent)).toEqual([
      `Усі платформи разом13${nbsp}145 нових переглядівНові вподобання1${nbsp}240Нові коментарі47Опубліковано за період4`,
      `YouTube12${nbsp}345 нових переглядівНові вподобання1${nbsp}200Нові коментарі45Опубліковано за період3`,
      'TikTok800 нових переглядівНові вподобання40Нові коментарі2Опубліковано за період1',
    ]);
    expect(await within(totals).findByTestId('chart')).toHaveTextContent('daily 3: youtube 10000,2000,345; tiktok 0,300,500');

    // The chart's figures as a table, on demand.
    const toggle = within(totals).getByRole('button', { name: t.stats.showTable });
    await userEvent.click(toggle);
    expect(toggle).toHaveAccessibleName(t.stats.hideTable);
    const dayRows = within(totals).getAllByRole('row');
    expect(dayRows.map((row) => row.textContent)).toEqual([
      'ДеньYouTubeTikTok',
      `29.11.202610${nbsp}0000`,
      `30.11.20262${nbsp}000300`,
      '01.12.2026345500',
    ]);

    const profiles = screen.getByRole('region', { name: t.statsScreen.profilesTitle });
    expect(
      within(profiles)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      '№ПрофільНові переглядиНові вподобанняНові коментаріПублікацій із цифрами',
      `1#3 Ранок12${nbsp}0001${nbsp}100402`,
      `2Профіль видалено1${nbsp}14514072`,
    ]);
  });

  it('refuses a period that ends before it starts or runs past a year, before asking the server', async () => {
    answerApi({ 'GET /stats/choices': choices, [`GET /stats/overview?${opening}`]: overview, [`GET /stats/top?${opening}`]: top });
    renderScreen(<StatsScreen />, { path: '/stats' });
    await screen.findByRole('region', { name: t.statsScreen.top });

    typeDay(t.statsScreen.to, '2026-10-31');
    await userEvent.click(screen.getByRole('button', { name: t.statsScreen.show }));
    expect(await screen.findByText(t.statsScreen.rangeReversed)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(`${t.statsScreen.to}: день`)).toHaveFocus());

    typeDay(t.statsScreen.from, '2025-10-30');
    await userEvent.click(screen.getByRole('button', { name: t.statsScreen.show }));
    expect(await screen.findByText(t.statsScreen.rangeTooLong(366))).toBeInTheDocument();
    expect(vi.mocked(api).mock.calls.filter(([, path]) => path.startsWith('/stats/top'))).toHaveLength(1);
  });

  it('downloads the CSV asked for in the export dialog, with the server’s file name, and says so', async () => {
    answerApi({ 'GET /stats/choices': choices, [`GET /stats/overview?${opening}`]: overview, [`GET /stats/top?${opening}`]: top });
    const csv = '\uFEFFДата;Профіль\r\n01.12.2026;#3 Ранок\r\n';
    const fetched: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        fetched.push(url);
        return new Response(csv, {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="statystyka_2026-11-02_2026-12-01.csv"',
          },
        });
      }),
    );
    const saved: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => (saved.push(blob), 'blob:stats'));
    URL.revokeObjectURL = vi.fn();
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    renderScreen(<StatsScreen />, { path: '/stats' });
    await screen.findByRole('region', { name: t.statsScreen.top });

    const open = screen.getByRole('button', { name: t.statsScreen.exportOpen });
    await userEvent.click(open);
    const dialog = screen.getByRole('dialog', { name: t.statsScreen.exportTitle });
    expect(dialog).toHaveAccessibleDescription(t.statsScreen.exportText);
    // It starts from the screen's filters, named rather than asked again.
    expect(within(dialog).getByText(t.statsScreen.exportPageFilters)).toBeInTheDocument();
    expect(
      within(dialog)
        .getAllByRole('term')
        .map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`),
    ).toEqual([
      `${t.stats.period}: ${t.statsScreen.period('02.11.2026', '01.12.2026')}`,
      `${t.statsScreen.scope}: ${t.statsScreen.allProfiles}`,
      `${t.statsScreen.platform}: ${t.statsScreen.allPlatforms}`,
    ]);
    expect(within(dialog).queryByLabelText(`${t.statsScreen.from}: день`)).not.toBeInTheDocument();
    // Changing them shows the fields, from the same filters, the first focused.
    await userEvent.click(within(dialog).getByRole('button', { name: t.statsScreen.exportChange }));
    expect(within(dialog).getByLabelText(`${t.statsScreen.from}: день`)).toHaveValue('02.11.2026');
    expect(within(dialog).getByLabelText(`${t.statsScreen.from}: день`)).toHaveFocus();
    await userEvent.selectOptions(within(dialog).getByLabelText(t.statsScreen.scope), '#4 Вечір');
    await userEvent.click(within(dialog).getByRole('button', { name: t.statsScreen.exportSubmit }));

    expect(await screen.findByText(t.statsScreen.exportDone)).toBeInTheDocument();
    expect(fetched).toEqual([`/api/stats/export.csv?${opening}&accountId=4`]);
    // The bytes as the server sent them, its byte order mark kept (text() would decode it away).
    expect(Buffer.from(await saved[0]!.arrayBuffer()).equals(Buffer.from(csv))).toBe(true);
    expect(clicked).toEqual([{ href: 'blob:stats', download: 'statystyka_2026-11-02_2026-12-01.csv' }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(open).toHaveFocus();
  });

  it('keeps the dialog open with the server’s reason when the export is refused, and closes it on Escape', async () => {
    answerApi({ 'GET /stats/choices': choices, [`GET /stats/overview?${opening}`]: overview, [`GET /stats/top?${opening}`]: top });
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ statusCode: 404, error: 'Не знайдено', message: 'Не знайдено' }), {
            status: 404,
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    renderScreen(<StatsScreen />, { path: '/stats' });
    await screen.findByRole('region', { name: t.statsScreen.top });
    await userEvent.click(screen.getByRole('button', { name: t.statsScreen.exportOpen }));
    const dialog = screen.getByRole('dialog', { name: t.statsScreen.exportTitle });
    await userEvent.click(within(dialog).getByRole('button', { name: t.statsScreen.exportSubmit }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Не знайдено');

    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: t.statsScreen.exportOpen })).toHaveFocus();
  });
});
