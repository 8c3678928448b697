import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | null;
  }
}

/** Decides once per run whether server tests also run on Postgres, and says so. */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL || null;
  let reachable = false;
  if (url) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    reachable = await client
      .connect()
      .then(() => client.query('select 1'))
      .then(() => true)
      .catch(() => false);
    await client.end().catch(() => undefined);
  }
  if (!url) console.log('[server tests] TEST_DATABASE_URL is not set: running on PGlite only');
  else if (!reachable) console.log('[server tests] Postgres at TEST_DATABASE_URL is not answering: running on PGlite only');
  else console.log('[server tests] running on PGlite and on Postgres (TEST_DATABASE_URL)');
  project.provide('postgresUrl', reachable ? url : null);
}
