import { defineConfig } from 'vitest/config';

/**
 * What Stryker runs against each mutant: the tests of the machines and of the pure modules beside
 * them (tests/machines/posting-rules.test.ts for src/lib/posting-rules), which need neither a DOM nor a server.
 */
export default defineConfig({
  test: {
    include: ['tests/machines/**/*.test.ts'],
    environment: 'node',
  },
});
