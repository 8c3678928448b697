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
 * for 2 s): the operator connects Telegram by opening the bot with the code Settings shows (the
 * sandbox's own chat page, issue 40.9) and sends it a test message, adds a webhook to a receiver on
 * this machine, sends it a signed test event, edits it, and a post TikTok holds at its cap is told
 * in both; the delivery is in the webhook's log. Axe and a screenshot at 1440 and 390 px at each step.
 */

const server = sharedServer();
const widths = [1440, 390] as const;
const chatName = `Оператор ${crypto.randomInt(1e6)}`;
let chatId = 0;
let browser: Browser;
let page: Page;
let mediaDir: string;
let token = '';
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const api = apiBodies(server.baseUrl, () => token);

const telegram = () => page.getByRole('region', { name: 'Telegram' });
const webhooks = () => page.getByRole('region', { name: 'Вебхуки' });

async function eachWidth(name: string, shown = page) {
  for (const width of widths) {
    await shown.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    expect(await pageProblems(shown), `${name} at ${width} px`).toEqual([]);
    await snapshot(shown, `${name}-${width}`);
  }
  await shown.setViewportSize({ width: 1440, height: 900 });
}

/** `signature` is the HMAC of `timestamp.body` under the webhook's secret, compared in constant time as a receiver does. */
function signedWith(secret: string, { headers, body }: { headers: Record<string, unknown>; body: string }): boolean {
  const expected = `sha256=${crypto.createHmac('sha256', secret).update(`${headers['x-shorts-timestamp']}.${body}`).digest('hex')}`;
  const signature = Buffer.from(String(headers['x-shorts-signature']));
  return signature.length === expected.length && crypto.timingSafeEqual(Buffer.from(expected), signature);
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

it('connects Telegram through the sandbox’s chat page, which the bot link opens, and sends the chat a test message', async () => {
  await telegram().getByRole('button', { name: 'Підключити Telegram' }).click();
  const code = (await telegram().getByLabel('Код підключення').textContent())!;
  expect(code).toMatch(/^[A-Z2-9]{8}$/);
  // The link comes once a worker has asked Telegram the bot's name; the card looks again while the code waits.
  const link = telegram().getByRole('link', { name: 'Відкрити бота з кодом' });
  // In sandbox mode the link is the sandbox's chat page, never a real t.me one.
  await expect
    .poll(() => link.getAttribute('href', { timeout: 1000 }).catch(() => null))
    .toBe(`/sandbox/t.me/shorts_office_sandbox_bot?start=${code}`);
  await eachWidth('settings-telegram-code');

  const [chat] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await chat.getByText(`/start ${code}`).waitFor();
  await eachWidth('sandbox-telegram-start', chat);
  await chat.getByLabel('Ваше імʼя в Telegram пісочниці').fill(chatName);
  await chat.getByRole('button', { name: 'Почати' }).click();
  await chat.getByRole('heading', { name: 'Чат із ботом @shorts_office_sandbox_bot' }).waitFor();
  const { chats } = await (await sandboxControl(server.baseUrl, '/sandbox/_telegram')).json();
  chatId = (chats as { id: number; firstName: string }[]).find((known) => known.firstName === chatName)!.id;
  await expect.poll(() => telegram().getByText(`Підключено чат @sandbox_user_${chatId}`).isVisible()).toBe(true);
  await expect.poll(sentToChat).toEqual(['Готово: сповіщення Shorts Office надходитимуть у цей чат. Що саме — оберіть у налаштуваннях.']);
  // The chat page shows the code the user sent and, read again, the bot's answer.
  await chat.reload();
  await chat.getByText('Готово: сповіщення Shorts Office надходитимуть у цей чат.', { exact: false }).waitFor();
  await eachWidth('sandbox-telegram-chat', chat);
  await chat.close();

  await telegram().getByRole('button', { name: 'Надіслати тестове' }).click();
  await expect.poll(() => telegram().getByText(`Тестове повідомлення надіслано в чат @sandbox_user_${chatId}`).isVisible()).toBe(true);
  expect((await sentToChat()).slice(1)).toEqual(['🔔 Тестове повідомлення Shorts Office: сповіщення надходитимуть у цей чат.']);

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
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await webhooks().getByRole('button', { name: 'Додати вебхук' }).click();
  await expect.poll(() => page.getByText('Вебхук додано').isVisible()).toBe(true);
  await expect.poll(() => webhooks().getByText(receiver.url).isVisible()).toBe(true);
  expect(await webhooks().getByText('Ще не надсилався').isVisible()).toBe(true);
  expect(await url.inputValue()).toBe('');
});

it('sends the webhook a test event that arrives signed, and says beside it that the receiver took it', async () => {
  await webhooks()
    .getByRole('button', { name: `Надіслати тестове на ${receiver.url}` })
    .click();
  await expect.poll(() => webhooks().getByText('Тестову подію доставлено: адреса відповіла HTTP 200').isVisible()).toBe(true);
  expect(receiver.received).toHaveLength(1);
  const [test] = receiver.received.splice(0);
  expect(test!.headers['x-shorts-event']).toBe('webhook.test');
  expect(signedWith(secret, test!)).toBe(true);
  expect(JSON.parse(test!.body)).toMatchObject({ event: 'webhook.test', data: { webhookId: expect.any(Number) } });
  // A test is no alert: the webhook has still sent none.
  expect(await webhooks().getByText('Ще не надсилався').isVisible()).toBe(true);
  await eachWidth('settings-webhook-test');
});

it('edits the webhook: a wrong URL is refused in words, a right one saved with its secret kept', async () => {
  await webhooks()
    .getByRole('button', { name: `Змінити вебхук ${receiver.url}` })
    .click();
  const form = webhooks().getByRole('form', { name: 'Зміна вебхука' });
  const url = form.getByLabel('Адреса (URL)');
  await url.fill('ftp://elsewhere.example.com');
  await form.getByRole('button', { name: 'Зберегти зміни' }).click();
  await expect.poll(() => form.getByText('Вкажіть адресу, що починається з https:// (http:// — лише в пісочниці)').isVisible()).toBe(true);
  await expect.poll(() => url.evaluate((element) => element === document.activeElement)).toBe(true);
  await eachWidth('settings-webhook-edit');

  await url.fill(`${receiver.url}/edited`);
  await form.getByRole('checkbox', { name: 'Профіль не працює' }).uncheck();
  await form.getByRole('button', { name: 'Зберегти зміни' }).click();
  await expect.poll(() => page.getByText('Вебхук змінено').isVisible()).toBe(true);
  await expect.poll(() => webhooks().getByText(`${receiver.url}/edited`).isVisible()).toBe(true);
  expect(await form.count()).toBe(0);
  await page.getByText('Вебхук змінено').waitFor({ state: 'hidden' });

  // The kept secret signs at the new address.
  await webhooks()
    .getByRole('button', { name: `Надіслати тестове на ${receiver.url}/edited` })
    .click();
  await expect.poll(() => receiver.received.length).toBe(1);
  expect(signedWith(secret, receiver.received.splice(0)[0]!)).toBe(true);
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
  const [held] = receiver.received;
  const { headers, body } = held!;
  expect(headers['x-shorts-event']).toBe('post.held');
  expect(signedWith(secret, held!)).toBe(true);
  expect(JSON.parse(body)).toMatchObject({
    event: 'post.held',
    data: { count: 1, items: [{ idUpload, platform: 'tiktok', accountId: account.id }] },
  });
  await expect
    .poll(async () => (await sentToChat()).slice(2).map((text) => text.split('\n')[0]))
    .toEqual(['⏸ Публікацію утримано лімітом платформи']);

  await page.reload();
  await webhooks().getByRole('button', { name: 'Журнал доставок' }).click();
  const log = webhooks().getByRole('table');
  await expect.poll(() => log.getByText('Доставлено').isVisible()).toBe(true);
  expect(await log.getByText('HTTP 200').isVisible()).toBe(true);
  expect(await log.getByText('Публікацію утримано лімітом').isVisible()).toBe(true);
  await eachWidth('settings-webhook-log');
});
