import { constants } from 'node:zlib';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

export default defineConfig({
  plugins: [
    react(),
    // Precompressed once at build time; the server sends them with content-encoding (server/app.ts).
    compression({
      algorithms: [
        defineAlgorithm('gzip', { level: 9 }),
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      ],
      threshold: 1024,
    }),
  ],
  server: {
    proxy: {
      '/api': `http://127.0.0.1:${process.env.PORT || 3000}`,
      '/sandbox': `http://127.0.0.1:${process.env.PORT || 3000}`,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      // The catalog's sections do nothing when imported, so one a chunk does not read is not tied to
      // it through the catalog's index (src/lib/i18n/index.ts): the login page's start chunk went from
      // 102.7 to 87.7 KB (brotli) once they could stay in their screens' chunks.
      treeshake: { moduleSideEffects: (id: string) => !/src[\\/]lib[\\/]i18n[\\/]/.test(id) },
      output: {
        // Fewer, larger chunks (issue 40.10): the profile list came as about 50 files of a few hundred
        // bytes, and a phone on slow 4G over HTTP/1.1's six connections pays a round trip for every few
        // (docs/benchmarks.md, bench:lighthouse). rolldown.rs/reference/OutputOptions.codeSplitting.
        codeSplitting: {
          // A shared chunk under 24 KB (before minifying) is copied into each chunk that uses it rather
          // than fetched apart; the copies keep one module state (rolldown.rs/in-depth/inline-common-chunks).
          // The calendar week asks for 5 files instead of 7, the publish form for 9 instead of 14.
          experimentalInlineCommonChunks: { maxSize: 24576 },
          groups: [
            // The login page's whole static chain ('$initial': what the entry imports) in one file.
            { name: 'start', tags: ['$initial'], priority: 30 },
            // The menu with its bell and all they import, which every signed-in page draws.
            { name: 'shell', test: /src[\\/]components[\\/]sidebar\.tsx$/, priority: 20 },
          ],
        },
      },
    },
  },
});
