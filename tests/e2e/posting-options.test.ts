import fs from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { emptyAccountForm } from '../../src/lib/schemas';
import * as t from '../../src/lib/i18n';
import {
  apiAnswers,
  apiBodies,
  connectBrowser,
  createOperator,
  logIn,
  renderedRequest,
  requestMedia,
  type RequestMedia,
  sandboxControl,
  sharedServer,
  uploadBackground,
  lookAt,
  accessToken,
} from './harness';

/**
 * The profile form's connect buttons and the publish form's per-platform panels, through the real
 * UI on the sandbox: what TikTok's audit asks of a posting screen is shown, chosen and received.
 */

// A public sandbox creator whose comments are off and duets and stitches on (sandbox/tiktok/creator.ts).
const tiktokLogin = 'options19@tiktok';
const server = sharedServer();
const { proxyUrl } = server;
let browser: Browser;
let operator: { login: string; password: string };
let token: string;
let media: RequestMedia;

const api = apiAnswers(server.baseUrl, () => token);

beforeAll(async () => {
  media = await requestMedia('options', '0x7c3aed');
  operator = await createOperator(server.baseUrl, 'options-user');
  browser = await connectBrowser();
  token = await accessToken(server.baseUrl, operator.login, operator.password);
});

afterAll(async () => {
  await browser?.close();
  await fs.rm(media.dir, { recursive: true, force: true });
});

async function renderedSet(): Promise<string> {
  const bodies = apiBodies(server.baseUrl, () => token);
  const photoIds = await uploadBackground(bodies, media.image);
  return (await renderedRequest(bodies, { clip: media.clip, photoIds })).idUpload;
}

async function consent(page: Page, platform: 'TikTok' | 'Instagram', login: string) {
  await page
    .getByRole('region', { name: platform })
    .getByRole('button', { name: `Підключити ${platform}` })
    .click();
  await page.getByLabel('Обліковий запис пісочниці').fill(login);
  await page.getByRole('button', { name: 'Дозволити' }).click();
  await expect.poll(() => page.getByText(`${platform} підключено`).first().isVisible()).toBe(true);
}

it('connects a profile with the connect buttons, then publishes with the choices each platform asks for', async () => {
  const idUpload = await renderedSet();
  const created = await api('/api/accounts', {
    json: {
      ...emptyAccountForm,
      proxy: proxyUrl,
      comments: 'Панель правил',
      isActiveYouTube: true,
      YouTubeAuthClientId: 'options-client.apps.googleusercontent.com',
      YouTubeAuthClientSecret: 'options-client-secret',
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const accountId = created.body.id as number;
  const title = `#${accountId} Панель правил`;

  // axe is injected by the test, which the product's CSP would rightly refuse.
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    bypassCSP: true,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  await logIn(page, server.baseUrl, operator.login, operator.password, `/accounts/${accountId}`);
  await page.getByRole('switch', { name: 'TikTok' }).check();
  await page.getByRole('switch', { name: 'Instagram' }).check();
  await expect.poll(() => page.getByRole('button', { name: 'Підключити TikTok' }).isVisible()).toBe(true);
  await lookAt(page, 'connect-buttons');

  await consent(page, 'TikTok', tiktokLogin);
  await page.getByRole('switch', { name: 'Instagram' }).check();
  await consent(page, 'Instagram', 'options.insta');
  await page.getByRole('button', { name: 'Скопіювати посилання авторизації' }).click();
  await expect.poll(() => page.getByText('Посилання скопійоване в буфер обміну', { exact: true }).first().isVisible()).toBe(true);
  const link = await page.evaluate(() => navigator.clipboard.readText());
  await page.goto(link);
  await page.getByRole('button', { name: 'Дозволити' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe(`/accounts/${accountId}`);
  for (const platform of ['TikTok', 'Instagram']) {
    await expect.poll(() => page.getByRole('region', { name: platform }).getByRole('status').textContent()).toMatch(/^Підключено як /);
  }
  await lookAt(page, 'connect-buttons-connected');

  await page.goto(`${server.baseUrl}/video/request/${idUpload}`);
  await page.getByLabel('Назва').fill('Правила платформ');
  await page.getByLabel('Теги').fill('shorts ');
  await page.getByRole('checkbox', { name: 'TikTok' }).check();
  await page.getByRole('checkbox', { name: 'Instagram' }).check();
  await page.getByRole('combobox', { name: 'Профілі' }).click();
  await page.getByRole('option', { name: title }).click();
  await page.keyboard.press('Escape');

  // TikTok: the creator's nickname, creator_info's levels with none chosen, comments greyed.
  await expect.poll(() => page.getByText(t.postingRules.postingAs(title, tiktokLogin), { exact: true }).isVisible()).toBe(true);
  const privacy = page.getByLabel(t.postingRules.tiktokPrivacy);
  expect(await privacy.inputValue()).toBe('');
  expect(await privacy.locator('option').allTextContents()).toEqual([t.postingRules.choose, 'Усі', 'Друзі', 'Підписники', 'Лише я']);
  expect(await page.getByRole('checkbox', { name: t.postingRules.allowComment }).isDisabled()).toBe(true);
  expect(await page.getByRole('checkbox', { name: t.postingRules.allowDuet }).isDisabled()).toBe(false);
  expect(await page.getByRole('checkbox', { name: t.postingRules.allowStitch }).isDisabled()).toBe(false);
  expect(await page.getByText(t.postingRules.musicDeclaration, { exact: true }).isVisible()).toBe(true);
  await page.getByRole('checkbox', { name: t.postingRules.commercial }).check();
  expect(await page.getByRole('checkbox', { name: t.postingRules.brandOrganic }).isChecked()).toBe(true);
  expect(await page.getByRole('checkbox', { name: t.postingRules.brandContent }).isVisible()).toBe(true);
  // YouTube: made-for-kids unanswered until the operator answers.
  expect(await page.getByRole('radio', { name: t.postingRules.madeForKidsNo }).isChecked()).toBe(false);
  expect(await page.getByRole('radio', { name: t.postingRules.madeForKidsYes }).isChecked()).toBe(false);
  await lookAt(page, 'posting-options');

  // Sent unanswered, the form marks what TikTok and YouTube would refuse and takes the keyboard to the first (issue 40.4).
  await page.getByRole('button', { name: 'Зберегти' }).click();
  await expect.poll(() => privacy.evaluate((select) => select === document.activeElement)).toBe(true);
  expect(await privacy.getAttribute('aria-invalid')).toBe('true');
  expect(await page.getByRole('radio', { name: t.postingRules.madeForKidsNo }).getAttribute('aria-invalid')).toBe('true');
  expect(await page.getByRole('alert').allTextContents()).toEqual(
    expect.arrayContaining([t.postingRules.tiktokPrivacyRequired(title), t.postingRules.youtubeKidsRequired(title)]),
  );
  await lookAt(page, 'posting-options-refused');

  await privacy.selectOption('PUBLIC_TO_EVERYONE');
  await page.getByRole('checkbox', { name: t.postingRules.allowDuet }).check();
  await page.getByRole('checkbox', { name: t.postingRules.commercial }).uncheck();
  await page.getByRole('radio', { name: t.postingRules.madeForKidsNo }).check();
  await page.getByLabel(t.postingRules.youtubePrivacy).selectOption('unlisted');
  await page.getByRole('checkbox', { name: t.postingRules.shareToFeed }).uncheck();
  await lookAt(page, 'posting-options-chosen');
  await page.getByRole('button', { name: 'Зберегти' }).click();
  await expect.poll(() => page.getByText('Відео надіслано на публікацію', { exact: true }).first().isVisible()).toBe(true);
  await context.close();

  // What this profile's three accounts received: the shared sandbox holds the other files' posts too.
  const ours = ['options-client.apps.googleusercontent.com', tiktokLogin, 'options.insta'];
  const received = async (): Promise<Record<string, { account: string; received: Record<string, unknown> }[]>> => {
    const { posts } = await (await sandboxControl(server.baseUrl, '/sandbox/_posts')).json();
    return Object.fromEntries(
      Object.entries(posts as Record<string, { account: string; received: Record<string, unknown> }[]>).map(([platform, list]) => [
        platform,
        list.filter((post) => ours.includes(post.account)),
      ]),
    );
  };
  await expect
    .poll(async () => Object.fromEntries(Object.entries(await received()).map(([platform, list]) => [platform, list.length])), {
      timeout: 120_000,
      interval: 1000,
    })
    .toMatchObject({ youtube: 1, tiktok: 1, instagram: 1 });
  const posts = await received();
  expect(posts.tiktok[0].received.post_info).toMatchObject({
    privacy_level: 'PUBLIC_TO_EVERYONE',
    disable_comment: true,
    disable_duet: false,
    disable_stitch: true,
    brand_content_toggle: false,
    brand_organic_toggle: false,
  });
  expect(posts.youtube[0].received.status).toEqual({ privacyStatus: 'unlisted', selfDeclaredMadeForKids: false });
  expect(posts.instagram[0].received).toMatchObject({ share_to_feed: 'false' });
});
