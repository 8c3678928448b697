import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect, inject, vi } from 'vitest';
import * as t from '../../src/lib/i18n';
import { makeClip, makeImage, testTools } from '../fixtures/media';

export const adminLogin = 'admin';
export const adminPassword = 'admin-e2e-password';
export const screenshotDir = path.resolve('test-results/screens');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * This process's environment without the NODE_ENV=test Vitest sets: inherited, it made `npm start`
 * build the SPA in development mode (React's dev runtime, 428 KB main chunk), which no operator runs.
 */
export function operatorEnvironment(): NodeJS.ProcessEnv {
  const { NODE_ENV: _vitestMode, ...environment } = process.env;
  return environment;
}

/**
 * The test servers' posting hours, Kyiv time. A move is refused outside them (09:00–22:00 by
 * default), and tests move posts to minutes near their own now, which CI meets at any hour: the
 * whole day is open but its last minutes, as the slots end on 5-minute steps before 24:00.
 */
export const testPostingHours = { from: '00:00', to: '23:55' };

/** The real `npm start` on a free port with a temporary DATA_DIR, as an operator would run it. */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-e2e-'));
  let output = '';
  const child: ChildProcess = spawn('npm', ['start'], {
    env: {
      ...operatorEnvironment(),
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_LOGIN: adminLogin,
      ADMIN_PASSWORD: adminPassword,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      POSTING_FROM: testPostingHours.from,
      POSTING_TO: testPostingHours.to,
      ...extraEnv,
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));

  const baseUrl = `http://127.0.0.1:${port}`;
  // Five servers start at once and the first builds the SPA: a slow CI gets the most of the hooks' 420 s.
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`npm start did not become ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  return {
    baseUrl,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // A test's server is thrown away with its data: killed at once, not stopped gracefully, whose
        // wait for running jobs (up to 30 s) held the shared servers' teardown past Vitest's 10 s.
        process.kill(-child.pid!, 'SIGKILL');
        await exited;
      }
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, never a downloaded one. */
export const chromiumOptions = {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
};

export function launchBrowser(): Promise<Browser> {
  return chromium.launch(chromiumOptions);
}

/**
 * The server the files of the shared group all use (tests/e2e/shared-server.ts): each file makes
 * its own users and profiles there, and sees the others' only through an admin's eyes.
 */
export function sharedServer(): { baseUrl: string; proxyUrl: string } {
  return inject('sharedServer');
}

/** The shared group's Chromium: a file's contexts are its own, and closing the file's handle closes them. */
export function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject('sharedBrowser'));
}

/** An access token for `login`, signed in through the API as a script would. */
export async function accessToken(baseUrl: string, login: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password }),
  });
  if (!response.ok) throw new Error(`sign-in of ${login}: ${response.status}`);
  return (await response.json()).accessToken;
}

export function adminToken(baseUrl: string): Promise<string> {
  return accessToken(baseUrl, adminLogin, adminPassword);
}

/** One admin sign-in per server for its sandbox controls, made again when its access token has ended. */
const controlTokens = new Map<string, Promise<string>>();

/**
 * The sandbox's controls (`/sandbox/_…`: its fault plan, what the platforms received, its Telegram,
 * the syncs and checks planned now), as the admin they belong to: they inspect and steer every
 * user's platforms. The answer as it came.
 */
export async function sandboxControl(baseUrl: string, route: string, init: { method?: string; json?: unknown } = {}): Promise<Response> {
  const send = async (token: Promise<string>) =>
    fetch(`${baseUrl}${route}`, {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      headers: { authorization: `Bearer ${await token}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
  if (!controlTokens.has(baseUrl)) controlTokens.set(baseUrl, adminToken(baseUrl));
  const answer = await send(controlTokens.get(baseUrl)!);
  if (answer.status !== 401) return answer;
  controlTokens.set(baseUrl, adminToken(baseUrl));
  return send(controlTokens.get(baseUrl)!);
}

/**
 * Plans the statistics sync now rather than at the cron's next minute (POST /sandbox/_sync-stats,
 * sandbox mode); the syncs it queues run on the worker a moment later.
 */
export async function syncStatsNow(baseUrl: string) {
  const response = await sandboxControl(baseUrl, '/sandbox/_sync-stats', { json: {} });
  if (response.status !== 202) throw new Error(`sync-stats: ${response.status} ${await response.text()}`);
}

/**
 * A user the admin makes on the shared server, for a file that reads lists as an operator does:
 * the user sees their own rows only, whatever the other files left there.
 */
export async function createOperator(baseUrl: string, login: string): Promise<{ login: string; password: string }> {
  const password = `${login}-password`;
  const created = await fetch(`${baseUrl}/api/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await adminToken(baseUrl)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ login, password, password_confirmation: password }),
  });
  if (created.status !== 201) throw new Error(`creating user ${login}: ${created.status} ${await created.text()}`);
  return { login, password };
}

export async function logIn(page: Page, baseUrl: string, login: string, password: string, path = '/') {
  await page.goto(`${baseUrl}${path}`);
  await page.getByLabel('Логін').fill(login);
  await page.getByLabel('Пароль').fill(password);
  await page.getByRole('button', { name: 'Увійти' }).click();
}

/**
 * Screenshots are for a person to open; nobody opens a throwaway clone's, so `.ci/run` turns them off
 * (E2E_SCREENSHOTS=off). They are pictures, never read by an assertion.
 */
const screenshotsWanted = process.env.E2E_SCREENSHOTS !== 'off';

/** Keeps a screenshot of what the operator sees once its animations have ended, for a person to look at (test-results/screens). */
export async function snapshot(page: Page, name: string) {
  if (!screenshotsWanted) return;
  await animationsSettled(page);
  await fs.mkdir(screenshotDir, { recursive: true });
  // A full-page capture keeps the scroll position, and the sticky menu would show where the page was scrolled to.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

export interface ApiInit {
  method?: string;
  json?: unknown;
  form?: FormData;
}

/**
 * The API as one signed-in user, whose token `token()` gives at the time of each call (a file may
 * sign in as someone else halfway): the answer's status and JSON body, whatever the status.
 */
export function apiAnswers(baseUrl: string, token: () => string) {
  return async (route: string, init: ApiInit = {}) => {
    const response = await fetch(`${baseUrl}${route}`, {
      method: init.method ?? (init.json || init.form ? 'POST' : 'GET'),
      headers: { authorization: `Bearer ${token()}`, ...(init.json ? { 'content-type': 'application/json' } : {}) },
      body: init.json ? JSON.stringify(init.json) : init.form,
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads the fields it asserts on
    return { status: response.status, body: (await response.json().catch(() => null)) as any };
  };
}

/** The same calls for a file's set-up, where a refusal is the test's own mistake: it throws, saying the answer. */
export function apiBodies(baseUrl: string, token: () => string) {
  const answer = apiAnswers(baseUrl, token);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the caller names the shape it reads, or reads it loosely
  return async <T = any>(route: string, init: ApiInit = {}): Promise<T> => {
    const { status, body } = await answer(route, init);
    if (status >= 400) throw new Error(`${route}: ${status} ${JSON.stringify(body)}`);
    return body as T;
  };
}

export type ApiBodies = ReturnType<typeof apiBodies>;

export interface RequestMedia {
  dir: string;
  /** A phone-sized background, one colour. */
  image: string;
  /** 4 s: Instagram takes Reels of 3 s and more. */
  clip: string;
}

/** What a file's requests are made of, in a temporary folder of its own named after `name`. */
export async function requestMedia(name: string, colour: string): Promise<RequestMedia> {
  const tools = testTools();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `shorts-e2e-${name}-`));
  const media = { dir, image: path.join(dir, 'background.png'), clip: path.join(dir, 'clip.mp4') };
  await Promise.all([makeImage(tools, media.image, { size: '720x1280', colour }), makeClip(tools, media.clip, { seconds: 4 })]);
  return media;
}

/** Uploads `image` as a background: its photo ids, as a request takes them. */
export async function uploadBackground(api: ApiBodies, image: string): Promise<number[]> {
  const images = new FormData();
  images.append('files', new Blob([await fs.readFile(image)], { type: 'image/png' }), 'background.png');
  return (await api<{ data: { id: number }[] }>('/api/photo-bg', { form: images })).data.map((photo) => photo.id);
}

export interface RequestUpload {
  clip: string;
  photoIds: number[];
  count?: number;
  name?: string;
}

/** Uploads `clip` as a request of `count` videos over the backgrounds; its id, rendering. */
export async function createRequest(api: ApiBodies, { clip, photoIds, count = 1, name = 'clip.mp4' }: RequestUpload) {
  const form = new FormData();
  form.append('countVideo', String(count));
  form.append('photoIds', JSON.stringify(photoIds));
  form.append('file', new Blob([await fs.readFile(clip)], { type: 'video/mp4' }), name);
  return (await api<{ idUpload: string }>('/api/create-video/create', { form })).idUpload;
}

/**
 * The same request, waited for through the real ffmpeg render, polled until the request leaves
 * 'loading' as the request list does; its id and detail.
 */
export async function renderedRequest(api: ApiBodies, upload: RequestUpload) {
  const idUpload = await createRequest(api, upload);
  const detail = await vi.waitFor(
    async () => {
      const current = await api(`/api/create-video/request/${idUpload}`);
      if (current.status === 'loading') throw new Error('still rendering');
      return current;
    },
    { timeout: 120_000, interval: 250 },
  );
  if (detail.status !== 'success') throw new Error(`render failed: ${JSON.stringify(detail.error)}`);
  return { idUpload, detail };
}

/** A rendered request's videos as the publish body lists them: every video, no profile or date of its own. */
export function videosToPublish(idUpload: string, detail: { video: { id: number; url: string; createdAt: string }[] }) {
  return detail.video.map((video) => ({ id: video.id, url: video.url, idUpload, createdAt: video.createdAt, account: null, date: null }));
}

/** What has the focus, by its accessible label, as the operator hears it. */
export const focusedName = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    const labelled = element?.getAttribute('aria-labelledby');
    const label =
      element?.getAttribute('aria-label') ??
      (labelled ? document.getElementById(labelled)?.textContent : null) ??
      (element as HTMLInputElement | null)?.labels?.[0]?.textContent ??
      element?.textContent;
    return label?.trim() ?? '';
  });

/** The keyboard, counting every press; each typed character is a press. */
export function countingKeyboard(page: Page) {
  let presses = 0;
  const trace: string[] = [];
  const press = async (key: string) => {
    presses += 1;
    await page.keyboard.press(key);
    trace.push(`${presses} ${key} -> ${await focusedName(page)}`);
  };
  return {
    press,
    type: async (text: string) => {
      presses += [...text].length;
      trace.push(`${presses} typed ${text}`);
      await page.keyboard.type(text);
    },
    /** Tab until the control named `name` has the focus, as an operator moves through the form. */
    tabTo: async (name: string) => {
      for (let tabs = 0; tabs < 40; tabs++) {
        await press('Tab');
        if ((await focusedName(page)) === name) return;
      }
      throw new Error(`Tab never reached ${name}`);
    },
    count: () => presses,
    trace,
  };
}

/**
 * The publish form's first steps by keyboard, as both keyboard walks take them: the title and a tag
 * typed, TikTok and Instagram ticked by Space beside the YouTube that comes ticked, and the group's
 * chip. Tab leaves the typed tag as a tag.
 */
export async function fillPublishFormByKeyboard(keyboard: ReturnType<typeof countingKeyboard>, group: string) {
  await keyboard.tabTo(t.publish.name);
  await keyboard.type('Кіно');
  await keyboard.tabTo(t.publish.tags);
  await keyboard.type('кіно');
  await keyboard.tabTo(t.accountForm.tiktok);
  await keyboard.press('Space');
  await keyboard.tabTo(t.accountForm.instagram);
  await keyboard.press('Space');
  await keyboard.tabTo(group);
  await keyboard.press('Enter');
}

/**
 * Waits up to 5 s for the page's animations to end: axe reads colours as drawn, and a toast sliding
 * in or fading out measures as low contrast. A spinner's endless turn never ends, and is not waited for.
 */
async function animationsSettled(page: Page) {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity),
      undefined,
      { timeout: 5000 },
    )
    .catch(() => undefined);
}

const axeSource = await fs.readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe's serious and critical findings on the page as it is now, each with up to three places, e.g.
 * 'axe serious color-contrast: .badge'. The page's context needs `bypassCSP`: the product's CSP
 * rightly refuses the injected script.
 */
export async function axeFindings(page: Page): Promise<string[]> {
  await animationsSettled(page);
  // Once a document: the app's own navigations keep it, and compiling axe's 560 KB again each time cost the renderer.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const findings = await axeRun(page);
  if (findings.length === 0) return findings;
  // A toast that begins to fade while axe reads the page measures as low contrast (CI saw the
  // sign-in toast's 2 s end fall inside a run): a real finding is still there at rest again.
  await animationsSettled(page);
  return axeRun(page);
}

async function axeRun(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    interface Violation {
      id: string;
      impact: string;
      nodes: { target: string[] }[];
    }
    const axe = (
      window as unknown as {
        axe: {
          run: (context: Document, options: { resultTypes: string[]; rules: object }) => Promise<{ violations: Violation[] }>;
        };
      }
    ).axe;
    // Only the violations are read: axe then works out selectors for one passing node a rule instead of
    // every one (axe-core doc/API.md, "Section 4: Performance", the resultTypes option).
    // label-content-name-mismatch, a name that does not say what is shown, is experimental and so off by default.
    const rules = { 'label-content-name-mismatch': { enabled: true } };
    return (await axe.run(document, { resultTypes: ['violations'], rules })).violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `axe ${violation.impact} ${violation.id}: ${violation.nodes
            .slice(0, 3)
            .map((node) => node.target.join(' '))
            .join(', ')}`,
      );
  });
}

/** axe's findings, and how far the page scrolls sideways (a phone's screen must not). */
export async function pageProblems(page: Page): Promise<string[]> {
  const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);
  return [...(overflow > 0 ? [`scrolls sideways by ${overflow} px`] : []), ...(await axeFindings(page))];
}

/** Screenshots, axe and the sideways scroll at 1440 and 390 px, back at 1440 after. */
export async function lookAt(page: Page, name: string) {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await snapshot(page, `${name}-${width}`);
    expect(await pageProblems(page), `${name} at ${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}
