import fs from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import * as t from '../../src/lib/i18n';
import {
  accessToken,
  apiBodies,
  lookAt,
  connectBrowser,
  createOperator,
  logIn,
  renderedRequest,
  requestMedia,
  type RequestMedia,
  sandboxControl,
  sharedServer,
  uploadBackground,
} from './harness';

/**
 * Issue 41: a new profile connects its Facebook Page through the sandbox's Meta dialog, choosing the
 * Page there, and a set goes out to Facebook and Instagram together, through the real UI, with no
 * serious or critical axe finding at 1440 and 390 px.
 */

const server = sharedServer();
let browser: Browser;
let operator: { login: string; password: string };
let token: string;
let media: RequestMedia;

const person = 'reels.owner';
const instagramLogin = 'reels.insta';

beforeAll(async () => {
  media = await requestMedia('facebook', '0x2563eb');
  operator = await createOperator(server.baseUrl, 'reels-user');
  browser = await connectBrowser();
  token = await accessToken(server.baseUrl, operator.login, operator.password);
});

afterAll(async () => {
  await browser?.close();
  await fs.rm(media.dir, { recursive: true, force: true });
});

it('connects a new profile’s Page through the consent dialog, and a set goes out to Facebook and Instagram together', async () => {
  const bodies = apiBodies(server.baseUrl, () => token);
  const photoIds = await uploadBackground(bodies, media.image);
  const { idUpload } = await renderedRequest(bodies, { clip: media.clip, photoIds });

  // axe is injected by the test, which the product's CSP would rightly refuse.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  await logIn(page, server.baseUrl, operator.login, operator.password, '/accounts/create');
  await page.getByRole('button', { name: 'Вписати проксі пісочниці' }).click();
  await page.getByLabel('Коментар').fill('Сторінка Reels');
  await page.getByRole('switch', { name: 'Facebook' }).check();
  await page.getByRole('switch', { name: 'Instagram' }).check();
  const facebook = page.getByRole('region', { name: 'Facebook' });
  await expect.poll(() => facebook.getByRole('button', { name: 'Підключити Facebook' }).isVisible()).toBe(true);
  await lookAt(page, 'facebook-new-profile');

  // Meta's dialog: who signs in, then which Pages the app may use; the Page that only analyses is left out.
  await facebook.getByRole('button', { name: 'Підключити Facebook' }).click();
  await page.getByLabel('Особа пісочниці').fill(person);
  await page.getByRole('button', { name: 'Продовжити' }).click();
  await page.getByRole('checkbox', { name: `Сторінка ${person} 2` }).uncheck();
  await page.getByRole('button', { name: 'Дозволити' }).click();
  await expect.poll(() => page.getByText('Facebook підключено').first().isVisible()).toBe(true);
  await expect.poll(() => facebook.getByRole('status').textContent()).toBe(`Підключено як Сторінка ${person} 1`);
  const accountId = Number(new URL(page.url()).pathname.split('/').at(-1));

  const instagram = page.getByRole('region', { name: 'Instagram' });
  await instagram.getByRole('button', { name: 'Підключити Instagram' }).click();
  await page.getByLabel('Обліковий запис пісочниці').fill(instagramLogin);
  await page.getByRole('button', { name: 'Дозволити' }).click();
  await expect.poll(() => instagram.getByRole('status').textContent()).toMatch(/^Підключено як /);
  await lookAt(page, 'facebook-connected');

  await page.goto(`${server.baseUrl}/video/request/${idUpload}`);
  await page.getByLabel('Назва').fill('Reels на двох платформах');
  await page.getByLabel('Теги').fill('reels ');
  await page.getByRole('checkbox', { name: 'YouTube' }).uncheck();
  await page.getByRole('checkbox', { name: 'Facebook' }).check();
  await page.getByRole('checkbox', { name: 'Instagram' }).check();
  await page.getByRole('combobox', { name: 'Профілі' }).click();
  await page.getByRole('option', { name: `#${accountId} Сторінка Reels` }).click();
  await page.keyboard.press('Escape');
  await expect
    .poll(() =>
      page
        .getByText(t.postingRules.platformRules.facebook({ minSeconds: 3, maxSeconds: 90, minFps: 24, maxFps: 60, dailyReels: 30 }), {
          exact: true,
        })
        .isVisible(),
    )
    .toBe(true);
  await lookAt(page, 'facebook-publish-form');
  await page.getByRole('button', { name: 'Зберегти' }).click();
  await expect.poll(() => page.getByText('Відео надіслано на публікацію', { exact: true }).first().isVisible()).toBe(true);

  // Both posts went out: the set's page links each, and the sandbox's Page holds the Reel.
  await page.goto(`${server.baseUrl}/video/youtube/${idUpload}`);
  const linkOf = (name: string) => page.getByRole('link', { name, exact: true });
  await expect.poll(() => linkOf('Facebook').count(), { timeout: 120_000, interval: 1000 }).toBe(1);
  expect(await linkOf('Facebook').getAttribute('href')).toMatch(/^https:\/\/www\.facebook\.com\/reel\/\d+$/);
  await expect.poll(() => linkOf('Instagram').count(), { timeout: 120_000, interval: 1000 }).toBe(1);
  await lookAt(page, 'facebook-published-set');
  const { posts } = await (await sandboxControl(server.baseUrl, '/sandbox/_posts')).json();
  const reels = (posts.facebook as { received: { description?: string } }[]).filter((post) =>
    post.received.description?.startsWith('Reels на двох платформах'),
  );
  expect(reels).toHaveLength(1);
  await context.close();
});
