import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { kyivDay } from '../../src/lib/calendar';
import type { StatsOverview, TopVideos } from '../../src/lib/contract';
import * as t from '../../src/lib/i18n';
import { emptyAccountForm } from '../../src/lib/schemas';
import { runTool } from '../../server/media/tools';
import { makeClip, testTools } from '../fixtures/media';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';
import {
  accessToken,
  apiBodies,
  connectBrowser,
  createOperator,
  logIn,
  pageProblems,
  renderedRequest,
  sharedServer,
  snapshot,
  syncStatsNow,
  videosToPublish,
} from './harness';

/**
 * The statistics screen against `npm start` on the sandbox platforms: a set published on YouTube
 * and TikTok and synced on request (POST /sandbox/_sync-stats) shows in the period's totals per
 * platform, its daily chart and the profiles ranked, tops the 'Топ відео' table, and the export
 * dialog saves a CSV of the page's filters, fetched with the operator's token, that reads back with
 * its Cyrillic intact. Screens at 1440 and 390 px.
 */

const server = sharedServer();
let browser: Browser;
let mediaDir: string;
let token: string;
let accountId: number;
let idUpload: string;
const title = 'Ранковий їжак: "кава"; ґанок';
const today = kyivDay(Date.now());
const monthAgo = kyivDay(Date.now() - 29 * 86_400_000);

const api = apiBodies(server.baseUrl, () => token);

/** A figure as the screen writes it ('1 234', a no-break space between groups), as a number. */
const figureOf = (text: string | null) => Number(text!.replace(/\s/g, ''));

beforeAll(async () => {
  const tools = testTools();
  mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-e2e-export-'));
  const image = path.join(mediaDir, 'background.png');
  await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x1d4ed8:s=720x1280', '-frames:v', '1', image], 60_000);
  const clip = path.join(mediaDir, 'clip.mp4');
  await makeClip(tools, clip, { seconds: 4 });

  const operator = await createOperator(server.baseUrl, 'stepan-export');
  token = await accessToken(server.baseUrl, operator.login, operator.password);
  const account = await api('/api/accounts', {
    json: {
      ...emptyAccountForm,
      proxy: server.proxyUrl,
      comments: 'Експортний канал',
      isActiveYouTube: true,
      YouTubeAuthClientId: 'export-client.apps.googleusercontent.com',
      YouTubeAuthClientSecret: 'export-client-secret',
      isActiveTikTok: true,
      TikTiokAuthStr: 'sandbox-tt-stepan',
    },
  });
  accountId = account.id;
  await api(`/api/posting-rules/${accountId}`, {
    method: 'PUT',
    json: { tiktok: { privacyLevel: 'SELF_ONLY' }, youtube: { selfDeclaredMadeForKids: false } },
  });
  const { url } = await api(`/api/accounts/connect-youtube/${accountId}`, { method: 'POST' });
  expect(new URL((await answerSandboxConsent(url)).url).search).toBe('?youtube=connected');
  await api('/api/accounts-group', { json: { name: 'Ранкові', accounts: [{ id: accountId }] } });

  const images = new FormData();
  images.append('files', new Blob([await fs.readFile(image)], { type: 'image/png' }), 'background.png');
  const photoIds = (await api('/api/photo-bg', { form: images })).data.map((photo: { id: number }) => photo.id);
  idUpload = (await renderedRequest(api, { clip, photoIds })).idUpload;
  const detail = await api(`/api/create-video/request/${idUpload}`);
  await api(`/api/upload-video/${idUpload}`, {
    json: {
      title,
      description: '',
      tags: ['ранок'],
      accounts: [{ id: accountId, title: `#${accountId}`, value: accountId }],
      video: videosToPublish(idUpload, detail),
      inYouTube: true,
      inTikTok: true,
      inInstagram: false,
      date: null,
    },
  });

  // The first figures synced are all gained within the period: the set is in the top once both posts have them.
  await vi.waitFor(
    async () => {
      await syncStatsNow(server.baseUrl);
      const top: TopVideos = await api(`/api/stats/top?from=${today}&to=${today}`);
      expect(top.videos.map((video) => [video.idUpload, video.platforms])).toEqual([[idUpload, ['youtube', 'tiktok']]]);
    },
    { timeout: 180_000, interval: 3000 },
  );
  browser = await connectBrowser();
});

afterAll(async () => {
  await browser?.close();
  await fs.rm(mediaDir, { recursive: true, force: true });
});

/** The operator signed in at `pathname` (their password is createOperator's). */
async function signedInPage(width: number, height: number, pathname: string): Promise<Page> {
  // axe is injected by the test, which the product's CSP would rightly refuse.
  const context = await browser.newContext({ viewport: { width, height }, bypassCSP: true, locale: 'uk-UA', acceptDownloads: true });
  const page = await context.newPage();
  await logIn(page, server.baseUrl, 'stepan-export', 'stepan-export-password', pathname);
  await page.getByTestId('user-login').waitFor({ state: 'attached' });
  return page;
}

it('totals the synced set per platform, charts its days and ranks its profile and video over the last 30 days, at 1440 and 390 px', async () => {
  const page = await signedInPage(1440, 900, '/');
  await page.getByRole('link', { name: t.menu.stats }).click();
  await page.getByRole('heading', { name: t.statsScreen.top }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/stats');

  // The tiles say what the server counted: every platform together first, then each. The shared
  // server syncs statistics each minute, so a sync may land between the page's read and the API's:
  // the page is read again after the API until a read of each sees the same figures.
  const totals = page.getByRole('region', { name: t.statsScreen.totals });
  const tiles = totals.getByRole('listitem').filter({ has: page.getByRole('heading') });
  const tileViews = async () => {
    await expect.poll(() => tiles.count()).toBe(3);
    return (await tiles.locator('p').allTextContents()).map((text) => figureOf(text.split(' ').slice(0, -2).join(' ')));
  };
  let overview: StatsOverview = await api(`/api/stats/overview?from=${monthAgo}&to=${today}`);
  for (let read = 1; read < 5; read += 1) {
    const [youtubeNow, tiktokNow] = overview.totals.map((total) => total.gained) as [number, number];
    if ((await tileViews())[0] === youtubeNow + tiktokNow) break;
    overview = await api(`/api/stats/overview?from=${monthAgo}&to=${today}`);
    await page.reload();
  }
  expect(overview.totals.map((total) => total.platform)).toEqual(['youtube', 'tiktok']);
  expect(overview.totals.every((total) => total.gained > 0 && total.posts === 1)).toBe(true);
  expect(await tiles.getByRole('heading').allTextContents()).toEqual([t.statsScreen.allPlatformsTotal, 'YouTube', 'TikTok']);
  const [youtube, tiktok] = overview.totals.map((total) => total.gained) as [number, number];
  expect(await tileViews()).toEqual([youtube + tiktok, youtube, tiktok]);
  // The chart is uPlot's canvas, with a line per platform named in its legend, summed over the period.
  await totals.getByTestId('stats-chart').locator('canvas').waitFor();
  expect(await totals.getByRole('button', { pressed: true }).allTextContents()).toEqual([
    t.statsScreen.chartGained('YouTube', youtube),
    t.statsScreen.chartGained('TikTok', tiktok),
  ]);
  const profiles = page.getByRole('region', { name: t.statsScreen.profilesTitle });
  const profileCells = await profiles.getByRole('row').nth(1).getByRole('cell').allTextContents();
  expect(profileCells.slice(0, 2)).toEqual(['1', `#${accountId} Експортний канал`]);
  expect(figureOf(profileCells[2]!)).toBe(youtube + tiktok);

  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: t.statsScreen.videoTitle(title, 1) }) });
  await row.waitFor();
  const cells = await row.getByRole('cell').allTextContents();
  expect(cells.slice(0, 4)).toEqual(['1', t.statsScreen.videoTitle(title, 1), `#${accountId} Експортний канал`, 'YouTube, TikTok']);
  expect(figureOf(cells[4]!)).toBe(youtube + tiktok);
  expect(figureOf(cells[5]!)).toBeGreaterThanOrEqual(figureOf(cells[4]!));
  expect(
    await page.getByText(t.statsScreen.topPeriod(monthAgo.split('-').reverse().join('.'), today.split('-').reverse().join('.'))).count(),
  ).toBe(1);
  expect(await pageProblems(page)).toEqual([]);
  await snapshot(page, 'stats-top-1440');

  // Narrowed to the profile's group and to Instagram, where nothing was posted: an empty top says so.
  await page.getByLabel(t.statsScreen.scope).selectOption({ label: 'Ранкові' });
  await page.getByLabel(t.statsScreen.platform).selectOption('instagram');
  await page.getByRole('button', { name: t.statsScreen.show, exact: true }).click();
  await page.getByText(t.statsScreen.topEmpty).waitFor();
  await page.getByText(t.statsScreen.overviewEmpty).waitFor();
  expect(await totals.count()).toBe(0);
  await page.getByLabel(t.statsScreen.platform).selectOption('tiktok');
  await page.getByRole('button', { name: t.statsScreen.show, exact: true }).click();
  await expect.poll(() => row.getByRole('cell').nth(3).textContent()).toBe('TikTok');

  await page.setViewportSize({ width: 390, height: 844 });
  await row.waitFor();
  await totals.getByTestId('stats-chart').locator('canvas').waitFor();
  expect(await pageProblems(page)).toEqual([]);
  await snapshot(page, 'stats-top-390');
  await page.context().close();
});

it('saves the CSV of the page’s filters, changed in the export dialog, which reads back in Ukrainian, at 1440 and 390 px', async () => {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    const page = await signedInPage(width, height, '/stats');
    await page.getByRole('heading', { name: t.statsScreen.top }).waitFor();
    await page.getByRole('button', { name: t.statsScreen.exportOpen }).click();
    const dialog = page.getByRole('dialog', { name: t.statsScreen.exportTitle });
    await dialog.waitFor();
    // It names the page's filters rather than asking for them again.
    const period = t.statsScreen.period(monthAgo.split('-').reverse().join('.'), today.split('-').reverse().join('.'));
    expect(await dialog.locator('dd').allTextContents()).toEqual([period, t.statsScreen.allProfiles, t.statsScreen.allPlatforms]);
    expect(await pageProblems(page)).toEqual([]);
    await snapshot(page, `stats-export-dialog-${width}`);
    await dialog.getByRole('button', { name: t.statsScreen.exportChange }).click();
    expect(await dialog.getByLabel(`${t.statsScreen.from}: день`).inputValue()).toBe(monthAgo.split('-').reverse().join('.'));
    expect(await pageProblems(page)).toEqual([]);

    await dialog.getByLabel(t.statsScreen.platform).selectOption('youtube');
    const saving = page.waitForEvent('download');
    await dialog.getByRole('button', { name: t.statsScreen.exportSubmit }).click();
    const download = await saving;
    expect(download.suggestedFilename()).toBe(`statystyka_${monthAgo}_${today}.csv`);
    // The browser is the shared group's, reached remotely: its file is copied here.
    const saved = path.join(mediaDir, `export-${width}.csv`);
    await download.saveAs(saved);
    const bytes = await fs.readFile(saved);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows: string[][] = parse(bytes, { delimiter: ';', bom: true });
    expect(rows[0]).toEqual(Object.values(t.statsScreen.columns));
    const todays = rows.filter((row) => row[0] === today.split('-').reverse().join('.'));
    expect(todays.map((row) => row.slice(1, 4))).toEqual([[`#${accountId} Експортний канал`, 'YouTube', title]]);
    expect(Number(todays[0]![6])).toBeGreaterThan(0);
    await page.getByText(t.statsScreen.exportDone).waitFor();
    expect(await dialog.count()).toBe(0);
    await page.context().close();
  }
});
