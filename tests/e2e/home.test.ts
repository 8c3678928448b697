import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { HomeSummary } from '../../src/lib/contract';
import { kyivWallTime } from '../../src/lib/kyiv-time';
import { emptyAccountForm } from '../../src/lib/schemas';
import { makeClip, makeImage, testTools } from '../fixtures/media';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';
import {
  apiBodies,
  connectBrowser,
  createOperator,
  logIn,
  renderedRequest,
  sandboxControl,
  sharedServer,
  snapshot,
  videosToPublish,
  pageProblems,
  accessToken,
} from './harness';

/**
 * The home screen against `npm start` on the sandbox platforms, at 1440 and 390 px with axe: a new
 * operator is shown the first steps and no posts; an operator whose day has a post out, one still
 * due and one YouTube refused sees them counted as the API counts them, and the profile whose
 * YouTube access failed named.
 */

const server = sharedServer();
const widths = [1440, 390];
let browser: Browser;
let mediaDir: string;
const newcomer = { login: 'nadiya', password: '' };
const busy = { login: 'taras', password: '', token: '', accountId: 0 };

const api = apiBodies(server.baseUrl, () => busy.token);

/** A request of two videos over the operator's background, rendered. */
async function renderedSet() {
  const tools = testTools();
  const image = path.join(mediaDir, 'background.png');
  const clip = path.join(mediaDir, 'clip.mp4');
  await Promise.all([makeImage(tools, image, { size: '360x640' }), makeClip(tools, clip, { seconds: 3 })]);
  const images = new FormData();
  images.append('files', new Blob([await fs.readFile(image)], { type: 'image/png' }), 'background.png');
  const photos = await api<{ data: { id: number }[] }>('/api/photo-bg', { form: images });
  return renderedRequest(api, { clip, photoIds: photos.data.map((photo) => photo.id), count: 2 });
}

beforeAll(async () => {
  mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-e2e-home-'));
  newcomer.password = (await createOperator(server.baseUrl, newcomer.login)).password;
  busy.password = (await createOperator(server.baseUrl, busy.login)).password;
  busy.token = await accessToken(server.baseUrl, busy.login, busy.password);

  const account = await api<{ id: number }>('/api/accounts', {
    json: {
      ...emptyAccountForm,
      proxy: server.proxyUrl,
      comments: 'Вечірній канал',
      isActiveYouTube: true,
      YouTubeAuthClientId: 'home-client.apps.googleusercontent.com',
      YouTubeAuthClientSecret: 'home-client-secret',
      isActiveTikTok: true,
      TikTiokAuthStr: 'sandbox-tt-taras',
    },
  });
  busy.accountId = account.id;
  await api(`/api/posting-rules/${account.id}`, {
    method: 'PUT',
    json: { tiktok: { privacyLevel: 'SELF_ONLY' }, youtube: { selfDeclaredMadeForKids: false } },
  });
  const { url } = await api<{ url: string }>(`/api/accounts/connect-youtube/${account.id}`, { method: 'POST' });
  await answerSandboxConsent(url);

  const { idUpload, detail } = await renderedSet();
  // YouTube refuses the first upload, and again after the token is refreshed: that post fails and the profile's YouTube access with it.
  const fault = await sandboxControl(server.baseUrl, '/sandbox/_faults', {
    json: { platform: 'youtube', step: 'init', kind: 'unauthorized', times: 2 },
  });
  expect(fault.status).toBe(201);
  // The second video goes out in two hours: later today, unless the test runs in Kyiv's last two hours.
  const later = kyivWallTime(Date.now() + 2 * 3_600_000);
  await api(`/api/upload-video/${idUpload}`, {
    json: {
      title: 'Вечірній випуск',
      description: '',
      tags: ['вечір'],
      accounts: [{ id: account.id, title: `#${account.id}`, value: account.id }],
      video: videosToPublish(idUpload, detail).map((video, index) => ({ ...video, date: index === 0 ? null : later })),
      inYouTube: true,
      inTikTok: true,
      inInstagram: false,
      date: null,
    },
  });
  browser = await connectBrowser();
});

afterAll(async () => {
  await sandboxControl(server.baseUrl, '/sandbox/_faults', { method: 'DELETE' });
  await browser?.close();
  await fs.rm(mediaDir, { recursive: true, force: true });
});

/** Signed in as the operator, then the home screen at each width as loaded at it (so without the sign-in's toast). */
async function eachWidth(login: string, password: string, check: (page: Page, width: number) => Promise<void>) {
  // axe is injected by the test, which the product's CSP would rightly refuse.
  const context = await browser.newContext({ bypassCSP: true, locale: 'en-US', timezoneId: 'America/New_York' });
  const page = await context.newPage();
  await logIn(page, server.baseUrl, login, password);
  await page.getByTestId('user-login').waitFor({ state: 'attached' });
  for (const width of widths) {
    await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    await page.reload();
    await page.getByRole('heading', { name: 'Публікації сьогодні' }).waitFor();
    await check(page, width);
  }
  await context.close();
}

it('shows a new operator the first steps and no posts yet', async () => {
  await eachWidth(newcomer.login, newcomer.password, async (page, width) => {
    const steps = page.getByRole('region', { name: 'Перші кроки' });
    expect(await steps.getByText('Залишилося 4 кроки').isVisible()).toBe(true);
    expect(await steps.getByRole('link').allTextContents()).toEqual([
      'Додати профіль',
      'До профілів',
      'Завантажити зображення',
      'Створити відео',
    ]);
    expect(await page.getByText('На сьогодні публікацій немає.').isVisible()).toBe(true);
    expect(await pageProblems(page)).toEqual([]);
    await snapshot(page, `home-empty-${width}`);
  });
});

it("counts an operator's posts of the day as the API does, and names the profile whose access failed", async () => {
  // The first video's TikTok post goes out and its YouTube post fails within seconds.
  await expect
    .poll(
      async () => {
        const { posts, attention } = await api<HomeSummary>('/api/home');
        return posts.published >= 1 && posts.failed >= 1 && attention.total === 1;
      },
      { timeout: 30_000, interval: 500 },
    )
    .toBe(true);
  await eachWidth(busy.login, busy.password, async (page, width) => {
    const shown = await api<HomeSummary>('/api/home');
    for (const [state, label] of [
      ['scheduled', 'Заплановано'],
      ['published', 'Опубліковано'],
      ['held', 'Утримано'],
      ['failed', 'Помилка'],
    ] as const) {
      expect(await page.getByRole('link', { name: new RegExp(`^${shown.posts[state]} ${label}`) }).isVisible(), label).toBe(true);
    }
    const attention = page.getByRole('region', { name: 'Профілі, що потребують уваги' });
    expect(await attention.getByRole('link', { name: `#${busy.accountId} Вечірній канал` }).getAttribute('href')).toBe(
      `/accounts/${busy.accountId}`,
    );
    expect(await attention.getByText('не працює доступ до YouTube').isVisible()).toBe(true);
    // The profile, the connection, the background and the request are there: no first steps are offered.
    expect(await page.getByRole('region', { name: 'Перші кроки' }).count()).toBe(0);
    expect(await pageProblems(page)).toEqual([]);
    await snapshot(page, `home-day-${width}`);
  });
});
