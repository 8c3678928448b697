import { defineConfig } from 'vitest/config';

/**
 * What Stryker runs against each mutant: the tests of the machines and of the pure modules
 * (src/lib/posting-rules, server/services/publishing/publication-plan), which need neither a DOM nor a server.
 */
export default defineConfig({
  test: {
    include: ['tests/machines/**/*.test.ts', 'tests/server/publication-plan.test.ts'],
    environment: 'node',
  },
});
