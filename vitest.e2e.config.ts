import { defineConfig } from 'vitest/config';

/**
 * expect.poll's own default gives up after 1 s (vitest.dev/config/expect): on CI's 2 busy cores a
 * screen's first paint beside two other files' renders took longer, and failed tests that were right.
 * The project's CI ran the same files up to four times slower than this machine does quietly (a walk
 * of 29 s here timed out at 120 s there; on one core here the longest walks took 122–160 s), so a
 * test gets 360 s and a poll 30 s before either counts as a failure; a passing test waits no longer.
 */
const browserFiles = {
  environment: 'node',
  // Each file imported Playwright, the harness and the server modules anew (about 20 s a project);
  // the files keep their state in their own module and share only the harness's token cache.
  isolate: false,
  testTimeout: 360_000,
  hookTimeout: 420_000,
  expect: { poll: { timeout: 30_000, interval: 100 } },
} as const;

/**
 * The files that start their own server: auth and sign-in-policy sign the admin out, spray the
 * address and change the admin's password; connections shortens every token's life; posting-caps
 * and calendar-planner cap Instagram at 2 posts a day; plan-import renders twenty videos two at a
 * time; post-truth and screens read the admin's view of a database holding only their own rows;
 * scale-out and startup-race run several processes and kill them. Every other file shares one
 * server and one Chromium (tests/e2e/shared-server.ts).
 */
const ownServer = [
  'tests/e2e/auth.test.ts',
  'tests/e2e/sign-in-policy.test.ts',
  'tests/e2e/connections.test.ts',
  'tests/e2e/posting-caps.test.ts',
  'tests/e2e/calendar-planner.test.ts',
  'tests/e2e/plan-import.test.ts',
  'tests/e2e/post-truth.test.ts',
  'tests/e2e/screens.test.ts',
  'tests/e2e/scale-out.test.ts',
  'tests/e2e/startup-race.test.ts',
];

/**
 * The shared files in three groups, each with a server and a Chromium of its own, so three run at
 * once without one's injected sandbox faults reaching another's posts. The first holds the two
 * longest files (publishing about 110 s, first-day about 90 s); the second names three of the rest;
 * the last takes every file not named anywhere, new ones included. In two groups (the clean CI run
 * of 4cdd8aa) the one holding all of today's second and third groups took 861 s of the browser
 * stage's 862 s; in three, measured on 2026-12-05 with the two cores saturated throughout, the
 * stage took 627 s, its groups' files 466 s (this first group without multi-drop), 532 s (the
 * second with multi-drop and stats-export: cancel-undo 259 s, stats-calendar 154 s) and 462 s. On
 * 2026-12-05 evening, on a quicker machine with the cores not always busy, this group was the
 * stage's last (299 s, the others 205–265 s): inspector and media went to the last group.
 */
const firstSharedGroup = [
  'tests/e2e/publishing.test.ts',
  'tests/e2e/first-day.test.ts',
  'tests/e2e/backoffice.test.ts',
  'tests/e2e/final-delete.test.ts',
  'tests/e2e/multi-drop.test.ts',
];

const secondSharedGroup = ['tests/e2e/stats-calendar.test.ts', 'tests/e2e/cancel-undo.test.ts', 'tests/e2e/alerts.test.ts'];

const sharedServerFiles = { globalSetup: 'tests/e2e/shared-server.ts', maxWorkers: 1, ...browserFiles } as const;

/**
 * `npm run test:e2e` runs the four projects as four Vitest processes side by side (Vitest runs a
 * one-worker project only after every other), so six files run at once on the 2-core machine:
 * most of a browser test's time goes on waiting for a render, a publish time or a retry (the whole
 * suite used under half a core on average).
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'browser', include: ownServer, maxWorkers: 3, ...browserFiles } },
      // One file at a time on each shared server: the sandbox's injected faults are the whole server's.
      { test: { name: 'browser-shared', include: firstSharedGroup, ...sharedServerFiles } },
      { test: { name: 'browser-shared-2', include: secondSharedGroup, ...sharedServerFiles } },
      {
        test: {
          name: 'browser-shared-3',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: [...ownServer, ...firstSharedGroup, ...secondSharedGroup],
          ...sharedServerFiles,
        },
      },
    ],
  },
});
