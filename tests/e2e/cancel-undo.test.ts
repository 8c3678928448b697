import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { kyivWallTime } from '../../src/lib/kyiv-time';
import { emptyAccountForm } from '../../src/lib/schemas';
import { makeClip, makeImage, testTools } from '../fixtures/media';
import { connectBrowser, createOperator, logIn, sharedServer, snapshot } from './harness';

/**
 * An operator cancels a scheduled post, asked first, takes it back from the toast, cancels it
 * again, and deletes requests from the list and from a request's page: each step at 1440 px with
 * a look at 390 px, no serious or critical axe finding, and a screenshot of both widths.
 */

const server = sharedServer();
const axeSource = await fs.readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let browser: Browser;
let context: BrowserContext;
let page: Page;
let mediaDir: string;
let token: string;
const seeded = { published: '', ready: '', videoId: 0 };

async function api(route: string, init: { method?: string; json?: unknown; form?: FormData } = {}) {
  const response = await fetch(`${server.baseUrl}${route}`, {
    method: init.method ?? (init.json || init.form ? 'POST' : 'GET'),
    headers: { authorization: `Bearer ${token}`, ...(init.json ? { 'content-type': 'application/json' } : {}) },
    body: init.json ? JSON.stringify(init.json) : init.form,
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${route}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function createRequest(clip: string, name: string, photoIds: number[]): Promise<string> {
  const form = new FormData();
  form.append('countVideo', '1');
  form.append('photoIds', JSON.stringify(photoIds));
  form.append('file', new Blob([await fs.readFile(clip)], { type: 'video/mp4' }), name);
  return (await api('/api/create-video/create', { form })).idUpload;
}

async function renderedRequest(clip: string, name: string, photoIds: number[]) {
  const idUpload = await createRequest(clip, name, photoIds);
  // A real ffmpeg render: polled until the request leaves 'loading', as the request list does.
  const detail = await vi.waitFor(
    async () => {
      const current = await api(`/api/create-video/request/${idUpload}`);
      if (current.status === 'loading') throw new Error('still rendering');
      return current;
    },
    { timeout: 60_000, interval: 250 },
  );
  if (detail.status !== 'success') throw new Error(`render failed: ${detail.error}`);
  return detail;
}

beforeAll(async () => {
  const tools = testTools();
  mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-e2e-cancel-'));
  const [clip, image] = [path.join(mediaDir, 'clip.mp4'), path.join(mediaDir, 'background.png')];
  await Promise.all([makeClip(tools, clip), makeImage(tools, image, { size: '720x1280', colour: '0x1e3a8a' })]);

  const operator = await createOperator(server.baseUrl, 'cancel-undo');
  const login = await fetch(`${server.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(operator),
  });
  token = (await login.json()).accessToken;
  // YouTube switched on (never connected): the post waits for its date a day ahead, which never comes in this test.
  const account = await api('/api/accounts', {
    json: {
      ...emptyAccountForm,
      proxy: server.proxyUrl,
      comments: 'Вечірній канал',
      isActiveYouTube: true,
      YouTubeAuthClientId: 'cancel.apps.googleusercontent.com',
      YouTubeAuthClientSecret: 'cancel-secret',
    },
  });
  await api(`/api/posting-rules/${account.id}`, { method: 'PUT', json: { youtube: { selfDeclaredMadeForKids: false } } });
  const images = new FormData();
  images.append('files', new Blob([await fs.readFile(image)], { type: 'image/png' }), 'background.png');
  const photoIds = (await api('/api/photo-bg', { form: images })).data.map((photo: { id: number }) => photo.id);
  const [published, ready] = await Promise.all([
    renderedRequest(clip, 'Вечірній-кліп.mp4', photoIds),
    renderedRequest(clip, 'Запасний-кліп.mp4', photoIds),
  ]);
  const tomorrow = kyivWallTime(Date.now() + 24 * 3600_000);
  await api(`/api/upload-video/${published.idUpload}`, {
    json: {
      title: 'Вечірній випуск',
      description: 'Опис',
      tags: ['вечір'],
      accounts: [{ id: account.id, title: `#${account.id}`, value: account.id }],
      video: published.video.map((video: { id: number; url: string; createdAt: string }) => ({
        id: video.id,
        url: video.url,
        idUpload: published.idUpload,
        createdAt: video.createdAt,
        account: null,
        date: null,
      })),
      inYouTube: true,
      inTikTok: false,
      inInstagram: false,
      date: tomorrow,
    },
  });
  Object.assign(seeded, { published: published.idUpload, ready: ready.idUpload, videoId: published.video[0].id });
  // One more that stays: the list read after the deletions holds the operator's other work, rather than nothing.
  await createRequest(clip, 'Третій-кліп.mp4', photoIds);

  browser = await connectBrowser();
  // axe is injected by the test, which the product's CSP would rightly refuse.
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  page = await context.newPage();
  await logIn(page, server.baseUrl, operator.login, operator.password, `/video/youtube/${seeded.published}`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await fs.rm(mediaDir, { recursive: true, force: true });
});

/** axe on what is on screen at 1440 and at 390 px, and a screenshot of each; the step goes on at 1440. */
async function check(name: string) {
  // A toast sliding in measures as low contrast: its animation settles first.
  await page
    .waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'), undefined, { timeout: 3000 })
    .catch(() => undefined);
  const findings: string[] = [];
  for (const [width, height] of [
    [390, 844],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: { id: string; impact: string }[] }> } })
        .axe;
      const result = await axe.run(document);
      return result.violations.filter((item) => item.impact === 'serious' || item.impact === 'critical').map((item) => item.id);
    });
    findings.push(...violations.map((id) => `${name} ${width}: ${id}`));
    await snapshot(page, `cancel-undo-${name}-${width}`);
  }
  expect(findings).toEqual([]);
}

const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent);
const row = () => page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(seeded.videoId), exact: true }) });

async function cancelWithConfirmation() {
  await page.getByRole('button', { name: `Змінити публікацію відео #${seeded.videoId}` }).click();
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^Нова дата відео #\d+: день$/);
  await page.getByRole('button', { name: 'Скасувати публікацію' }).click();
  const dialog = page.getByRole('alertdialog', { name: `Скасувати публікацію відео #${seeded.videoId}?` });
  await dialog.waitFor();
  return dialog;
}

it(
  'cancels a scheduled post after asking, puts it back from the toast, cancels it again, and deletes requests',
  { timeout: 60_000 },
  async () => {
    await row().getByText('На публікації').waitFor();
    await check('scheduled');

    const dialog = await cancelWithConfirmation();
    await check('confirm');
    await dialog.getByRole('button', { name: 'Скасувати публікацію' }).click();
    const undo = page.getByRole('button', { name: `Повернути публікацію відео #${seeded.videoId}` });
    await undo.waitFor();
    await row().getByText('Скасовано', { exact: true }).waitFor();
    expect(await focusedName()).toBe(`Повернути публікацію відео #${seeded.videoId}`);
    await check('cancelled');

    await undo.click();
    await row().getByText('На публікації').waitFor();
    await expect.poll(focusedName).toBe(`Змінити публікацію відео #${seeded.videoId}`);
    await expect.poll(() => undo.count()).toBe(0);
    expect(
      await row()
        .getByText(/^заплановано на /)
        .isVisible(),
    ).toBe(true);
    await check('restored');

    await (await cancelWithConfirmation()).getByRole('button', { name: 'Скасувати публікацію' }).click();
    await row().getByText('Скасовано', { exact: true }).waitFor();

    await page.goto(`${server.baseUrl}/video/request-create`);
    const published = page.getByRole('row').filter({ hasText: 'Вечірній-кліп.mp4' });
    await published.getByText('Скасовано', { exact: true }).waitFor();
    await published.getByRole('button', { name: 'Видалити запит «Вечірній-кліп.mp4»' }).click();
    await page.getByRole('alertdialog').getByText('Уже опубліковані відео залишаться на платформах').waitFor();
    await check('delete-from-list');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Видалити' }).click();
    await page.getByText('Запит видалено').first().waitFor();
    await expect.poll(() => published.count()).toBe(0);
    await check('deleted-from-list');

    await page.goto(`${server.baseUrl}/video/request/${seeded.ready}`);
    await page.getByRole('button', { name: 'Видалити запит «Запасний-кліп.mp4»' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Видалити' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/video/request-create');
    await page.getByText('Запит видалено').first().waitFor();
    await expect.poll(() => page.getByText('Запасний-кліп.mp4').count()).toBe(0);
    await page.getByText('Третій-кліп.mp4').waitFor();
    expect((await api('/api/create-video')).data.map((row: { sourceName: string }) => row.sourceName)).toEqual(['Третій-кліп.mp4']);
    await check('deleted-from-page');
  },
);
