import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { postgresAnswers } from '../postgres-answers';
import { freePort, operatorEnvironment, startServer, type RunningServer } from './harness';

/** The local Postgres the suite may use, or undefined (the tests that need it say so and skip). */
export const postgresUrl = process.env.TEST_DATABASE_URL || undefined;

/** A new, empty database on the test Postgres; `drop` removes it. */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `shorts_proc_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresUrl!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * `npm start` as startServer starts it, keeping its rows in a fresh database of the test Postgres
 * (DATABASE_URL) when that answers, as an operator who moved off the embedded PGlite runs it, and in
 * the embedded PGlite otherwise; the database is dropped when the server stops. Profiled on
 * 2026-12-05 (node --cpu-prof, the browser stage), a server's PGlite thread was busy a quarter of a
 * core (WebAssembly, its file system's fstat and lseek, the messages to the main thread), more than
 * the server's main thread, on the two cores Chromium needs.
 */
export async function startServerOnPostgres(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const database = (await postgresAnswers(postgresUrl)) ? await freshDatabase() : null;
  const server = await startServer({ ...extraEnv, ...(database ? { DATABASE_URL: database.url } : {}) }).catch(async (error) => {
    await database?.drop();
    throw error;
  });
  return {
    ...server,
    async stop() {
      await server.stop();
      await database?.drop();
    },
  };
}

export interface ServerProcess {
  role: 'all' | 'api' | 'worker';
  dataDir: string;
  /** The HTTP address for roles that serve one. */
  baseUrl: string | undefined;
  output: () => string;
  exited: () => boolean;
  /** Resolves once the process serves (api, all) or runs its queue handlers (worker). */
  ready: (timeoutMs?: number) => Promise<void>;
  kill: (signal?: NodeJS.Signals) => Promise<void>;
  /** Stops the process and removes its data directory. */
  stop: () => Promise<void>;
}

/**
 * One `server/main.ts` process in a role of its own, with its own DATA_DIR, as a second machine
 * would run it: whatever they share goes through `env` (DATABASE_URL, STORAGE_URL…).
 */
export async function startProcess(role: ServerProcess['role'], env: Record<string, string>): Promise<ServerProcess> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `shorts-${role}-`));
  const port = role === 'worker' ? undefined : await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', `--role=${role}`], {
    env: {
      ...operatorEnvironment(),
      HOST: '127.0.0.1',
      PORT: String(port ?? (await freePort())),
      SANDBOX_PROXY_PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ...env,
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const baseUrl = port === undefined ? undefined : `http://127.0.0.1:${port}`;

  async function kill(signal: NodeJS.Signals = 'SIGTERM') {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, signal);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  }

  return {
    role,
    dataDir,
    baseUrl,
    output: () => output,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    async ready(timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`${role} process exited with ${child.exitCode}:\n${output}`);
        const up = baseUrl
          ? await fetch(`${baseUrl}/readyz`).then(
              (response) => response.ok,
              () => false,
            )
          : output.includes('worker started');
        if (up) return;
        if (Date.now() > deadline) throw new Error(`${role} process did not become ready:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    kill,
    async stop() {
      await kill();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
