import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { adminLogin, adminPassword, connectBrowser, freePort, logIn, sharedServer } from './harness';

/**
 * Stands in for https://stately.ai/inspect (no internet here): it tells the app's inspector it is
 * connected, as the real page does, and keeps every inspection event it is sent.
 */
const inspectorPage = `<!doctype html><script>
  window.received = [];
  addEventListener('message', (event) => window.received.push(event.data));
  window.opener.postMessage({ type: '@statelyai.connected' }, '*');
</script>`;

/** Each screen, and the actors it must hand to the inspector, by the names the inspector shows. */
const screens: Array<[path: string, actors: string[]]> = [
  ['/accounts/list', ['account-list']],
  ['/accounts/create', ['account-create']],
  ['/accounts/group/list', ['group-list']],
  ['/accounts/group/create', ['group-form', 'group-profile-options']],
  ['/tags', ['tag-list']],
  ['/tags/create', ['tag-form']],
  ['/users', ['user-list']],
  ['/users/create', ['user-form']],
  ['/photos/list', ['photo-list']],
  ['/photos/create', ['photo-upload']],
  ['/video/create', ['create-video', 'backgrounds']],
  ['/video/request-create', ['request-list', 'polling', 'tabVisibility']],
  ['/video/list', ['upload-list']],
  ['/video/request/no-such-request', ['publish-request', 'loadRequest']],
  ['/video/youtube/no-such-set', ['published-set', 'loadSet']],
];

const server = sharedServer();
let vite: ViteDevServer;
let viteUrl: string;
let browser: Browser;
let page: Page;
let inspector: Page;

beforeAll(async () => {
  const port = await freePort();
  // The inspector is a dev-build feature: the SPA comes from Vite's dev server, the API from the real server.
  vite = await createServer({
    configFile: path.resolve('vite.config.ts'),
    logLevel: 'warn',
    server: {
      host: '127.0.0.1',
      port,
      strictPort: true,
      proxy: { '/api': server.baseUrl, '/sandbox': server.baseUrl },
    },
  });
  await vite.listen();
  viteUrl = `http://127.0.0.1:${port}`;
  browser = await connectBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route('https://stately.ai/**', (route) => route.fulfill({ contentType: 'text/html', body: inspectorPage }));
  page = await context.newPage();
  const popup = context.waitForEvent('page', { timeout: 90_000 });
  await logIn(page, viteUrl, adminLogin, adminPassword, '/?inspect');
  inspector = await popup;
  await page.getByTestId('user-login').waitFor({ timeout: 60_000 });
});

afterAll(async () => {
  await browser?.close();
  await vite?.close();
});

interface Inspected {
  type: string;
  name?: string;
  sessionId?: string;
}

const inspectedActors = () =>
  inspector.evaluate(() => (window as unknown as { received: Inspected[] }).received.filter((event) => event.type === '@xstate.actor'));

it('opens the inspector with ?inspect and hands it the auth actor', async () => {
  await expect.poll(async () => (await inspectedActors()).map((actor) => actor.name)).toContain('auth');
});

it('hands every screen actor to the inspector under a readable name', async () => {
  for (const [screenPath, actors] of screens) {
    // wouter follows pushState, so the SPA (and its inspector) stay loaded between screens.
    await page.evaluate((to) => history.pushState(null, '', to), screenPath);
    await expect
      .poll(async () => (await inspectedActors()).map((actor) => actor.name), { message: `actors of ${screenPath}` })
      .toEqual(expect.arrayContaining(actors));
  }
  const unnamed = (await inspectedActors()).filter((actor) => !actor.name || actor.name === actor.sessionId);
  expect(unnamed).toEqual([]);
});
