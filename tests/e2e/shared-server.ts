import pg from 'pg';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumOptions, freePort, startServer } from './harness';
import { freshDatabase, postgresUrl } from './processes';

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
 *
 * With TEST_DATABASE_URL answering, the three shared servers keep their rows in a fresh database
 * of that Postgres (DATABASE_URL), as an operator who moved off the embedded one would run it; the
 * files with a server of their own keep the embedded PGlite. Profiled on 2026-12-05 (node
 * --cpu-prof, 30 min of the browser stage), each shared server's PGlite thread was busy a quarter
 * of a core (WebAssembly, its file system's fstat and lseek, the messages to the main thread),
 * more than the main thread, on the two cores Chromium needs.
 */
export default async function setup(project: TestProject) {
  const database = (await postgresAnswers()) ? await freshDatabase() : null;
  const proxyPort = await freePort();
  const server = await startServer({
    RENDER_PRESET: 'ultrafast',
    STATS_INTERVAL: '1',
    STATS_FRESH_MINUTES: '0.05',
    ALERT_GROUP_SECONDS: '2',
    SANDBOX_PROXY_PORT: String(proxyPort),
    ...(database ? { DATABASE_URL: database.url } : {}),
  }).catch(async (error) => {
    await database?.drop();
    throw error;
  });
  const browser = await chromium.launchServer(chromiumOptions).catch(async (error) => {
    await server.stop();
    await database?.drop();
    throw error;
  });
  project.provide('sharedServer', { baseUrl: server.baseUrl, proxyUrl: `http://127.0.0.1:${proxyPort}` });
  project.provide('sharedBrowser', browser.wsEndpoint());
  return async () => {
    await browser.close();
    await server.stop();
    await database?.drop();
  };
}

async function postgresAnswers(): Promise<boolean> {
  if (!postgresUrl) return false;
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
  const answered = await client
    .connect()
    .then(() => client.query('SELECT 1'))
    .then(
      () => true,
      () => false,
    );
  await client.end().catch(() => undefined);
  return answered;
}
