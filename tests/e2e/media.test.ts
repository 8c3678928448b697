import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { runTool } from '../../server/media/tools';
import { makeClip, testTools } from '../fixtures/media';
import { connectBrowser, createOperator, logIn, sharedServer, snapshot } from './harness';

const server = sharedServer();
let browser: Browser;
let page: Page;
let mediaDir: string;

beforeAll(async () => {
  const tools = testTools();
  mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-e2e-media-'));
  const ffmpeg = (args: string[]) => runTool(tools.ffmpeg, ['-nostdin', '-v', 'error', '-y', ...args], 60_000);
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'gradients=s=720x1280:c0=0x1d4ed8:c1=0xf59e0b',
    '-frames:v',
    '1',
    path.join(mediaDir, 'sunset.png'),
  ]).catch(() => ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x1d4ed8:s=720x1280', '-frames:v', '1', path.join(mediaDir, 'sunset.png')]));
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=s=640x640', '-frames:v', '1', path.join(mediaDir, 'pattern.jpg')]);
  await makeClip(tools, path.join(mediaDir, 'clip.mp4'));
  await fs.writeFile(path.join(mediaDir, 'notes.txt'), 'not a video');

  const operator = await createOperator(server.baseUrl, 'media-user');
  browser = await connectBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await logIn(page, server.baseUrl, operator.login, operator.password, '/photos/list');
});

afterAll(async () => {
  await browser?.close();
  await fs.rm(mediaDir, { recursive: true, force: true });
});

const visible = (text: string) => () => page.getByText(text, { exact: true }).first().isVisible();

it('shows the empty image list with its create link', async () => {
  await expect.poll(visible('Нічого не знайдено')).toBe(true);
  await expect.poll(() => page.getByRole('heading', { name: /Зображення/ }).textContent()).toBe('Зображення0');
  await snapshot(page, 'photos-list-empty');
  await page.getByRole('link', { name: 'Додати зображення' }).click();
  await expect.poll(() => page.url()).toBe(`${server.baseUrl}/photos/create`);
});

it('asks for at least one image, then uploads two, with a preview each', async () => {
  await page.getByRole('button', { name: 'Зберегти' }).click();
  await expect.poll(visible('Мінімум одне зображення')).toBe(true);
  await snapshot(page, 'photos-upload-validation');

  await page.locator('input[type=file]').setInputFiles([path.join(mediaDir, 'sunset.png'), path.join(mediaDir, 'pattern.jpg')]);
  await expect.poll(() => page.getByRole('img', { name: 'sunset.png' }).isVisible()).toBe(true);
  await expect.poll(visible('Мінімум одне зображення')).toBe(false);
  await expect.poll(() => page.getByRole('button', { name: 'Обрати зображення' }).isVisible()).toBe(true);
  await snapshot(page, 'photos-upload-selected');

  await page.getByRole('button', { name: 'Зберегти' }).click();
  await expect.poll(visible('Зображення завантажено')).toBe(true);
  await expect.poll(() => page.url()).toBe(`${server.baseUrl}/photos/list`);
  await expect.poll(() => page.locator('ul img').count()).toBe(2);
  await expect.poll(() => page.getByRole('heading', { name: /Зображення/ }).textContent()).toBe('Зображення2');
  await expect
    .poll(() => page.locator('ul img').evaluateAll((images) => images.every((image) => (image as HTMLImageElement).naturalWidth > 0)))
    .toBe(true);
  await snapshot(page, 'photos-list');
});

it('deletes an image with the deletion toasts and refetches the list', async () => {
  await page
    .getByRole('button', { name: /Видалити: Зображення/ })
    .first()
    .click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Видалити' }).click();
  await expect.poll(visible('Зображення видалено')).toBe(true);
  await expect.poll(() => page.locator('ul img').count()).toBe(1);
  await expect.poll(() => page.getByRole('heading', { name: /Зображення/ }).textContent()).toBe('Зображення1');
});

it('validates the create-video form and refuses a non-video file with its reason in the list', async () => {
  await page.goto(`${server.baseUrl}/video/create`);
  await expect.poll(() => page.getByLabel('Кількість відео').inputValue()).toBe('1');
  await expect.poll(() => page.getByLabel('Кількість відео').getAttribute('placeholder')).toBe('Введіть кількість відео');
  await snapshot(page, 'video-create-empty');
  await page.getByLabel('Кількість відео').fill('');
  await page.getByRole('button', { name: 'Створити' }).click();
  await expect.poll(visible('Вкажіть кількість відео')).toBe(true);
  await expect.poll(visible('Мінімум одне відео')).toBe(true);
  await page.locator('input[type=file]').setInputFiles(path.join(mediaDir, 'notes.txt'));
  await expect.poll(visible('Файл «notes.txt» не прийнято: це не відео')).toBe(true);

  // The one image left is offered and chosen; with none chosen the form refuses to send.
  const background = page.getByRole('checkbox', { name: /^Зображення \d+$/ });
  await expect.poll(() => background.isChecked()).toBe(true);
  await page.getByRole('button', { name: 'Зняти всі' }).click();
  await page.getByRole('button', { name: 'Створити' }).click();
  await expect.poll(visible('Оберіть хоча б одне фонове зображення')).toBe(true);
  await snapshot(page, 'video-create-validation');
  await background.check();
  await expect.poll(visible('Оберіть хоча б одне фонове зображення')).toBe(false);
});

it('creates a request of 2 videos, shows the frame at 1 s, and lands on the request list', async () => {
  await page.getByLabel('Кількість відео').fill('2');
  await page.locator('input[type=file]').setInputFiles(path.join(mediaDir, 'clip.mp4'));
  await expect.poll(visible('clip.mp4')).toBe(true);
  await expect.poll(() => page.getByRole('img', { name: 'Кадр на 1-й секунді' }).isVisible(), { timeout: 10_000 }).toBe(true);
  await snapshot(page, 'video-create-selected');
  await page.getByRole('button', { name: 'Створити' }).click();
  await expect.poll(visible('Запит на створення відео надіслано')).toBe(true);
  await expect.poll(() => page.url()).toBe(`${server.baseUrl}/video/request-create`);
  await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
  await snapshot(page, 'requests-list-loading');
});

it('reaches the Публікувати button through the 15-second polling, and its video opens by signed URL', async () => {
  // No reload: the list's own polling has to bring the new status.
  await expect.poll(() => page.getByRole('link', { name: 'Публікувати' }).isVisible(), { timeout: 60_000, interval: 1000 }).toBe(true);
  await snapshot(page, 'requests-list');
  const href = await page.getByRole('link', { name: 'Публікувати' }).getAttribute('href');
  const idUpload = href!.split('/').pop();

  const detail = await page.evaluate(async (id) => {
    const token = JSON.parse(localStorage.getItem('authStore')!).state.accessToken;
    const response = await fetch(`/api/create-video/request/${id}`, { headers: { Authorization: `Bearer ${token}` } });
    return response.json();
  }, idUpload);
  expect(detail.video).toHaveLength(2);

  const tab = await browser.newPage();
  const opened = await tab.goto(`${server.baseUrl}${detail.video[0].url}`);
  expect([200, 206]).toContain(opened!.status());
  expect(opened!.headers()['content-type']).toBe('video/mp4');
  const ranged = await tab.request.get(`${server.baseUrl}${detail.video[1].url}`, { headers: { Range: 'bytes=0-99' } });
  expect(ranged.status()).toBe(206);
  expect((await ranged.body()).length).toBe(100);
  const unsigned = await tab.request.get(`${server.baseUrl}${detail.video[1].url.split('?')[0]}`);
  expect(unsigned.status()).toBe(403);
  await tab.close();
});
