import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index';

export type Orm = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface SqlResult {
  rows: any[];
}

/** Raw SQL on one connection. Without values, `text` may hold several statements. */
export type RunSql = (text: string, values?: unknown[]) => Promise<SqlResult>;

export interface Database {
  kind: 'pglite' | 'postgres';
  orm: Orm;
  sql: RunSql;
  /** Runs `work` inside BEGIN/COMMIT on a single connection. */
  transaction<T>(work: (sql: RunSql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Postgres connection string; without it the embedded PGlite is used. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; `undefined` keeps them in memory (tests). */
  dataDir?: string;
}

export async function connectDatabase(options: ConnectOptions): Promise<Database> {
  return options.databaseUrl ? connectPostgres(options.databaseUrl) : connectPglite(options.dataDir);
}

async function connectPglite(dataDir: string | undefined): Promise<Database> {
  let client: PGlite;
  if (dataDir) {
    const dir = path.join(dataDir, 'pglite');
    await fs.mkdir(dir, { recursive: true });
    client = await PGlite.create(dir);
  } else {
    client = await PGlite.create();
  }
  const runOn =
    (target: Pick<PGlite, 'query' | 'exec'>): RunSql =>
    async (text, values) => {
      if (values && values.length > 0) return target.query(text, values);
      const results = await target.exec(text);
      return results[results.length - 1] ?? { rows: [] };
    };
  return {
    kind: 'pglite',
    orm: drizzlePglite({ client, schema }) as unknown as Orm,
    sql: runOn(client),
    transaction: (work) => client.transaction((tx) => work(runOn(tx))),
    close: () => client.close(),
  };
}

async function connectPostgres(databaseUrl: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // An idle connection can be cut by the server (a restart, an administrator). Unhandled, that
  // error would end the process; the pool drops the client and the next query opens a new one.
  pool.on('error', () => undefined);
  await pool.query('select 1');
  return {
    kind: 'postgres',
    orm: drizzlePg({ client: pool, schema }) as unknown as Orm,
    sql: (text, values) => pool.query(text, values as unknown[] | undefined),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work((text, values) => client.query(text, values as unknown[] | undefined));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
