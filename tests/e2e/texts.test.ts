import fs from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { emptyAccountForm } from '../../src/lib/schemas';
import * as t from '../../src/lib/i18n';
import {
  accessToken,
  apiAnswers,
  apiBodies,
  connectBrowser,
  createOperator,
  logIn,
  lookAt,
  renderedRequest,
  requestMedia,
  type RequestMedia,
  sharedServer,
  uploadBackground,
} from './harness';

/**
 * Issue 43.2 through the real UI: the publish form's 'Спільний текст' and a tab per ticked platform,
 * their counters and refusals as one types, at 1440 and 390 px; the set's page then shows each post's
 * own words.
 */

const server = sharedServer();
let browser: Browser;
let operator: { login: string; password: string };
let token: string;
let media: RequestMedia;

const api = apiAnswers(server.baseUrl, () => token);

beforeAll(async () => {
  media = await requestMedia('texts', '0x0f766e');
  operator = await createOperator(server.baseUrl, 'texts-user');
  browser = await connectBrowser();
  token = await accessToken(server.baseUrl, operator.login, operator.password);
});

afterAll(async () => {
  await browser?.close();
  await fs.rm(media.dir, { recursive: true, force: true });
});

it('writes a text per platform with variables, counted and refused as one types, and the set shows each post’s words', async () => {
  const bodies = apiBodies(server.baseUrl, () => token);
  const photoIds = await uploadBackground(bodies, media.image);
  const { idUpload } = await renderedRequest(bodies, { clip: media.clip, photoIds, count: 2 });
  const created = await api('/api/accounts', {
    json: {
      ...emptyAccountForm,
      proxy: server.proxyUrl,
      comments: 'Кавʼярня',
      isActiveYouTube: true,
      YouTubeAuthClientId: 'texts-client.apps.googleusercontent.com',
      YouTubeAuthClientSecret: 'texts-client-secret',
      isActiveInstagram: true,
      InstagramLogin: 'texts.insta',
      InstagramPassword: 'instagram-password',
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const title = `#${created.body.id} Кавʼярня`;

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  await logIn(page, server.baseUrl, operator.login, operator.password, `/video/request/${idUpload}`);
  await page.getByLabel('Назва').fill('Ранок {n}');
  await page.getByLabel('Опис').fill('{Свіжа кава|Гарячий чай} від {profile}');
  await page.getByLabel('Теги').fill('кава ');
  await page.getByRole('checkbox', { name: 'Instagram' }).check();
  await page.getByRole('combobox', { name: 'Профілі' }).click();
  await page.getByRole('option', { name: title }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('radio', { name: t.postingRules.madeForKidsNo }).check();
  await expect.poll(() => page.getByRole('list', { name: t.texts.counters('Instagram') }).isVisible()).toBe(true);
  await lookAt(page, 'texts-common');

  // Instagram's own description, over its 30 hashtags: counted red and refused in its tab as one types.
  await page.getByRole('tab', { name: 'Instagram' }).click();
  const hashtags = Array.from({ length: 30 }, (_, index) => `#кава${index}`).join(' ');
  await page.getByLabel(t.texts.ownDescription('Instagram')).fill(`${hashtags} {n}`);
  await expect.poll(() => page.getByText(t.postingRules.tooManyHashtags(31, 30), { exact: true }).first().isVisible()).toBe(true);
  await lookAt(page, 'texts-instagram-refused');

  await page.getByLabel(t.texts.ownDescription('Instagram')).fill('Reels {n} для {profile}');
  await page.getByRole('tab', { name: 'YouTube' }).click();
  await page.getByLabel(t.texts.ownTitle('YouTube')).fill('{Доброго ранку|Привіт}, відео {n}');
  await lookAt(page, 'texts-youtube');

  // The spread's proposal shows each post the words it will go out with, as the set page does below.
  await page.getByRole('button', { name: t.spread.action, exact: true }).click();
  const proposed = page.getByText(t.texts.postWords, { exact: true });
  await expect.poll(() => proposed.count()).toBe(2);
  await proposed.first().click();
  await expect.poll(() => page.getByText('Reels 1 для Кавʼярня', { exact: true }).isVisible()).toBe(true);
  await lookAt(page, 'texts-proposal');
  await page.getByRole('button', { name: 'Зберегти' }).click();
  await expect.poll(() => page.getByText(t.publish.sent, { exact: true }).first().isVisible()).toBe(true);

  await page.goto(`${server.baseUrl}/video/youtube/${idUpload}`);
  const words = page.getByText(t.texts.postWords, { exact: true });
  await expect.poll(() => words.count()).toBe(2);
  await words.first().click();
  await words.last().click();
  for (const number of [1, 2]) {
    await expect.poll(() => page.getByText(`Reels ${number} для Кавʼярня`, { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText(new RegExp(`^(Доброго ранку|Привіт), відео ${number}$`)).isVisible()).toBe(true);
  }
  await lookAt(page, 'texts-set');
  await context.close();
});
