import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import * as t from '../../src/lib/i18n';
import { makeClip, makeImage, testTools } from '../fixtures/media';
import {
  connectBrowser,
  countingKeyboard,
  createOperator,
  fillPublishFormByKeyboard,
  focusedName,
  logIn,
  pageProblems,
  sharedServer,
  snapshot,
} from './harness';

/**
 * A new operator's first day (issue 30), walked through the screens as written there, once in a
 * wide browser and once on a phone, each as a fresh operator in a browser of their own (en-US, New
 * York time): sign-in; home with the first steps and no posts; a new profile connected to TikTok
 * through the sandbox consent page with no save before it, then to Instagram and YouTube; a group,
 * a background and a request rendered by ffmpeg; a keyboard-only publish to the group on all three
 * platforms, scheduled for tomorrow, in at most 40 presses; the scheduled post cancelled after a
 * confirmation, taken back from the toast and cancelled again; the request deleted from the list
 * after its confirmation. After every step: no serious or critical axe finding, no sideways
 * scroll, and a screenshot (first-day-<step>-<width>).
 */

const server = sharedServer();
let browser: Browser;
let mediaDir: string;
const clipName = 'Перший-кліп.mp4';
const groupName = 'Перша група';

beforeAll(async () => {
  const tools = testTools();
  mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-e2e-first-day-'));
  // Instagram takes Reels of 3 s and more.
  await Promise.all([
    makeClip(tools, path.join(mediaDir, clipName), { seconds: 3 }),
    makeImage(tools, path.join(mediaDir, 'background.png'), { size: '720x1280', colour: '0x1e3a8a' }),
  ]);
  browser = await connectBrowser();
});

afterAll(async () => {
  await browser?.close();
  await fs.rm(mediaDir, { recursive: true, force: true });
});

/** A consent page of the sandbox, answered as the operator would: the sandbox account typed where asked, then 'Дозволити'. */
async function allowOnConsentPage(page: Page, sandboxAccount: string | null) {
  await page.getByRole('button', { name: 'Дозволити' }).waitFor();
  if (sandboxAccount) await page.getByLabel('Обліковий запис пісочниці').fill(sandboxAccount);
  await page.getByRole('button', { name: 'Дозволити' }).click();
}

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  it(`walks a new operator's first day at ${width} px`, async () => {
    const operator = await createOperator(server.baseUrl, `first-day-${width}`);
    // axe is injected by the test, which the product's CSP would rightly refuse.
    const context = await browser.newContext({
      viewport: { width, height },
      bypassCSP: true,
      locale: 'en-US',
      timezoneId: 'America/New_York',
    });
    const page = await context.newPage();
    const look = async (step: string) => {
      expect(await pageProblems(page), `${step} at ${width}`).toEqual([]);
      await snapshot(page, `first-day-${step}-${width}`);
    };

    // Sign-in.
    await page.goto(server.baseUrl);
    await page.getByRole('button', { name: 'Увійти' }).waitFor();
    await look('sign-in');
    await logIn(page, server.baseUrl, operator.login, operator.password);

    // Home: the first steps, and no posts yet.
    await page.getByRole('heading', { name: t.home.postsTitle }).waitFor();
    const steps = page.getByRole('region', { name: t.home.stepsTitle });
    await steps.getByText(t.home.stepsLeft(4)).waitFor();
    expect(await page.getByText(t.home.noPosts).isVisible()).toBe(true);
    await look('home');
    await steps.getByRole('link', { name: t.home.steps.profile.link }).click();

    // A new profile, connected to TikTok through its consent page with no save before.
    await page.getByText(t.accountForm.sandboxProxy(server.proxyUrl)).waitFor();
    await page.getByRole('button', { name: t.accountForm.useSandboxProxy }).click();
    expect(await page.getByLabel(t.accountForm.proxy).inputValue()).toBe(server.proxyUrl);
    await page.getByLabel(t.accountForm.comments).fill('Мій перший профіль');
    for (const platform of [t.accountForm.youtube, t.accountForm.instagram, t.accountForm.tiktok])
      await page.getByRole('switch', { name: platform }).check();
    await page.getByLabel(t.accountForm.clientId).fill(`first-day-${width}.apps.googleusercontent.com`);
    await page.getByLabel(t.accountForm.clientSecret).fill('first-day-secret');
    const tiktok = page.getByRole('region', { name: t.accountForm.tiktok });
    expect(await tiktok.getByRole('status').textContent()).toBe(t.connections.savedOnConnect);
    await look('profile-new');
    await tiktok.getByRole('button', { name: t.connections.connect('TikTok') }).click();
    await page.getByLabel('Обліковий запис пісочниці').waitFor();
    await look('tiktok-consent');
    await allowOnConsentPage(page, `first-day-${width}@tiktok`);
    await expect.poll(() => page.getByText(t.connections.platformConnected('TikTok')).first().isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toMatch(/^\/accounts\/\d+$/);
    await expect.poll(() => tiktok.getByRole('status').textContent()).toMatch(/^Підключено як /);
    expect(await page.getByLabel(t.accountForm.comments).inputValue()).toBe('Мій перший профіль');
    await look('tiktok-connected');

    // The saved profile's other two platforms, each through its own consent page.
    await page
      .getByRole('region', { name: t.accountForm.instagram })
      .getByRole('button', { name: t.connections.connect('Instagram') })
      .click();
    await allowOnConsentPage(page, `first-day-${width}.reels`);
    await expect.poll(() => page.getByText(t.connections.platformConnected('Instagram')).first().isVisible()).toBe(true);
    await page
      .getByRole('region', { name: t.accountForm.youtube })
      .getByRole('button', { name: t.connections.connect('YouTube') })
      .click();
    await allowOnConsentPage(page, null);
    for (const platform of [t.accountForm.youtube, t.accountForm.instagram, t.accountForm.tiktok])
      await expect.poll(() => page.getByRole('region', { name: platform }).getByRole('status').textContent()).toMatch(/^Підключено/);
    await look('profile-connected');

    // The group, a background and a request, rendered.
    await page.goto(`${server.baseUrl}/accounts/group/create`);
    await page.getByLabel(t.groups.name).fill(groupName);
    await page.getByRole('combobox', { name: t.groups.accounts }).click();
    await page.getByRole('option', { name: /Мій перший профіль/ }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Створити' }).click();
    await page.getByText(t.groups.created).first().waitFor();
    await look('group');

    await page.goto(`${server.baseUrl}/photos/create`);
    await page.locator('input[type=file]').setInputFiles(path.join(mediaDir, 'background.png'));
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await page.getByText(t.photos.uploaded).first().waitFor();
    await look('background');

    await page.goto(`${server.baseUrl}/video/create`);
    // The day's one background comes chosen.
    await expect.poll(() => page.getByRole('checkbox', { name: /^Зображення \d+$/ }).isChecked()).toBe(true);
    await page.getByLabel(t.createVideo.count).fill('1');
    await page.locator('input[type=file]').setInputFiles(path.join(mediaDir, clipName));
    await page.getByText(clipName).first().waitFor();
    await page.getByRole('button', { name: t.createVideo.submit }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/video/request-create');
    const request = page.getByRole('row').filter({ hasText: clipName });
    await request.getByRole('link', { name: t.requests.publish }).waitFor({ timeout: 90_000 });
    await look('request-ready');

    // Publishing by keyboard alone, to the group on all three platforms, for tomorrow: every press counted.
    await request.getByRole('link', { name: t.requests.publish }).click();
    await page.getByLabel(t.publish.name).waitFor();
    const keyboard = countingKeyboard(page);
    // Come by the list's link, the keyboard starts in the page's content, not at the skip link.
    await fillPublishFormByKeyboard(keyboard, groupName);
    await expect.poll(() => page.getByLabel(t.postingRules.tiktokPrivacy).isVisible()).toBe(true);
    await keyboard.tabTo(t.postingRules.tiktokPrivacy);
    await keyboard.press('ArrowDown');
    expect(await page.getByLabel(t.postingRules.tiktokPrivacy).inputValue()).not.toBe('');
    await keyboard.tabTo(t.postingRules.madeForKidsYes);
    await keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: t.postingRules.madeForKidsNo }).isChecked()).toBe(true);
    // The calendar opens on Kyiv's today; the day after is one arrow away, at the field's 12:00.
    await keyboard.tabTo(t.dates.openCalendar(t.publish.date));
    await keyboard.press('Enter');
    // The month's code may still be on its way (it is fetched when the button is reached): the operator waits for it to show.
    await page
      .getByRole('dialog', { name: t.dates.calendar(t.publish.date) })
      .getByRole('grid')
      .waitFor();
    await keyboard.press('ArrowRight');
    await keyboard.press('Enter');
    await keyboard.press('Shift+Tab');
    expect(await focusedName(page)).toBe(t.dates.day(t.publish.date));
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toLocaleDateString('uk-UA', { timeZone: 'Europe/Kyiv' });
    expect(await page.getByLabel(t.dates.day(t.publish.date)).inputValue()).toBe(tomorrow);
    await look('publish-form');
    // Enter in the form's field sends it.
    await keyboard.press('Enter');
    await page.getByText(t.publish.sent, { exact: true }).first().waitFor();
    console.log(`First day at ${width} px, keyboard-only publish: ${keyboard.count()} key presses\n${keyboard.trace.join('\n')}`);
    expect(keyboard.count()).toBeLessThanOrEqual(40);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/video/request-create');
    await look('published');

    // On the set's page: the scheduled post cancelled after a confirmation, taken back from the toast, cancelled again.
    await request.getByRole('link', { name: t.requests.openPublished }).click();
    const change = page.getByRole('button', { name: /^Змінити публікацію відео #\d+$/ });
    await change.waitFor();
    const videoId = Number((await change.getAttribute('aria-label'))!.split('#')[1]);
    // By the cell's own text: on a phone each cell's name starts with its column's, shown from data-label.
    const row = page.getByRole('row').filter({ has: page.locator('td').filter({ hasText: new RegExp(`^${videoId}$`) }) });
    await row.getByText(/^заплановано на /).waitFor();
    await look('set-scheduled');
    const cancelAsked = async () => {
      await change.click();
      await page.getByRole('button', { name: t.postTruth.cancelSchedule }).click();
      const dialog = page.getByRole('alertdialog', { name: t.postTruth.cancelQuestion(videoId) });
      await dialog.waitFor();
      return dialog;
    };
    const dialog = await cancelAsked();
    await look('cancel-confirm');
    await dialog.getByRole('button', { name: t.postTruth.cancelSchedule }).click();
    const undo = page.getByRole('button', { name: t.postTruth.undoCancelOf(videoId) });
    await undo.waitFor();
    await row.getByText(t.videoStatus.cancelled, { exact: true }).waitFor();
    expect(await focusedName(page)).toBe(t.postTruth.undoCancelOf(videoId));
    await look('cancelled');
    await undo.click();
    await row.getByText(/^заплановано на /).waitFor();
    await expect.poll(() => focusedName(page)).toBe(t.postTruth.changeScheduleOf(videoId));
    await expect.poll(() => undo.count()).toBe(0);
    await look('restored');
    await (await cancelAsked()).getByRole('button', { name: t.postTruth.cancelSchedule }).click();
    await row.getByText(t.videoStatus.cancelled, { exact: true }).waitFor();
    await look('cancelled-again');

    // The request deleted from the list, after its confirmation.
    await page.goto(`${server.baseUrl}/video/request-create`);
    await request.getByText(t.videoStatus.cancelled, { exact: true }).waitFor();
    await request.getByRole('button', { name: t.requests.deleteLabel(clipName, 0) }).click();
    await page.getByRole('alertdialog').getByText(t.requests.deleteConsequence(true)).waitFor();
    await look('delete-confirm');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Видалити' }).click();
    await page.getByText(t.requests.deleted).first().waitFor();
    await expect.poll(() => request.count()).toBe(0);
    await look('deleted');
    await context.close();
  });
}
