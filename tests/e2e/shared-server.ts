import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumOptions, freePort } from './harness';
import { startServerOnPostgres } from './processes';

declare module 'vitest' {
  export interface ProvidedContext {
    sharedServer: { baseUrl: string; proxyUrl: string };
    sharedBrowser: string;
  }
}

/**
 * One `npm start` and one Chromium for the shared group of browser files (vitest.e2e.config.ts),
 * instead of one of each per file: a boot costs 10–15 s on the 2-core machine. The settings are
 * every file's: statistics planned each minute and fresh posts due again within seconds, so a
 * test that asks for a sync (POST /sandbox/_sync-stats) reads figures that have grown, and
 * alerts grouped for 2 s rather than a minute, so a test reads its webhook's delivery at once.
 * Its rows are in a fresh database of the test Postgres when that answers (startServerOnPostgres).
 */
export default async function setup(project: TestProject) {
  const proxyPort = await freePort();
  const server = await startServerOnPostgres({
    RENDER_PRESET: 'ultrafast',
    STATS_INTERVAL: '1',
    STATS_FRESH_MINUTES: '0.05',
    ALERT_GROUP_SECONDS: '2',
    SANDBOX_PROXY_PORT: String(proxyPort),
  });
  const browser = await chromium.launchServer(chromiumOptions).catch(async (error) => {
    await server.stop();
    throw error;
  });
  project.provide('sharedServer', { baseUrl: server.baseUrl, proxyUrl: `http://127.0.0.1:${proxyPort}` });
  project.provide('sharedBrowser', browser.wsEndpoint());
  return async () => {
    await browser.close();
    await server.stop();
  };
}
