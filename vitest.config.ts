import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'machines', include: ['tests/machines/**/*.test.ts'], environment: 'node', maxWorkers: 2 },
      },
      {
        extends: true,
        test: {
          name: 'screens',
          include: ['tests/screens/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/screens/setup.ts'],
          // One worker a core: Vitest's default leaves one of the two idle.
          maxWorkers: 2,
          // Typing and clicking through whole screens in jsdom is slow on 2 busy cores: the publish
          // form's longest walk took 8.9 s beside one other suite and over 20 s beside two (2026-12-05).
          testTimeout: 45_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          globalSetup: ['tests/global-setup.ts'],
          environment: 'node',
          // Server files wait on sockets, ffmpeg and the database more than on the CPU: three at once
          // halved their wall time on the 2-core machine (1 240 s serial, 620 s) with every test passing.
          // Their own group, after the machines and screens, so jsdom's walks do not run beside them.
          maxWorkers: 3,
          // Each file imported the server anew, about 5 s a file on the busy machine; the files share no
          // module state (settings are handed down, not kept in modules), so a worker keeps its imports.
          isolate: false,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
