import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { makeClip, makeImage, testTools } from '../fixtures/media';
import { accessToken, apiBodies, connectBrowser, createOperator, logIn, pageProblems, sharedServer, snapshot } from './harness';

/**
 * Issue 31.1: five files dropped on the create form at once become one request each; the one that
 * is not a video is refused by name and the other four render; the form passes axe at 1440 and
 * 390 px while the drop is on its way (the uploads are held at the network until both are looked at).
 * Issue 40.8: a drag of six files, five of them videos, is told it will take five; on the drop the
 * text file is named in the list with its reason, and the one the server refuses never reads 100 %.
 */

const server = sharedServer();
let browser: Browser;
let page: Page;
let mediaDir: string;
let token: string;
const api = apiBodies(server.baseUrl, () => token);

const good = ['Понеділок.mp4', 'Вівторок.mp4', 'Середа.mp4', 'Четвер.mp4'];
/** Text with a video's name: the browser calls it video/mp4, the server's probe refuses it. */
const bad = 'нотатки.mp4';
const dropped = [good[0]!, bad, ...good.slice(1)];
/** A plain text file: the drop itself refuses it, the server never sees it. */
const script = 'сценарій.txt';

beforeAll(async () => {
  const tools = testTools();
  mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-e2e-drop-'));
  const clip = path.join(mediaDir, 'clip.mp4');
  const image = path.join(mediaDir, 'background.png');
  await Promise.all([makeClip(tools, clip), makeImage(tools, image, { size: '720x1280', colour: '0x0f766e' })]);
  await Promise.all(good.map((name) => fs.copyFile(clip, path.join(mediaDir, name))));
  await fs.writeFile(path.join(mediaDir, bad), 'це не відео, а нотатки до зйомки\n');
  await fs.writeFile(path.join(mediaDir, script), 'Кадр 1: світанок над морем\n');

  const operator = await createOperator(server.baseUrl, 'multi-drop');
  token = await accessToken(server.baseUrl, operator.login, operator.password);
  const images = new FormData();
  images.append('files', new Blob([await fs.readFile(image)], { type: 'image/png' }), 'background.png');
  await api('/api/photo-bg', { form: images });

  browser = await connectBrowser();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  page = await context.newPage();
  await logIn(page, server.baseUrl, operator.login, operator.password, '/video/create');
});

afterAll(async () => {
  await browser?.close();
  await fs.rm(mediaDir, { recursive: true, force: true });
});

const visible = (text: string) => () => page.getByText(text, { exact: true }).first().isVisible();

it('sends five dropped files as five requests, two at a time, and passes axe at 1440 and 390 px while they go', async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const sent: string[] = [];
  await page.route('**/api/create-video/create', async (route) => {
    sent.push(route.request().url());
    await held;
    await route.continue();
  });

  await expect.poll(() => page.getByRole('checkbox', { name: /^Зображення \d+$/ }).isChecked()).toBe(true);
  await page.getByLabel('Кількість відео').fill('2');
  await page.locator('input[type=file]').setInputFiles(dropped.map((name) => path.join(mediaDir, name)));
  await expect.poll(() => page.getByRole('list', { name: 'Обрані файли' }).getByRole('listitem').count()).toBe(5);
  await page.getByRole('button', { name: 'Створити' }).click();

  // Two on their way, three waiting their turn.
  await expect.poll(() => sent.length).toBe(2);
  await expect.poll(() => page.getByText('Чекає на чергу', { exact: true }).count()).toBe(3);
  await expect.poll(() => page.getByRole('progressbar', { name: 'Завантаження файлів' }).isVisible()).toBe(true);
  await expect.poll(() => page.getByRole('progressbar', { name: `Завантаження ${good[0]}` }).isVisible()).toBe(true);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    // Narrowed, the wide menu slides away into the phone's drawer: the picture waits for it to go.
    if (width === 390) await expect.poll(() => page.getByRole('link', { name: 'Запити на створення' }).isVisible()).toBe(false);
    await snapshot(page, `multi-drop-sending-${width}`);
    expect(await pageProblems(page)).toEqual([]);
  }

  // Leaving while the files go asks first.
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.dismiss();
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole('link', { name: 'Запити на створення' }).first().click();
  await expect.poll(() => asked).not.toBe('');
  expect(page.url()).toBe(`${server.baseUrl}/video/create`);

  release();
  await expect.poll(visible(`Файл «${bad}» не прийнято: файл повинен бути відео`), { timeout: 60_000 }).toBe(true);
  await expect.poll(visible('Надіслано 4 з 5'), { timeout: 60_000 }).toBe(true);
  expect(sent).toHaveLength(5);
  await snapshot(page, 'multi-drop-settled');
  expect(await pageProblems(page)).toEqual([]);
});

it('shows the four requests in the list as they render, each with the count and the source it was given', async () => {
  await page.getByRole('link', { name: 'До запитів на створення' }).click();
  await expect.poll(() => page.url()).toBe(`${server.baseUrl}/video/request-create`);
  await expect.poll(() => page.locator('tbody tr').count()).toBe(4);
  await snapshot(page, 'multi-drop-requests-rendering');

  // The list's own polling brings each rendered request's Публікувати link, without a reload.
  await expect.poll(() => page.getByRole('link', { name: 'Публікувати' }).count(), { timeout: 120_000, interval: 1000 }).toBe(4);
  await snapshot(page, 'multi-drop-requests-rendered');
  const list = await api<{ data: { sourceName: string; countVideo: number; status: string }[] }>('/api/create-video');
  expect(list.data.map((row) => row.sourceName).sort()).toEqual([...good].sort());
  expect(list.data.every((row) => row.countVideo === 2 && row.status === 'success')).toBe(true);
});

/** The six files of a mixed drop as the browser holds them: the MIME type is what it tells during the drag. */
const mixed = [
  ...good.map((name) => ({ name, type: 'video/mp4' })),
  { name: bad, type: 'video/mp4' },
  { name: script, type: 'text/plain' },
];

it('tells a drag of six files that five will be taken, lists the text file with its reason, and never shows 100 % for the refused video', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.baseUrl}/video/create`);
  await expect.poll(() => page.getByRole('checkbox', { name: /^Зображення \d+$/ }).isChecked()).toBe(true);
  await page.getByLabel('Кількість відео').fill('1');

  const files = await Promise.all(
    mixed.map(async ({ name, type }) => ({ name, type, base64: (await fs.readFile(path.join(mediaDir, name))).toString('base64') })),
  );
  // A drag a script makes as the OS would: the page learns only the kinds and types until the drop.
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const { name, type, base64 } of list) {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      transfer.items.add(new File([bytes], name, { type }));
    }
    return transfer;
  }, files);
  const zone = page.locator('div', { has: page.getByRole('button', { name: 'Обрати відео' }) }).last();

  await zone.dispatchEvent('dragenter', { dataTransfer });
  await expect.poll(visible('Буде прийнято 5 з 6 файлів')).toBe(true);
  expect(await page.getByText('Тут приймаються лише відео').count()).toBe(0);
  const border = await zone.evaluate((element) => getComputedStyle(element).borderTopColor);
  // The primary blue of a zone that takes files, not the danger red of one that refuses them.
  expect(border).not.toBe('rgb(220, 38, 38)');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    if (width === 390) await expect.poll(() => page.getByRole('link', { name: 'Запити на створення' }).isVisible()).toBe(false);
    await snapshot(page, `multi-drop-dragging-mixed-${width}`);
    expect(await pageProblems(page)).toEqual([]);
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  await zone.dispatchEvent('drop', { dataTransfer });
  const list = page.getByRole('list', { name: 'Обрані файли' });
  await expect.poll(() => list.getByRole('listitem').count()).toBe(6);
  await expect.poll(visible(`Файл «${script}» не прийнято: це не відео`)).toBe(true);
  expect(await page.locator('[data-rht-toaster] [role=status]').count()).toBe(0);

  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const sent: string[] = [];
  await page.unrouteAll();
  await page.route('**/api/create-video/create', async (route) => {
    sent.push(route.request().url());
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Створити' }).click();
  await expect.poll(() => sent.length).toBe(2);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    if (width === 390) await expect.poll(() => page.getByRole('link', { name: 'Запити на створення' }).isVisible()).toBe(false);
    await snapshot(page, `multi-drop-mixed-sending-${width}`);
    expect(await pageProblems(page)).toEqual([]);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  release();

  await expect.poll(visible(`Файл «${bad}» не прийнято: файл повинен бути відео`), { timeout: 60_000 }).toBe(true);
  await expect.poll(visible('Надіслано 4 з 5'), { timeout: 60_000 }).toBe(true);
  expect(sent).toHaveLength(5);
  expect(await page.getByText(/100\s?%/).count()).toBe(0);
  expect(await page.getByRole('progressbar').count()).toBe(0);
  // The text file's row is still there beside the server's refusal: both named, neither sent.
  await expect.poll(visible(`Файл «${script}» не прийнято: це не відео`)).toBe(true);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    if (width === 390) await expect.poll(() => page.getByRole('link', { name: 'Запити на створення' }).isVisible()).toBe(false);
    await snapshot(page, `multi-drop-mixed-settled-${width}`);
    expect(await pageProblems(page)).toEqual([]);
  }
});
