import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './connect';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any fixed numbers work; they only have to be the same in every process, and differ from each other.
const migrationLockId = 4_718_205;
const startupLockId = 4_718_206;

/**
 * Runs a process's schema work (migrations, the queue's own schema) while no other process
 * does: processes started together against one Postgres wait here in turn instead of racing each
 * other's CREATEs. PGlite belongs to one process, so it needs no lock.
 */
export async function underStartupLock<T>(db: Database, work: () => Promise<T>): Promise<T> {
  if (db.kind !== 'postgres') return work();
  // The lock lives in a transaction on a connection of its own; `work` runs on the pool's others.
  return db.transaction(async (sql) => {
    await sql('SELECT pg_advisory_xact_lock($1)', [startupLockId]);
    return work();
  });
}

/**
 * Applies every not-yet-applied `migrations/*.sql` in name order, or those up to and including
 * `through` (a test that needs rows in an older shape). Safe to run from several processes at once.
 */
export async function migrate(db: Database, { through }: { through?: string } = {}): Promise<string[]> {
  const files = (await fs.readdir(migrationsDir))
    .filter((name) => name.endsWith('.sql') && (through === undefined || name <= through))
    .sort();
  return db.transaction(async (sql) => {
    if (db.kind === 'postgres') await sql('SELECT pg_advisory_xact_lock($1)', [migrationLockId]);
    // A column default, as in the migrations themselves: when a migration ran is the database's fact.
    // eslint-disable-next-line no-restricted-syntax
    await sql('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const { rows } = await sql('SELECT name FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.name as string));
    const fresh = files.filter((name) => !applied.has(name));
    for (const name of fresh) {
      await sql(await fs.readFile(path.join(migrationsDir, name), 'utf8'));
      await sql('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
    }
    return fresh;
  });
}
