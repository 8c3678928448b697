/**
 * Lighthouse benchmark (issue 40.10): the performance score a phone gets, as Lighthouse 12 reckons
 * it with its default mobile settings (a Moto G Power's screen, simulated slow 4G and a 4× slower
 * CPU), on four pages of `npm start`: the login page, and signed in the profile list, the publish
 * form and the calendar's week. The server is seeded through its API first: 30 profiles, a request
 * of 12 rendered videos published over 12 of them this week and next, and one rendered request of 4
 * left to publish.
 *
 * The baseline, in the same run: the login page as a static page — the HTML the login screen
 * renders, with its styles and no script — served by this process, so the ratio says what the
 * app's JavaScript costs against the same pixels without it. Each page is measured `runs` times,
 * in the order login, floor, the three signed-in pages, with the HTTP cache emptied before each
 * (a cold visit), keeping the sign-in in localStorage.
 *
 *   npm run bench:lighthouse
 *   BENCH_LIGHTHOUSE_RUNS=5 npm run bench:lighthouse
 *   BENCH_LIGHTHOUSE_REPORTS=/tmp/lh npm run bench:lighthouse   (keeps each run's report, to read in Lighthouse's viewer)
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { kyivWallTime } from '../src/lib/kyiv-time';
import { emptyAccountForm } from '../src/lib/schemas';
import { runTool } from '../server/media/tools';
import { makeClip, testTools } from '../tests/fixtures/media';
import {
  adminLogin,
  adminPassword,
  adminToken,
  apiBodies,
  chromiumOptions,
  createRequest,
  freePort,
  logIn,
  startServer,
  videosToPublish,
  type ApiBodies,
  type RequestUpload,
} from '../tests/e2e/harness';

const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const reportDir = process.env.BENCH_LIGHTHOUSE_REPORTS;
const goal = 95;
const profileCount = 30;
const publishedVideos = 12;

interface Audit {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A request rendered through the real ffmpeg, polled as the request list does (the harness's own wait needs Vitest). */
async function renderedRequest(api: ApiBodies, upload: RequestUpload) {
  const idUpload = await createRequest(api, upload);
  for (const deadline = Date.now() + 300_000; Date.now() < deadline;) {
    const detail = await api(`/api/create-video/request/${idUpload}`);
    if (detail.status === 'success') return { idUpload, detail };
    if (detail.status !== 'loading') throw new Error(`render failed: ${JSON.stringify(detail.error)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`request ${idUpload} still rendering after 5 minutes`);
}

/** The server with its profiles and requests, made as an operator's script would through the API. */
async function seededServer(mediaDir: string) {
  const tools = testTools();
  const image = path.join(mediaDir, 'background.png');
  const clip = path.join(mediaDir, 'clip.mp4');
  const proxyPort = await freePort();
  const [server] = await Promise.all([
    startServer({ RENDER_PRESET: 'ultrafast', SANDBOX_PROXY_PORT: String(proxyPort) }),
    runTool(tools.ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x0f766e:s=720x1280', '-frames:v', '1', image], 60_000),
    makeClip(tools, clip, { seconds: 4 }),
  ]);
  const token = await adminToken(server.baseUrl);
  const api = apiBodies(server.baseUrl, () => token);
  const profiles: { id: number; title: string; value: number }[] = [];
  for (let n = 1; n <= profileCount; n++) {
    const { id } = await api<{ id: number }>('/api/accounts', {
      json: {
        ...emptyAccountForm,
        proxy: `http://127.0.0.1:${proxyPort}`,
        comments: `Профіль ${n}: кулінарія й подорожі`,
        isActiveInstagram: true,
        InstagramLogin: `bench.profile.${n}`,
        InstagramPassword: 'instagram-password',
      },
    });
    profiles.push({ id, title: `#${id} Профіль ${n}`, value: id });
  }
  const images = new FormData();
  images.append('files', new Blob([await fs.readFile(image)], { type: 'image/png' }), 'background.png');
  const photoIds = (await api('/api/photo-bg', { form: images })).data.map((photo: { id: number }) => photo.id);

  const published = await renderedRequest(api, { clip, photoIds, count: publishedVideos });
  const now = Date.now();
  await api(`/api/upload-video/${published.idUpload}`, {
    json: {
      title: 'Тиждень профілів',
      description: '',
      tags: ['кухня'],
      accounts: profiles.slice(0, publishedVideos),
      video: videosToPublish(published.idUpload, published.detail).map((video, index) => ({
        ...video,
        account: profiles[index]!,
        // Every 9 hours from an hour on: this week's days and the next's.
        date: kyivWallTime(now + (1 + 9 * index) * 3_600_000),
      })),
      inYouTube: false,
      inTikTok: false,
      inInstagram: true,
      date: null,
    },
  });
  const toPublish = await renderedRequest(api, { clip, photoIds, count: 4 });
  return { server, publishForm: `/video/request/${toPublish.idUpload}` };
}

/** The login screen as the browser drew it, its scripts taken out: the same pixels with no JavaScript. */
async function staticLoginPage(baseUrl: string) {
  const browser = await chromium.launch(chromiumOptions);
  try {
    const page = await browser.newPage();
    await page.goto(baseUrl);
    await page.getByLabel('Логін').waitFor();
    const html = (await page.content())
      .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
      .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/g, '');
    return html;
  } finally {
    await browser.close();
  }
}

/** Serves the floor page at `/`, and anything else (its styles, fonts) from the app's server. */
function floorServer(html: string, appBaseUrl: string): Promise<{ url: string; close: () => void }> {
  const server = http.createServer(async (request, response) => {
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
      return;
    }
    const upstream = await fetch(`${appBaseUrl}${request.url}`, { headers: { 'accept-encoding': 'identity' } });
    response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream' });
    response.end(Buffer.from(await upstream.arrayBuffer()));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => server.close() });
    }),
  );
}

async function audit(name: string, url: string, port: number, emptyCache: () => Promise<void>): Promise<Audit> {
  await emptyCache();
  // Lighthouse's own reset would also clear localStorage, where the sign-in lives; the cache is emptied above instead.
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    disableStorageReset: true,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  if (reportDir) {
    await fs.mkdir(reportDir, { recursive: true });
    await fs.writeFile(path.join(reportDir, `${name.replace(/\W+/g, '-')}-${Date.now()}.json`), JSON.stringify(lhr));
  }
  const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    si: value('speed-index'),
  };
}

function row(name: string, audits: Audit[], floor?: number) {
  const pick = (key: keyof Audit) => median(audits.map((item) => item[key]));
  const score = pick('score');
  return (
    `| ${name} | ${audits.map((item) => item.score).join(', ')} | **${score}** | ${floor ? (score / floor).toFixed(2) : '—'} | ` +
    `${Math.round(pick('fcp'))} | ${Math.round(pick('lcp'))} | ${Math.round(pick('tbt'))} | ${pick('cls').toFixed(3)} | ${Math.round(pick('si'))} |`
  );
}

async function main() {
  const mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-bench-lighthouse-'));
  const { server, publishForm } = await seededServer(mediaDir);
  const floor = await floorServer(await staticLoginPage(server.baseUrl), server.baseUrl);
  const chrome = await chromeLauncher.launch({ chromePath: chromiumOptions.executablePath, chromeFlags: chromiumOptions.args });
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const problems: string[] = [];
  try {
    const context = browser.contexts()[0]!;
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    const emptyCache = async () => void (await cdp.send('Network.clearBrowserCache'));
    const measured: [string, Audit[]][] = [];
    const measure = async (name: string, url: string) => {
      const audits: Audit[] = [];
      for (let run = 0; run < runs; run++) audits.push(await audit(name, url, chrome.port, emptyCache));
      measured.push([name, audits]);
      console.log(`  ${name}: ${audits.map((item) => item.score).join(', ')}`);
    };

    console.log(`Lighthouse ${runs} runs a page, mobile defaults; ${profileCount} profiles, ${publishedVideos} posts planned`);
    await measure('login page', `${server.baseUrl}/`);
    await measure('floor: the login page, static', floor.url);
    await logIn(page, server.baseUrl, adminLogin, adminPassword);
    await page.getByRole('navigation').first().waitFor();
    await measure('profile list', `${server.baseUrl}/accounts/list`);
    await measure('publish form', `${server.baseUrl}${publishForm}`);
    await measure('calendar week', `${server.baseUrl}/calendar`);

    const floorScore = median(measured[1]![1].map((item) => item.score));
    console.log('\n| page | scores | median | / floor | FCP ms | LCP ms | TBT ms | CLS | SI ms |');
    console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const [name, audits] of measured) console.log(row(name, audits, name.startsWith('floor') ? undefined : floorScore));
    for (const [name, audits] of measured) {
      const score = median(audits.map((item) => item.score));
      if (!name.startsWith('floor') && score < goal) problems.push(`${name}: ${score} is under ${goal}`);
    }
  } finally {
    await browser.close();
    chrome.kill();
    floor.close();
    await server.stop();
    await fs.rm(mediaDir, { recursive: true, force: true });
  }
  console.log(problems.length === 0 ? `\nevery page at ${goal} or more` : `\nproblems:\n  ${problems.join('\n  ')}`);
  if (problems.length > 0) process.exitCode = 1;
}

await main();
