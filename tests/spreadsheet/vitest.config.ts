import { defineConfig } from 'vitest/config';

/**
 * `npm run test:spreadsheet`: the statistics export opened by LibreOffice Calc (issue 42.5). Apart
 * from `npm test`: LibreOffice is a large install and a slow start, which CI's 15 minutes have no
 * room for. Run from the repository's root, as npm runs it.
 */
export default defineConfig({
  test: {
    name: 'spreadsheet',
    include: ['tests/spreadsheet/**/*.test.ts'],
    // LibreOffice first: without it nothing here can run, and the run says so before any database starts.
    globalSetup: ['tests/spreadsheet/require-libreoffice.ts', 'tests/global-setup.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
