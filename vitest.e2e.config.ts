import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'browser',
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    // One server and one browser at a time: the suite drives a real `npm start` on 2 cores.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
