import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { daysOf, kyivDay, shiftAnchor } from '../../src/lib/calendar';
import * as t from '../../src/lib/i18n';
import { emptyAccountForm } from '../../src/lib/schemas';
import {
  accessToken,
  apiBodies,
  createOperator,
  freePort,
  launchBrowser,
  logIn,
  lookAt,
  renderedRequest,
  requestMedia,
  type RequestMedia,
  type RunningServer,
  uploadBackground,
} from './harness';
import { startServerOnPostgres } from './processes';

/**
 * Issue 43.3–43.4 against `npm start`: an operator imports next week's plan of 40 rows from a uk-UA
 * Excel CSV in the calendar; the preview names the 3 bad rows (another operator's profile, a date
 * in the past, the same post twice) by line and reason; the other 37 save on confirm and show in
 * the week; the week exported from the calendar imports back as a no-op. Then (issue 43.5) a post
 * within its profile's gap of another is flagged as a possible duplicate and saved only once the
 * operator ticks it in.
 */

let server: RunningServer;
let browser: Browser;
let media: RequestMedia;
let page: Page;
const operator = { login: 'plan-importer', password: '', token: '' };
/** Next week, Monday to Sunday, in Kyiv: every day of it is still to come. */
const week = daysOf('week', shiftAnchor('week', kyivDay(Date.now()), 1));
const yesterday = kyivDay(Date.now() - 86_400_000);
const dotted = (day: string) => day.split('-').reverse().join('.');
let planFile: string;
let duplicateFile: string;
let lines: { foreign: number; past: number; twice: number; first: number };
let foreignProfile: number;

const header = 'ID відео;ID запиту;Профіль;Платформа;Дата (Київ);Назва;Опис;Теги';

beforeAll(async () => {
  const proxyPort = await freePort();
  [server, media] = await Promise.all([
    startServerOnPostgres({ RENDER_PRESET: 'ultrafast', RENDER_CONCURRENCY: '2', SANDBOX_PROXY_PORT: String(proxyPort) }),
    requestMedia('plans', '0x0f766e'),
  ]);
  operator.password = (await createOperator(server.baseUrl, operator.login)).password;
  operator.token = await accessToken(server.baseUrl, operator.login, operator.password);
  const api = apiBodies(server.baseUrl, () => operator.token);
  const proxy = `http://127.0.0.1:${proxyPort}`;
  const profiles: number[] = [];
  for (const name of ['Ранок', 'Вечір']) {
    const created = await api<{ id: number }>('/api/accounts', {
      json: {
        ...emptyAccountForm,
        proxy,
        comments: `План ${name}`,
        isActiveTikTok: true,
        TikTiokAuthStr: `sandbox-tt-plan-${name}`,
        isActiveInstagram: true,
        InstagramLogin: `plan.${profiles.length}`,
        InstagramPassword: 'instagram-password',
      },
    });
    await api(`/api/posting-rules/${created.id}`, { method: 'PUT', json: { tiktok: { privacyLevel: 'SELF_ONLY' } } });
    profiles.push(created.id);
  }
  // Another operator's profile, which this operator's plan may not name.
  const stranger = await createOperator(server.baseUrl, 'plan-stranger');
  const strangerToken = await accessToken(server.baseUrl, stranger.login, stranger.password);
  const foreign = await apiBodies(server.baseUrl, () => strangerToken)<{ id: number }>('/api/accounts', {
    json: { ...emptyAccountForm, proxy, comments: 'Чужий', isActiveTikTok: true, TikTiokAuthStr: 'sandbox-tt-plan-stranger' },
  });

  const photoIds = await uploadBackground(api, media.image);
  // Two requests of ten rendering side by side: twenty videos, forty posts on TikTok and Instagram.
  const requests = await Promise.all([0, 1].map(() => renderedRequest(api, { clip: media.clip, photoIds, count: 10 })));
  const videos = requests.flatMap((request) => request.detail.video.map((video: { id: number }) => video.id as number));

  // Post k: video k / 2 on TikTok then Instagram, on profile (video mod 2), its day and hour by the video's turn.
  const row = (k: number, profile: string, date: string) => {
    const video = Math.floor(k / 2);
    return `${videos[video]};;${profile};${k % 2 === 0 ? 'tiktok' : 'instagram'};${date};Відео плану ${video + 1};;план тиждень`;
  };
  const dateOf = (k: number) => {
    const video = Math.floor(k / 2);
    return `${dotted(week[video % 7]!)} ${String(8 + Math.floor(video / 7) * 2).padStart(2, '0')}:00`;
  };
  const good = Array.from({ length: 37 }, (_, k) => row(k, `#${profiles[Math.floor(k / 2) % 2]}`, dateOf(k)));
  const rows = [...good];
  // Lines count the header as 1: the bad rows land on lines 6, 20 and 35.
  rows.splice(4, 0, row(37, `#${foreign.id}`, dateOf(37)));
  rows.splice(18, 0, row(38, `#${profiles[1]}`, `${dotted(yesterday)} 12:00`));
  rows.splice(33, 0, good[0]!);
  expect(rows).toHaveLength(40);
  lines = { foreign: 6, past: 20, twice: 35, first: 2 };
  planFile = path.join(media.dir, 'plan.csv');
  await fs.writeFile(planFile, `\uFEFF${[header, ...rows].join('\r\n')}\r\n`);
  foreignProfile = foreign.id;
  // The last video, left out above: on TikTok an hour after the profile's post of video 2 (the default gap is 90 minutes), on Instagram apart.
  duplicateFile = path.join(media.dir, 'duplicate.csv');
  await fs.writeFile(
    duplicateFile,
    `\uFEFF${[
      header,
      `${videos[19]};;#${profiles[1]};tiktok;${dotted(week[1]!)} 09:00;Відео плану 20;;план тиждень`,
      `${videos[19]};;#${profiles[1]};instagram;${dotted(week[2]!)} 16:00;Відео плану 20;;план тиждень`,
    ].join('\r\n')}\r\n`,
  );

  browser = await launchBrowser();
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    bypassCSP: true,
    locale: 'uk-UA',
    acceptDownloads: true,
  });
  page = await context.newPage();
  await logIn(page, server.baseUrl, operator.login, operator.password, '/calendar');
  await page.getByRole('button', { name: t.calendar.next }).click();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fs.rm(media.dir, { recursive: true, force: true });
});

/** The week's scheduled posts, by their handles. */
const scheduledPosts = () => page.getByRole('button', { name: /^Перенести / });
const dialog = () => page.getByRole('dialog');

it('previews a 40-row CSV naming its 3 bad rows by line and reason, saves the other 37 on confirm, and shows them in the week', async () => {
  await page.getByRole('button', { name: t.plans.importAction }).click();
  await expect.poll(() => dialog().getByText(t.plans.importHint).isVisible()).toBe(true);
  await dialog().getByLabel(t.plans.file).setInputFiles(planFile);
  await expect.poll(() => dialog().getByRole('status').textContent(), { timeout: 60_000 }).toBe(t.plans.summary(37, 3, 0));

  const reasonOf = (line: number) => dialog().locator(`tr[data-line="${line}"]`).textContent();
  expect(await reasonOf(lines.foreign)).toContain(`Рядок ${lines.foreign}: профіль «#${foreignProfile}» не знайдено серед ваших`);
  expect(await reasonOf(lines.past)).toContain(`Рядок ${lines.past}: дата ${dotted(yesterday)} 12:00 уже минула`);
  expect(await reasonOf(lines.twice)).toContain(`Рядок ${lines.twice}: те саме відео вже є в рядку ${lines.first} для TikTok`);
  expect(await dialog().locator('tr[data-state="refused"]').count()).toBe(3);
  await lookAt(page, 'plan-import-preview');

  await dialog()
    .getByRole('button', { name: t.plans.save(37) })
    .click();
  await expect.poll(() => page.getByText(t.plans.saved(37)).first().isVisible()).toBe(true);
  await dialog().getByRole('button', { name: t.plans.close }).click();
  await expect.poll(() => scheduledPosts().count()).toBe(37);
  await lookAt(page, 'plan-import-week');
});

it('exports the week as the import’s CSV, which imports back as a no-op', async () => {
  await page.getByRole('button', { name: t.plans.exportAction }).click();
  expect(await dialog().getByLabel(t.plans.exportFrom).inputValue()).toBe(week[0]);
  expect(await dialog().getByLabel(t.plans.exportTo).inputValue()).toBe(week[6]);
  await lookAt(page, 'plan-export');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog().getByRole('button', { name: t.plans.exportDownload }).click(),
  ]);
  const exported = path.join(media.dir, 'exported.csv');
  await download.saveAs(exported);
  const text = await fs.readFile(exported, 'utf8');
  expect(text.startsWith(`\uFEFF${header}\r\n`)).toBe(true);
  expect(text.trimEnd().split('\r\n')).toHaveLength(38);
  await dialog().getByRole('button', { name: t.plans.close }).click();

  await page.getByRole('button', { name: t.plans.importAction }).click();
  await dialog().getByLabel(t.plans.file).setInputFiles(exported);
  await expect.poll(() => dialog().getByRole('status').textContent(), { timeout: 60_000 }).toBe(t.plans.summary(37, 0, 37));
  expect(await dialog().getByRole('button', { name: t.plans.nothingToSave }).isDisabled()).toBe(true);
  await dialog().getByRole('button', { name: t.plans.close }).click();
  await expect.poll(() => scheduledPosts().count()).toBe(37);
});

it('flags a post within its profile’s gap as a possible duplicate, and saves it only once the operator ticks it in', async () => {
  await page.getByRole('button', { name: t.plans.importAction }).click();
  await dialog().getByLabel(t.plans.file).setInputFiles(duplicateFile);
  await expect.poll(() => dialog().getByRole('status').textContent(), { timeout: 60_000 }).toBe(t.plans.summary(1, 1, 0));
  const flagged = dialog().locator('tr[data-duplicate="true"]');
  expect(await flagged.count()).toBe(1);
  expect(await flagged.getAttribute('data-line')).toBe('2');
  expect(await flagged.textContent()).toContain('Рядок 2: можливий дубль — профіль');
  expect(await dialog().getByText(t.plans.duplicatesNote(1)).isVisible()).toBe(true);
  expect(
    await dialog()
      .getByRole('button', { name: t.plans.save(1) })
      .isEnabled(),
  ).toBe(true);

  await dialog().getByLabel(t.plans.saveDuplicates).check();
  await lookAt(page, 'plan-import-duplicate');
  await dialog()
    .getByRole('button', { name: t.plans.save(2) })
    .click();
  await expect.poll(() => page.getByText(t.plans.saved(2)).first().isVisible()).toBe(true);
  await dialog().getByRole('button', { name: t.plans.close }).click();
  await expect.poll(() => scheduledPosts().count()).toBe(39);
});
