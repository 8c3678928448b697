import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../server/db/connect';
import { migrate } from '../server/db/migrate';
import { postgresAnswers } from './postgres-answers';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | null;
    /** A migrated Postgres database that each test's database is copied from. */
    postgresTemplate: string | null;
    /** A migrated PGlite data directory (a tar) that each test's PGlite loads. */
    pgliteTemplate: string;
  }
}

/**
 * Decides once per run whether server tests also run on Postgres, and says so; migrates one
 * database of each kind for the tests to copy, instead of running initdb and every migration
 * for each suite (2–3 s a PGlite on the 2-core machine, against under 1 s to load the copy).
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL || null;
  const reachable = await postgresAnswers(url);
  if (!url) console.log('[server tests] TEST_DATABASE_URL is not set: running on PGlite only');
  else if (!reachable) console.log('[server tests] Postgres at TEST_DATABASE_URL is not answering: running on PGlite only');
  else console.log('[server tests] running on PGlite and on Postgres (TEST_DATABASE_URL)');
  project.provide('postgresUrl', reachable ? url : null);

  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-test-templates-'));
  project.provide('pgliteTemplate', await migratedPglite(folder));
  const template = reachable ? await migratedPostgres(url!) : null;
  project.provide('postgresTemplate', template);

  return async () => {
    await fs.rm(folder, { recursive: true, force: true });
    if (template) await onPostgres(url!, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  };
}

async function migratedPglite(folder: string): Promise<string> {
  const dataDir = path.join(folder, 'data');
  const db = await connectDatabase({ dataDir });
  await migrate(db);
  await db.close();
  const pglite = await PGlite.create({ dataDir: path.join(dataDir, 'pglite') });
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const file = path.join(folder, 'pglite.tar');
  await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  return file;
}

async function migratedPostgres(adminUrl: string): Promise<string> {
  const name = `test_template_${crypto.randomBytes(6).toString('hex')}`;
  await onPostgres(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await connectDatabase({ databaseUrl: url.toString() });
  await migrate(db);
  await db.close();
  return name;
}

async function onPostgres(adminUrl: string, statement: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
