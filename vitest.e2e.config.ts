import { defineConfig } from 'vitest/config';

/**
 * expect.poll's own default gives up after 1 s (vitest.dev/config/expect): on CI's 2 busy cores a
 * screen's first paint beside two other files' renders took longer, and failed tests that were right.
 */
const browserFiles = {
  environment: 'node',
  testTimeout: 120_000,
  hookTimeout: 180_000,
  expect: { poll: { timeout: 15_000, interval: 100 } },
} as const;

/**
 * The files that start their own server: auth and sign-in-policy sign the admin out, spray the
 * address and change the admin's password; connections shortens every token's life; posting-caps
 * caps Instagram at 2 posts a day; post-truth and screens read the admin's view of a database
 * holding only their own rows; scale-out and startup-race run several processes and kill them.
 * Every other file shares one server and one Chromium (tests/e2e/shared-server.ts).
 */
const ownServer = [
  'tests/e2e/auth.test.ts',
  'tests/e2e/sign-in-policy.test.ts',
  'tests/e2e/connections.test.ts',
  'tests/e2e/posting-caps.test.ts',
  'tests/e2e/post-truth.test.ts',
  'tests/e2e/screens.test.ts',
  'tests/e2e/scale-out.test.ts',
  'tests/e2e/startup-race.test.ts',
];

/**
 * `npm run test:e2e` runs the two projects as two Vitest processes side by side (Vitest runs a
 * one-worker project only after every other), so three files run at once on the 2-core machine:
 * most of a browser test's time goes on waiting for a render, a publish time or a retry.
 */
export default defineConfig({
  test: {
    projects: [
      // Two at a time: post-truth spends three minutes waiting for a publish time beside the others' work.
      { test: { name: 'browser', include: ownServer, maxWorkers: 2, ...browserFiles } },
      {
        test: {
          name: 'browser-shared',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: ownServer,
          globalSetup: ['tests/e2e/shared-server.ts'],
          // One at a time on the shared server: the sandbox's injected faults are the whole server's.
          maxWorkers: 1,
          ...browserFiles,
        },
      },
    ],
  },
});
