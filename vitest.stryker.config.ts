import { defineConfig } from 'vitest/config';

/**
 * What Stryker runs against each mutant: the machine tests and the server's pure modules' tests,
 * which need neither a DOM nor a server.
 */
export default defineConfig({
  test: {
    include: ['tests/machines/**/*.test.ts', 'tests/server/publication-plan.test.ts'],
    environment: 'node',
  },
});
