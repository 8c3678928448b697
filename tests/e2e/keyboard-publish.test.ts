import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import * as t from '../../src/lib/i18n';
import { emptyAccountForm } from '../../src/lib/schemas';
import { makeClip, makeImage, testTools } from '../fixtures/media';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';
import {
  apiBodies,
  connectBrowser,
  countingKeyboard,
  fillPublishFormByKeyboard,
  createOperator,
  focusedName,
  logIn,
  renderedRequest,
  screenshotDir,
  sharedServer,
  snapshot,
  accessToken,
} from './harness';

/**
 * A first publish by keyboard alone (issue 30.4): one rendered set, sent to a group whose profile
 * has TikTok, Instagram and YouTube connected and no remembered posting choices, from landing on
 * the publish form to 'Відео надіслано на публікацію'. Every key press counts, each typed
 * character one press.
 */

const server = sharedServer();
let browser: Browser;
let mediaDir: string;
const operator = { login: 'keyboard-user', password: '', token: '' };
let idUpload: string;
const group = 'Усі платформи';

const api = apiBodies(server.baseUrl, () => operator.token);

/** A request of one video over the operator's background, rendered. */
async function renderedSet(): Promise<string> {
  const tools = testTools();
  const image = path.join(mediaDir, 'background.png');
  const clip = path.join(mediaDir, 'clip.mp4');
  // Instagram takes Reels of 3 s and more.
  await Promise.all([makeImage(tools, image, { size: '360x640' }), makeClip(tools, clip, { seconds: 3 })]);
  const images = new FormData();
  images.append('files', new Blob([await fs.readFile(image)], { type: 'image/png' }), 'background.png');
  const photos = await api<{ data: { id: number }[] }>('/api/photo-bg', { form: images });
  return (await renderedRequest(api, { clip, photoIds: photos.data.map((photo) => photo.id) })).idUpload;
}

beforeAll(async () => {
  mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-e2e-keyboard-'));
  operator.password = (await createOperator(server.baseUrl, operator.login)).password;
  operator.token = await accessToken(server.baseUrl, operator.login, operator.password);

  const account = await api<{ id: number }>('/api/accounts', {
    json: {
      ...emptyAccountForm,
      proxy: server.proxyUrl,
      comments: 'Клавіатура',
      isActiveYouTube: true,
      YouTubeAuthClientId: 'keyboard-client.apps.googleusercontent.com',
      YouTubeAuthClientSecret: 'keyboard-client-secret',
      isActiveTikTok: true,
      TikTiokAuthStr: 'sandbox-tt-keyboard',
      isActiveInstagram: true,
      InstagramLogin: 'keyboard.reels',
      InstagramPassword: 'keyboard-password',
    },
  });
  const { url } = await api<{ url: string }>(`/api/accounts/connect-youtube/${account.id}`, { method: 'POST' });
  await answerSandboxConsent(url);
  await api('/api/accounts-group', { json: { name: group, accounts: [{ id: account.id, title: `#${account.id}`, value: account.id }] } });
  idUpload = await renderedSet();
  browser = await connectBrowser();
});

afterAll(async () => {
  await browser?.close();
  await fs.rm(mediaDir, { recursive: true, force: true });
});

it('takes the focus from a failed Enter to the first wrong field, the tags, where their message is, then shows the panels', async () => {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    await logIn(page, server.baseUrl, operator.login, operator.password, `/video/request/${idUpload}`);
    const title = page.getByLabel(t.publish.name);
    await expect.poll(() => title.isVisible(), { timeout: 10_000 }).toBe(true);
    await title.fill('Кіно');
    await page.getByRole('button', { name: t.publish.save }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedName(page)).toBe(t.publish.tags);
    expect(await page.getByText(t.tagSets.tagsMin, { exact: true }).isVisible()).toBe(true);
    // The focused field as the operator sees it, where the focus brought the page, not its top.
    await page.screenshot({ path: `${screenshotDir}/keyboard-publish-error-${width}.png` });
    // The form with every platform's panel open, for a person to look at.
    await page.getByLabel(t.publish.tags).fill('кіно ');
    await page.getByRole('checkbox', { name: t.accountForm.tiktok }).check();
    await page.getByRole('checkbox', { name: t.accountForm.instagram }).check();
    await page.getByRole('button', { name: group }).click();
    await expect.poll(() => page.getByLabel(t.postingRules.tiktokPrivacy).isVisible()).toBe(true);
    await snapshot(page, `keyboard-publish-panels-${width}`);
    await context.close();
  }
});

it('publishes a set to a group on TikTok, Instagram and YouTube in at most 40 key presses the first time', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await logIn(page, server.baseUrl, operator.login, operator.password, `/video/request/${idUpload}`);
  await expect.poll(() => page.getByLabel(t.publish.name).isVisible(), { timeout: 10_000 }).toBe(true);
  const keyboard = countingKeyboard(page);

  // The skip link first, as every page offers it, then the form's texts.
  await keyboard.tabTo(t.app.skipToContent);
  await keyboard.press('Enter');
  await fillPublishFormByKeyboard(keyboard, group);

  // The group's panels open after the chips, so the next Tab goes into them, not behind the operator.
  await expect.poll(() => page.getByLabel(t.postingRules.tiktokPrivacy).isVisible()).toBe(true);
  await keyboard.press('Tab');
  expect(await focusedName(page)).toBe(t.postingRules.tiktokPrivacy);
  await keyboard.press('ArrowDown');
  expect(await page.getByLabel(t.postingRules.tiktokPrivacy).inputValue()).not.toBe('');
  await keyboard.tabTo(t.postingRules.madeForKidsYes);
  await keyboard.press('ArrowDown');
  expect(await page.getByRole('radio', { name: t.postingRules.madeForKidsNo }).isChecked()).toBe(true);
  // Enter in the form sends it, from the last choice as from any of its fields.
  await keyboard.press('Enter');

  await expect.poll(() => page.getByText(t.publish.sent, { exact: true }).first().isVisible()).toBe(true);
  console.log(`Keyboard-only first publish: ${keyboard.count()} key presses\n${keyboard.trace.join('\n')}`);
  expect(keyboard.count()).toBeLessThanOrEqual(40);
  await context.close();
});
