/**
 * Bundle benchmark: what a real Chromium downloads. Against `npm start` (tests/e2e/harness.ts), it
 * loads the login screen three times in fresh browser contexts and sums the JavaScript bytes over
 * the wire (compressed, as sent), then signs in and visits every screen of the sidebar by client
 * navigation, recording which chunks each visit fetches: no screen's chunk may arrive before its
 * screen is visited, react-dropzone only with the upload screens, the statistics chart (uPlot)
 * with none of them, and the menu with its bell only once signed in.
 *
 *   npm run bench:bundle
 */
import type { Page, Response } from 'playwright-core';
import { adminLogin, adminPassword, launchBrowser, logIn, startServer } from '../tests/e2e/harness';

const budgetKb = 115;
/** The login screen of this stack with nothing else, as measured for issue 10 (not re-measured here). */
const floorKb = 107.8;
const loads = 3;

/** Each routed screen and the chunk Vite names after its module. */
const screens: [string, string][] = [
  ['/video/list', 'upload-list-screen'],
  ['/video/request-create', 'request-list-screen'],
  ['/video/create', 'create-video-screen'],
  ['/photos/list', 'photo-list-screen'],
  ['/photos/create', 'photo-upload-screen'],
  ['/accounts/list', 'account-list-screen'],
  ['/accounts/create', 'account-create-screen'],
  ['/accounts/group/list', 'group-list-screen'],
  ['/accounts/group/create', 'group-form-screen'],
  ['/tags', 'tag-list-screen'],
  ['/tags/create', 'tag-form-screen'],
  ['/users', 'user-list-screen'],
  ['/users/create', 'user-form-screen'],
  ['/setting', 'settings-screen'],
  ['/calendar', 'calendar-screen'],
];
const uploadScreens = new Set(['/video/create', '/photos/create']);

interface Fetched {
  url: string;
  bytes: number;
  encoding: string;
  cacheControl: string;
  isDropzone: boolean;
}

/** Records every script the page fetches from now on. */
function recordScripts(page: Page): Fetched[] {
  const fetched: Fetched[] = [];
  page.on('response', (response: Response) => {
    if (response.request().resourceType() !== 'script') return;
    void (async () => {
      const [sizes, headers, body] = await Promise.all([response.request().sizes(), response.allHeaders(), response.text()]);
      fetched.push({
        url: new URL(response.url()).pathname,
        bytes: sizes.responseBodySize,
        encoding: headers['content-encoding'] ?? 'none',
        cacheControl: headers['cache-control'] ?? '',
        // A message of react-dropzone's own that minifying keeps.
        isDropzone: body.includes('File is larger than'),
      });
    })();
  });
  return fetched;
}

const chunkName = (url: string) => url.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, '');
/** uPlot comes with the chart's own chunk, which only the set and profile screens ask for. */
const isChart = (item: Fetched) => chunkName(item.url) === 'stats-chart';
const screenChunks = (fetched: Fetched[]) => fetched.map((item) => chunkName(item.url)).filter((name) => name.endsWith('-screen'));

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(200);
}

async function main() {
  const server = await startServer();
  const browser = await launchBrowser();
  const problems: string[] = [];
  try {
    console.log(`login screen, JavaScript over the wire (budget ${budgetKb} KB; the stack's floor ${floorKb} KB)`);
    for (let load = 1; load <= loads; load++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const fetched = recordScripts(page);
      const index = await page.goto(server.baseUrl);
      await page.getByLabel('Логін').waitFor();
      await settle(page);
      const kb = fetched.reduce((sum, item) => sum + item.bytes, 0) / 1024;
      console.log(
        `  load ${load}: ${kb.toFixed(1)} KB in ${fetched.length} scripts (${[...new Set(fetched.map((item) => item.encoding))].join(', ')}), ` +
          `${(kb / floorKb).toFixed(2)} × the floor, ${(kb / budgetKb).toFixed(2)} × the budget`,
      );
      if (kb > budgetKb) problems.push(`load ${load}: ${kb.toFixed(1)} KB is over ${budgetKb} KB`);
      if (screenChunks(fetched).length > 0) problems.push(`the login screen fetched ${screenChunks(fetched).join(', ')}`);
      if (fetched.some((item) => item.isDropzone)) problems.push('the login screen fetched react-dropzone');
      if (fetched.some(isChart)) problems.push('the login screen fetched the statistics chart (uPlot)');
      if (fetched.some((item) => chunkName(item.url) === 'sidebar')) problems.push('the login screen fetched the menu (sidebar)');
      if (fetched.some((item) => !item.cacheControl.includes('immutable'))) problems.push('an asset is not served immutable');
      if (load === 1) console.log(`  index.html: cache-control ${(await index!.allHeaders())['cache-control']}`);
      await context.close();
    }

    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await logIn(page, server.baseUrl, adminLogin, adminPassword);
    await page.getByRole('navigation').first().waitFor();
    await settle(page);
    console.log('\nscreens visited by client navigation after signing in: chunks each visit fetched');
    for (const [route, chunk] of screens) {
      const fetched = recordScripts(page);
      await page.evaluate((to) => {
        history.pushState(null, '', to);
        dispatchEvent(new PopStateEvent('popstate'));
      }, route);
      await settle(page);
      const shown = await page
        .locator('main h1, main h2')
        .first()
        .waitFor({ timeout: 10_000 })
        .then(
          () => true,
          () => false,
        );
      if (!shown) problems.push(`${route} shows no screen`);
      const names = fetched.map(
        (item) => `${chunkName(item.url)} ${(item.bytes / 1024).toFixed(1)} KB${item.isDropzone ? ' (react-dropzone)' : ''}`,
      );
      console.log(`  ${route.padEnd(24)} ${names.join(', ') || '(nothing new)'}`);
      const others = screenChunks(fetched).filter((name) => name !== chunk);
      if (others.length > 0) problems.push(`${route} fetched other screens' chunks: ${others.join(', ')}`);
      if (fetched.some((item) => item.isDropzone) && !uploadScreens.has(route)) problems.push(`${route} fetched react-dropzone`);
      if (fetched.some(isChart)) problems.push(`${route} fetched the statistics chart (uPlot)`);
      page.removeAllListeners('response');
    }
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log(problems.length === 0 ? '\nall checks passed' : `\nproblems:\n  ${problems.join('\n  ')}`);
  if (problems.length > 0) process.exitCode = 1;
}

await main();
