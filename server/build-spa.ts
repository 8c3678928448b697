import fs from 'node:fs/promises';
import path from 'node:path';

const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'];

async function newestChange(entry: string): Promise<number> {
  const stat = await fs.stat(entry).catch(() => null);
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  const children = await fs.readdir(entry);
  const times = await Promise.all(children.map((child) => newestChange(path.join(entry, child))));
  return Math.max(stat.mtimeMs, ...times);
}

/** Builds the SPA into `dist/` when it is missing or older than its sources, so `npm start` is enough. */
export async function buildSpaIfStale(root: string, log: (message: string) => void): Promise<string> {
  const distDir = path.join(root, 'dist');
  const builtAt = await newestChange(path.join(distDir, 'index.html'));
  const changedAt = Math.max(...(await Promise.all(sources.map((entry) => newestChange(path.join(root, entry))))));
  if (builtAt > changedAt) return distDir;
  log('building the web app (vite build)…');
  const { build } = await import('vite');
  await build({ root, logLevel: 'warn' });
  return distDir;
}
