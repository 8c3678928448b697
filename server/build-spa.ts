import fs from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';

const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'];

async function newestChange(entry: string): Promise<number> {
  const stat = await fs.stat(entry).catch(() => null);
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  const children = await fs.readdir(entry);
  const times = await Promise.all(children.map((child) => newestChange(path.join(entry, child))));
  return Math.max(stat.mtimeMs, ...times);
}

async function isStale(root: string, distDir: string): Promise<boolean> {
  const builtAt = await newestChange(path.join(distDir, 'index.html'));
  const changedAt = Math.max(...(await Promise.all(sources.map((entry) => newestChange(path.join(root, entry))))));
  return builtAt <= changedAt;
}

/**
 * Builds the SPA into `dist/` when it is missing or older than its sources, so `npm start` is enough.
 * Several processes starting at once in one folder (an API and workers, or test servers) build in
 * turn: vite empties `dist/` before writing it, and a server reading it meanwhile served a page
 * whose scripts were gone. The lock is a folder beside `dist/` (proper-lockfile's mkdir lock, its
 * mtime kept fresh while held, so a crashed builder's lock goes stale after 30 s).
 */
export async function buildSpaIfStale(root: string, log: (message: string) => void): Promise<string> {
  const distDir = path.join(root, 'dist');
  if (!(await isStale(root, distDir))) return distDir;
  const release = await lockfile.lock(root, {
    lockfilePath: path.join(root, 'dist.build-lock'),
    stale: 30_000,
    // A build takes up to a minute or two on a busy 2-core machine: wait up to five.
    retries: { retries: 300, minTimeout: 1000, maxTimeout: 1000 },
  });
  try {
    // Another process may have built it while this one waited.
    if (await isStale(root, distDir)) {
      log('building the web app (vite build)…');
      const { build } = await import('vite');
      await build({ root, logLevel: 'warn' });
    }
  } finally {
    await release();
  }
  return distDir;
}
