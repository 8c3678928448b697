import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
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
  /**
   * Like `sql`, for the hot statements of the paged lists, whose text is one of a few fixed forms:
   * Postgres keeps each parsed and planned on every pooled connection, where planning cost more
   * than running them. PGlite has no such cache to use; it runs them as `sql` does.
   */
  prepared: (text: string, values: unknown[]) => Promise<SqlResult>;
  /** Runs `work` inside BEGIN/COMMIT on a single connection. */
  transaction<T>(work: (sql: RunSql) => Promise<T>): Promise<T>;
  /**
   * Runs `work`'s reads in one read-only REPEATABLE READ transaction, so they all see the database
   * at the same moment: a page read in several statements cannot show a post's change in one and
   * not in the next. On PGlite it holds the one connection: `work` must read only through the
   * handle it is given.
   */
  snapshot<T>(work: (moment: Pick<Database, 'sql' | 'orm'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Postgres connection string; without it the embedded PGlite is used. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; `undefined` keeps them in memory (tests). */
  dataDir?: string;
  /**
   * A tar of a PGlite data directory (its `dumpDataDir()`) to start from: the tests' migrated
   * database, which loads in a third of the time initdb and the migrations take.
   */
  loadDataDir?: string;
}

export async function connectDatabase(options: ConnectOptions): Promise<Database> {
  return options.databaseUrl ? connectPostgres(options.databaseUrl) : connectPglite(options.dataDir, options.loadDataDir);
}

/** What drizzle's PGlite driver and our own calls use of a PGlite client, here answered by the worker. */
interface PgliteCalls {
  query(text: string, params?: unknown[], options?: { rowMode?: 'array' | 'object'; parsers?: object }): Promise<SqlResult>;
  exec(text: string): Promise<SqlResult[]>;
}

/**
 * PGlite in a worker thread (server/db/pglite-worker.mjs), so its queries never run on the
 * server's event loop. PGlite is one connection: a transaction keeps it from BEGIN to COMMIT, so no
 * other statement can land inside it.
 */
async function connectPglite(dataDir: string | undefined, loadDataDir: string | undefined): Promise<Database> {
  let dir: string | undefined;
  if (dataDir) {
    dir = path.join(dataDir, 'pglite');
    await fs.mkdir(dir, { recursive: true });
  }
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir: dir, loadDataDir } });
  const pending = new Map<number, { resolve: (value: any) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | undefined;
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', () => {
      worker.off('error', reject);
      resolve();
    });
  });
  worker.on('message', ({ id, result, error }) => {
    const call = pending.get(id)!;
    pending.delete(id);
    if (error) call.reject(Object.assign(new Error(error.message), error));
    else call.resolve(result);
  });
  worker.on('error', (error) => {
    failure = error;
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  });

  const send = (message: object): Promise<any> => {
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...message });
    });
  };
  const direct: PgliteCalls = {
    query: (text, params, options) =>
      send({ op: 'query', text, params, rowMode: options?.rowMode, rawDates: options?.parsers !== undefined }),
    exec: (text) => send({ op: 'exec', text }),
  };

  // A transaction waits for the one before it and keeps the turn until COMMIT. Statements outside
  // transactions go straight to the worker, which runs its messages in order, so it never idles
  // between them; while a transaction is open or waiting, they queue behind it instead.
  let turn: Promise<unknown> = Promise.resolve();
  let transactions = 0;
  function inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = turn.then(work, work);
    turn = run.catch(() => undefined);
    return run;
  }
  const outsideTransactions = <T>(work: () => Promise<T>): Promise<T> => (transactions === 0 ? work() : inTurn(work));
  const transaction = <T>(work: (calls: PgliteCalls) => Promise<T>, begin = 'BEGIN'): Promise<T> => {
    transactions += 1;
    return inTurn(() =>
      betweenBeginAndCommit(
        (statement) => direct.exec(statement),
        begin,
        () => work(direct),
      ),
    ).finally(() => {
      transactions -= 1;
    });
  };
  const client = {
    query: (...args: Parameters<PgliteCalls['query']>) => outsideTransactions(() => direct.query(...args)),
    exec: (text: string) => outsideTransactions(() => direct.exec(text)),
    transaction,
  };

  const runOn =
    (target: PgliteCalls): RunSql =>
    async (text, values) => {
      if (values && values.length > 0) return target.query(text, values);
      const results = await target.exec(text);
      return results[results.length - 1] ?? { rows: [] };
    };
  return {
    kind: 'pglite',
    // Drizzle's PGlite driver only calls query() and transaction(), which the worker client has.
    orm: drizzlePglite({ client: client as unknown as PGlite, schema }) as unknown as Orm,
    sql: runOn(client),
    prepared: (text, values) => client.query(text, values),
    transaction: (work) => transaction((calls) => work(runOn(calls))),
    snapshot: (work) =>
      transaction(
        (calls) => work({ sql: runOn(calls), orm: drizzlePglite({ client: calls as unknown as PGlite, schema }) as unknown as Orm }),
        snapshotBegin,
      ),
    async close() {
      await outsideTransactions(() => send({ op: 'close' }));
      await worker.terminate();
    },
  };
}

/** Runs `work` after `begin` and commits, or rolls back and rethrows if it throws: both drivers' transactions. */
async function betweenBeginAndCommit<T>(
  execute: (statement: string) => Promise<unknown>,
  begin: string,
  work: () => Promise<T>,
): Promise<T> {
  await execute(begin);
  try {
    const result = await work();
    await execute('COMMIT');
    return result;
  } catch (error) {
    await execute('ROLLBACK');
    throw error;
  }
}

/** postgresql.org/docs/current/transaction-iso.html#XACT-REPEATABLE-READ: every statement sees the snapshot of the first. */
const snapshotBegin = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

const statementNames = new Map<string, string>();

/** One name per statement text, the same on every connection, so each prepares it once. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `list_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

async function connectPostgres(databaseUrl: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // An idle connection can be cut by the server (a restart, an administrator). Unhandled, that
  // error would end the process; the pool drops the client and the next query opens a new one.
  pool.on('error', () => undefined);
  await pool.query('select 1');

  /** Runs `work` on one pooled connection between `begin` and COMMIT, rolled back if it throws. */
  async function onOneClient<T>(begin: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      return await betweenBeginAndCommit(
        (statement) => client.query(statement),
        begin,
        () => work(client),
      );
    } finally {
      client.release();
    }
  }

  return {
    kind: 'postgres',
    orm: drizzlePg({ client: pool, schema }) as unknown as Orm,
    sql: (text, values) => pool.query(text, values as unknown[] | undefined),
    prepared: (text, values) => pool.query({ name: statementName(text), text, values }),
    transaction: (work) => onOneClient('BEGIN', (client) => work((text, values) => client.query(text, values as unknown[] | undefined))),
    snapshot: (work) =>
      onOneClient(snapshotBegin, (client) =>
        work({
          sql: (text, values) => client.query(text, values as unknown[] | undefined),
          orm: drizzlePg({ client, schema }) as unknown as Orm,
        }),
      ),
    close: () => pool.end(),
  };
}
