/**
 * Calendar benchmark (issue 31.5): how long the calendar's week of 60 profiles × 21 posts (1 260,
 * every one scheduled and movable, a tenth held or tried again) takes to be drawn in a real
 * Chromium after its data arrives, against the floor: the same 1 260 entries, text and links in
 * seven columns, put on the page by plain DOM calls with no framework, no drag and drop and no
 * state. Against `npm start` (tests/e2e/harness.ts); the week's answer is the route's own shape,
 * handed to the page by Playwright the moment it asks, so the figure is the screen's alone.
 *
 * Each side is timed inside the page, from the answer in hand (the calendar: its fetch resolved;
 * the floor: the JSON text) to the second animation frame after the last entry is in the DOM (a
 * frame drawn with it). The calendar is opened from the menu, the app running (the goal, ≤ 200 ms,
 * is for this), and, printed beside it, by a reload of its page, where the app's code runs cold.
 * Three rounds, the sides interleaved.
 *
 *   npm run bench:calendar
 */
import type { Page } from 'playwright-core';
import { daysOf, kyivDay, kyivMomentOf } from '../src/lib/calendar';
import type { CalendarPost, CalendarRange, PlatformName, WaitKind } from '../src/lib/contract';
import { adminLogin, adminPassword, launchBrowser, logIn, startServer } from '../tests/e2e/harness';

const profiles = 60;
const postsPerDay = 3;
const rounds = 3;
const goalMs = 200;
const platforms: PlatformName[] = ['youtube', 'tiktok', 'instagram'];

/** This Kyiv week, each profile posting three times a day, a few minutes apart from the others. */
function weekOfPosts(): CalendarRange {
  const posts: CalendarPost[] = [];
  const days = daysOf('week', kyivDay(Date.now()));
  for (const day of days) {
    for (let profile = 1; profile <= profiles; profile++) {
      for (let slot = 0; slot < postsPerDay; slot++) {
        const id = posts.length + 1;
        const minutes = 9 * 60 + slot * 5 * 60 + (profile % 12) * 5;
        const clock = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
        const waitKind: WaitKind | null = id % 10 === 0 ? 'cap' : id % 15 === 0 ? 'retry' : null;
        posts.push({
          id,
          videoId: id,
          idUpload: '5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6',
          title: `Випуск ${id}`,
          platform: platforms[id % 3]!,
          state: waitKind === 'cap' ? 'held' : waitKind === 'retry' ? 'uploading' : 'scheduled',
          kind: waitKind,
          url: null,
          error: null,
          scheduledAt: kyivMomentOf(`${day}T${clock}`),
          account: { id: profile, title: `#${profile} Профіль ${profile}` },
          waitKind,
          waitReason: waitKind === 'cap' ? 'Ліміт Instagram 2 на добу' : waitKind === 'retry' ? 'Спроба не вдалася: тайм-аут' : null,
          changeable: true,
          cancellable: true,
        });
      }
    }
  }
  posts.sort((one, other) => one.scheduledAt.localeCompare(other.scheduledAt) || one.id - other.id);
  return {
    posts,
    truncated: false,
    sets: [],
    accounts: Array.from({ length: profiles }, (_, index) => ({ id: index + 1, title: `#${index + 1} Профіль ${index + 1}` })),
    groups: [],
    slots: null,
  };
}

declare global {
  interface Window {
    benchArrived?: number;
    benchDrawn?: number;
  }
}

/** Notes when the week's answer is in the page's hands, and when a frame has been drawn with every entry. */
function watchTheWeek(count: number) {
  const fetchOriginal = window.fetch;
  window.fetch = async (...args) => {
    const response = await fetchOriginal(...args);
    if (String(args[0]).includes('/api/calendar')) {
      window.benchArrived = performance.now();
      const observer = new MutationObserver(() => {
        if (document.querySelectorAll('[data-day] a').length < count) return;
        observer.disconnect();
        requestAnimationFrame(() => requestAnimationFrame(() => (window.benchDrawn = performance.now())));
      });
      observer.observe(document.body, { childList: true, subtree: true });
    }
    return response;
  };
}

/** The calendar opened from the menu, as an operator moves between screens (the app already running). */
async function timeCalendar(page: Page): Promise<number> {
  // A page behind another draws no frames: each side is timed in front.
  await page.bringToFront();
  const go = (to: string) =>
    page.evaluate((path) => {
      window.benchDrawn = undefined;
      history.pushState(null, '', path);
      dispatchEvent(new PopStateEvent('popstate'));
    }, to);
  await go('/');
  await page.getByRole('heading', { level: 1, name: 'Головна' }).waitFor();
  await go('/calendar');
  await page.waitForFunction(() => window.benchDrawn !== undefined, undefined, { timeout: 60_000 });
  return page.evaluate(() => window.benchDrawn! - window.benchArrived!);
}

/** The calendar opened by a reload of its page: the app starts cold, its code not yet compiled. */
async function timeColdCalendar(page: Page, baseUrl: string): Promise<number> {
  await page.bringToFront();
  await page.goto(`${baseUrl}/calendar`);
  await page.waitForFunction(() => window.benchDrawn !== undefined, undefined, { timeout: 60_000 });
  return page.evaluate(() => window.benchDrawn! - window.benchArrived!);
}

/** The floor: the same entries by plain DOM calls, from the JSON text to a drawn frame. */
async function timeFloor(page: Page, body: string): Promise<number> {
  await page.bringToFront();
  await page.setContent('<!doctype html><html lang="uk"><body><main></main></body></html>');
  return page.evaluate(
    (text) =>
      new Promise<number>((resolve) => {
        const started = performance.now();
        const range = JSON.parse(text) as { posts: { id: number; scheduledAt: string; platform: string; title: string }[] };
        const days = new Map<string, HTMLOListElement>();
        const grid = document.createElement('div');
        grid.style.cssText = 'display:grid;grid-template-columns:repeat(7,minmax(0,1fr));font:12px sans-serif';
        const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Kyiv' });
        const timeOf = new Intl.DateTimeFormat('uk-UA', { timeZone: 'Europe/Kyiv', hour: '2-digit', minute: '2-digit' });
        for (const post of range.posts) {
          const at = new Date(post.scheduledAt);
          const day = dayOf.format(at);
          let list = days.get(day);
          if (!list) {
            const cell = document.createElement('div');
            cell.dataset.day = day;
            list = document.createElement('ol');
            cell.append(list);
            grid.append(cell);
            days.set(day, list);
          }
          const item = document.createElement('li');
          const link = document.createElement('a');
          link.href = `/video/youtube/${post.id}`;
          link.textContent = `${timeOf.format(at)} ${post.platform}: ${post.title}`;
          item.append(link);
          list.append(item);
        }
        document.querySelector('main')!.append(grid);
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - started)));
      }),
    body,
  );
}

const median = (values: number[]) => [...values].sort((one, other) => one - other)[Math.floor(values.length / 2)]!;

async function main() {
  const week = weekOfPosts();
  const body = JSON.stringify(week);
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'uk-UA' });
    await context.addInitScript(watchTheWeek, week.posts.length);
    await context.route('**/api/calendar?*', (route) => route.fulfill({ status: 200, contentType: 'application/json', body }));
    const calendarPage = await context.newPage();
    await logIn(calendarPage, server.baseUrl, adminLogin, adminPassword, '/calendar');
    await calendarPage.waitForFunction(() => window.benchDrawn !== undefined, undefined, { timeout: 60_000 });
    const floorPage = await context.newPage();
    // One untimed run of each, so that neither side's first round pays for compiling its code.
    await timeFloor(floorPage, body);

    console.log(`calendar week: ${week.posts.length} posts over ${profiles} profiles, drawn in Chromium at 1440 px (goal ≤ ${goalMs} ms)`);
    const calendar: number[] = [];
    const floor: number[] = [];
    const cold: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      calendar.push(await timeCalendar(calendarPage));
      floor.push(await timeFloor(floorPage, body));
      cold.push(await timeColdCalendar(calendarPage, server.baseUrl));
      console.log(
        `  round ${round}: calendar from the menu ${calendar.at(-1)!.toFixed(0)} ms, floor ${floor.at(-1)!.toFixed(0)} ms, ` +
          `calendar / floor ${(calendar.at(-1)! / floor.at(-1)!).toFixed(2)}; after a reload ${cold.at(-1)!.toFixed(0)} ms`,
      );
    }
    const medianCalendar = median(calendar);
    console.log(
      `median: calendar ${medianCalendar.toFixed(0)} ms, floor ${median(floor).toFixed(0)} ms, ` +
        `calendar / floor ${(medianCalendar / median(floor)).toFixed(2)}, after a reload ${median(cold).toFixed(0)} ms; ` +
        `${medianCalendar <= goalMs ? 'within' : 'OVER'} the goal of ${goalMs} ms`,
    );
    if (medianCalendar > goalMs) process.exitCode = 1;
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
