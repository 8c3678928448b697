import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import * as t from '../../src/lib/i18n';
import { emptyAccountForm } from '../../src/lib/schemas';
import { runTool } from '../../server/media/tools';
import { makeClip, testTools } from '../fixtures/media';
import {
  adminLogin,
  adminPassword,
  apiAnswers,
  apiBodies,
  freePort,
  launchBrowser,
  logIn,
  renderedRequest,
  snapshot,
  type RunningServer,
  adminToken,
} from './harness';
import { startServerOnPostgres } from './processes';

/**
 * Issue 23.2 against `npm start`: the sandbox's Instagram allows 2 posts a day; the publish form
 * shows the profile's 2 left for the day and warns that a plan of 3 goes past them.
 */

let server: RunningServer;
let browser: Browser;
let mediaDir: string;
let token: string;
let idUpload: string;
const profile = { id: 0, title: '' };
let api: ReturnType<typeof apiAnswers>;

beforeAll(async () => {
  const tools = testTools();
  mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-e2e-caps-'));
  const image = path.join(mediaDir, 'background.png');
  await runTool(tools.ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x1d4ed8:s=720x1280', '-frames:v', '1', image], 60_000);
  const clip = path.join(mediaDir, 'clip.mp4');
  await makeClip(tools, clip);

  const proxyPort = await freePort();
  server = await startServerOnPostgres({
    RENDER_PRESET: 'ultrafast',
    SANDBOX_PROXY_PORT: String(proxyPort),
    SANDBOX_INSTAGRAM_DAILY_POSTS: '2',
  });
  token = await adminToken(server.baseUrl);
  api = apiAnswers(server.baseUrl, () => token);
  const created = await api('/api/accounts', {
    json: {
      ...emptyAccountForm,
      proxy: `http://127.0.0.1:${proxyPort}`,
      comments: 'Інста з лімітом',
      isActiveInstagram: true,
      InstagramLogin: 'caps.one',
      InstagramPassword: 'instagram-password',
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  Object.assign(profile, { id: created.body.id, title: `#${created.body.id} Інста з лімітом` });

  const images = new FormData();
  images.append('files', new Blob([await fs.readFile(image)], { type: 'image/png' }), 'background.png');
  const photoIds = (await api('/api/photo-bg', { form: images })).body.data.map((photo: { id: number }) => photo.id);
  idUpload = (
    await renderedRequest(
      apiBodies(server.baseUrl, () => token),
      { clip, photoIds, count: 3 },
    )
  ).idUpload;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fs.rm(mediaDir, { recursive: true, force: true });
});

it('shows the profile’s Instagram posts left for the day and warns that a plan of 3 goes past the 2 allowed', async () => {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    const context = await browser.newContext({ viewport: { width, height }, locale: 'uk-UA' });
    const page = await context.newPage();
    await logIn(page, server.baseUrl, adminLogin, adminPassword, `/video/request/${idUpload}`);
    await page.getByRole('checkbox', { name: 'YouTube' }).uncheck();
    await page.getByRole('checkbox', { name: 'Instagram' }).check();
    await page.getByRole('combobox', { name: 'Профілі' }).click();
    await page.getByRole('option', { name: profile.title }).click();
    await page.keyboard.press('Escape');

    await expect.poll(() => page.getByText(t.postingCaps.budgetLine(2, 0, 0, 2), { exact: true }).isVisible()).toBe(true);
    const warning = t.postingCaps.budgetOver(profile.title, 'Instagram', 1);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: warning }).isVisible()).toBe(true);
    await page.getByRole('heading', { name: /^Ліміти публікацій на \d{2}\.\d{2}\.\d{4}$/ }).scrollIntoViewIfNeeded();
    await snapshot(page, `caps-publish-form-${width}`);
    await context.close();
  }
});
