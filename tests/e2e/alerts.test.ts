import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { emptyAccountForm } from '../../src/lib/schemas';
import { makeClip, makeImage, testTools } from '../fixtures/media';
import { startReceiver } from '../server/webhook-receiver';
import {
  accessToken,
  apiBodies,
  connectBrowser,
  createOperator,
  logIn,
  pageProblems,
  renderedRequest,
  sandboxControl,
  sharedServer,
  snapshot,
  videosToPublish,
} from './harness';

/**
 * Issue 32.3 in the browser, against `npm start` on the sandbox (the shared server groups alerts
 * for 2 s): the operator connects Telegram by sending the bot the code Settings shows, adds a
 * webhook to a receiver on this machine, and a post TikTok holds at its cap is told in both; the
 * delivery is in the webhook's log. Axe and a screenshot at 1440 and 390 px at each step.
 */

const server = sharedServer();
const widths = [1440, 390] as const;
const chatId = 880_001;
let browser: Browser;
let page: Page;
let mediaDir: string;
let token = '';
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const api = apiBodies(server.baseUrl, () => token);

const telegram = () => page.getByRole('region', { name: 'Telegram' });
const webhooks = () => page.getByRole('region', { name: 'Вебхуки' });

async function eachWidth(name: string) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    expect(await pageProblems(page), `${name} at ${width} px`).toEqual([]);
    await snapshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** What the sandbox's bot sent to the operator's chat. */
async function sentToChat(): Promise<string[]> {
  const { messages } = await (await sandboxControl(server.baseUrl, '/sandbox/_telegram')).json();
  return (messages as { chatId: number; text: string }[]).filter((message) => message.chatId === chatId).map((message) => message.text);
}

beforeAll(async () => {
  mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-e2e-alerts-'));
  receiver = await startReceiver();
  const operator = await createOperator(server.baseUrl, 'alerts-operator');
  token = await accessToken(server.baseUrl, operator.login, operator.password);
  browser = await connectBrowser();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  page = await context.newPage();
  await logIn(page, server.baseUrl, operator.login, operator.password, '/setting');
});

afterAll(async () => {
  await sandboxControl(server.baseUrl, '/sandbox/_faults', { method: 'DELETE' });
  await receiver?.close();
  await browser?.close();
  await fs.rm(mediaDir, { recursive: true, force: true });
});

it('shows the Telegram and webhook settings, axe clean at 1440 and 390 px', async () => {
  await telegram().getByRole('button', { name: 'Підключити Telegram' }).waitFor();
  await webhooks().getByText('Вебхуків ще немає.').waitFor();
  await eachWidth('settings-alerts');
});

it('connects Telegram by the code the operator sends the bot', async () => {
  await telegram().getByRole('button', { name: 'Підключити Telegram' }).click();
  const code = (await telegram().getByLabel('Код підключення').textContent())!;
  expect(code).toMatch(/^[A-Z2-9]{8}$/);
  // The link comes once a worker has asked Telegram the bot's name; the card looks again while the code waits.
  await expect
    .poll(() =>
      telegram()
        .getByRole('link', { name: 'Відкрити бота з кодом' })
        .getAttribute('href', { timeout: 1000 })
        .catch(() => null),
    )
    .toBe(`https://t.me/shorts_office_sandbox_bot?start=${code}`);
  await eachWidth('settings-telegram-code');

  // The operator opens the link: Telegram sends the bot `/start <code>` from their chat.
  const sent = await sandboxControl(server.baseUrl, '/sandbox/_telegram/send', {
    json: { text: `/start ${code}`, chatId, username: 'alerts_team' },
  });
  expect(sent.status).toBe(201);
  await expect.poll(() => telegram().getByText('Підключено чат @alerts_team').isVisible()).toBe(true);
  await expect.poll(sentToChat).toEqual(['Готово: сповіщення Shorts Office надходитимуть у цей чат. Що саме — оберіть у налаштуваннях.']);

  await telegram().getByRole('checkbox', { name: 'Профілі, що не працюють' }).uncheck();
  await telegram().getByRole('button', { name: 'Зберегти вибір' }).click();
  await page.getByText('Вибір для Telegram збережено').waitFor();
  // axe measures contrast as drawn: a toast fading out is not what a reader meets.
  await page.getByText('Вибір для Telegram збережено').waitFor({ state: 'hidden' });
  await eachWidth('settings-telegram-connected');
});

let secret = '';

it('adds a webhook: the first wrong field takes the focus, then a generated secret signs it', async () => {
  const url = webhooks().getByLabel('Адреса (URL)');
  await webhooks().getByRole('button', { name: 'Додати вебхук' }).click();
  await expect.poll(() => webhooks().getByText('Обовʼязкове до заповнення').first().isVisible()).toBe(true);
  await expect.poll(() => url.evaluate((element) => element === document.activeElement)).toBe(true);
  await eachWidth('settings-webhook-errors');

  await url.fill(receiver.url);
  await webhooks().getByRole('checkbox', { name: 'Публікацію утримано лімітом' }).check();
  await webhooks().getByRole('button', { name: 'Згенерувати секрет' }).click();
  secret = await webhooks().getByLabel('Секрет для підпису').inputValue();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await webhooks().getByRole('button', { name: 'Додати вебхук' }).click();
  await expect.poll(() => page.getByText('Вебхук додано').isVisible()).toBe(true);
  await expect.poll(() => webhooks().getByText(receiver.url).isVisible()).toBe(true);
  expect(await webhooks().getByText('Ще не надсилався').isVisible()).toBe(true);
  expect(await url.inputValue()).toBe('');
});

it('tells a post TikTok holds at its cap in Telegram and to the webhook, whose log shows it delivered', async () => {
  const tools = testTools();
  const image = path.join(mediaDir, 'background.png');
  const clip = path.join(mediaDir, 'clip.mp4');
  await Promise.all([makeImage(tools, image, { size: '360x640' }), makeClip(tools, clip, { seconds: 2 })]);
  const images = new FormData();
  images.append('files', new Blob([await fs.readFile(image)], { type: 'image/png' }), 'background.png');
  const photos = await api<{ data: { id: number }[] }>('/api/photo-bg', { form: images });
  const account = await api<{ id: number }>('/api/accounts', {
    json: {
      ...emptyAccountForm,
      proxy: server.proxyUrl,
      comments: 'Сповіщення',
      isActiveTikTok: true,
      TikTiokAuthStr: 'sandbox-tt-alerts',
    },
  });
  await api(`/api/posting-rules/${account.id}`, { method: 'PUT', json: { tiktok: { privacyLevel: 'SELF_ONLY' } } });
  const { idUpload, detail } = await renderedRequest(api, { clip, photoIds: photos.data.map((photo) => photo.id) });
  // TikTok answers the upload with its daily cap: the post is held, not failed.
  const fault = await sandboxControl(server.baseUrl, '/sandbox/_faults', {
    json: { platform: 'tiktok', step: 'init', kind: 'quota', times: 1 },
  });
  expect(fault.status).toBe(201);
  await api(`/api/upload-video/${idUpload}`, {
    json: {
      title: 'Вечірній випуск',
      description: '',
      tags: ['вечір'],
      accounts: [{ id: account.id, title: `#${account.id}`, value: account.id }],
      video: videosToPublish(idUpload, detail),
      inYouTube: false,
      inTikTok: true,
      inInstagram: false,
      date: null,
    },
  });

  await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBe(1);
  const [{ headers, body }] = receiver.received;
  expect(headers['x-shorts-event']).toBe('post.held');
  const signed = crypto.createHmac('sha256', secret).update(`${headers['x-shorts-timestamp']}.${body}`).digest('hex');
  expect(headers['x-shorts-signature']).toBe(`sha256=${signed}`);
  expect(JSON.parse(body)).toMatchObject({
    event: 'post.held',
    data: { count: 1, items: [{ idUpload, platform: 'tiktok', accountId: account.id }] },
  });
  await expect
    .poll(async () => (await sentToChat()).slice(1).map((text) => text.split('\n')[0]))
    .toEqual(['⏸ Публікацію утримано лімітом платформи']);

  await page.reload();
  await webhooks().getByRole('button', { name: 'Журнал доставок' }).click();
  const log = webhooks().getByRole('table');
  await expect.poll(() => log.getByText('Доставлено').isVisible()).toBe(true);
  expect(await log.getByText('HTTP 200').isVisible()).toBe(true);
  expect(await log.getByText('Публікацію утримано лімітом').isVisible()).toBe(true);
  await eachWidth('settings-webhook-log');
});
