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
 * The shared files in two halves, each with a server and a Chromium of its own, so two run at once
 * without one's injected sandbox faults reaching the other's posts. This half holds the two longest
 * files (publishing about 110 s, first-day about 90 s); the other half takes every file not named
 * anywhere, new ones included. Measured: 220 s and 290 s of files before first-day moved here.
 */
const firstSharedHalf = [
  'tests/e2e/publishing.test.ts',
  'tests/e2e/first-day.test.ts',
  'tests/e2e/inspector.test.ts',
  'tests/e2e/media.test.ts',
  'tests/e2e/backoffice.test.ts',
  'tests/e2e/final-delete.test.ts',
];

const sharedServerFiles = { globalSetup: 'tests/e2e/shared-server.ts', maxWorkers: 1, ...browserFiles } as const;

/**
 * `npm run test:e2e` runs the three projects as three Vitest processes side by side (Vitest runs a
 * one-worker project only after every other), so five files run at once on the 2-core machine:
 * most of a browser test's time goes on waiting for a render, a publish time or a retry (the whole
 * suite used under half a core on average).
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'browser', include: ownServer, maxWorkers: 3, ...browserFiles } },
      // One file at a time on each shared server: the sandbox's injected faults are the whole server's.
      { test: { name: 'browser-shared', include: firstSharedHalf, ...sharedServerFiles } },
      {
        test: {
          name: 'browser-shared-2',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: [...ownServer, ...firstSharedHalf],
          ...sharedServerFiles,
        },
      },
    ],
  },
});
