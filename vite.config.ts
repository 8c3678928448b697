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
  build: { outDir: 'dist', emptyOutDir: true },
});
