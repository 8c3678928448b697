import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const adminLogin = 'admin';
export const adminPassword = 'admin-e2e-password';
export const screenshotDir = path.resolve('test-results/screens');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * This process's environment without the NODE_ENV=test Vitest sets: inherited, it made `npm start`
 * build the SPA in development mode (React's dev runtime, 428 KB main chunk), which no operator runs.
 */
export function operatorEnvironment(): NodeJS.ProcessEnv {
  const { NODE_ENV: _vitestMode, ...environment } = process.env;
  return environment;
}

/** The real `npm start` on a free port with a temporary DATA_DIR, as an operator would run it. */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-e2e-'));
  let output = '';
  const child: ChildProcess = spawn('npm', ['start'], {
    env: {
      ...operatorEnvironment(),
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_LOGIN: adminLogin,
      ADMIN_PASSWORD: adminPassword,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`npm start did not become ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  return {
    baseUrl,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        process.kill(-child.pid!, 'SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
        if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      }
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, never a downloaded one. */
export const chromiumOptions = {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
};

export function launchBrowser(): Promise<Browser> {
  return chromium.launch(chromiumOptions);
}

/**
 * The server the files of the shared group all use (tests/e2e/shared-server.ts): each file makes
 * its own users and profiles there, and sees the others' only through an admin's eyes.
 */
export function sharedServer(): { baseUrl: string; proxyUrl: string } {
  return inject('sharedServer');
}

/** The shared group's Chromium: a file's contexts are its own, and closing the file's handle closes them. */
export function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject('sharedBrowser'));
}

export async function adminToken(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: adminLogin, password: adminPassword }),
  });
  if (!response.ok) throw new Error(`admin sign-in: ${response.status}`);
  return (await response.json()).accessToken;
}

/**
 * Plans the statistics sync now rather than at the cron's next minute (POST /sandbox/_sync-stats,
 * sandbox mode, an admin's call); the syncs it queues run on the worker a moment later.
 */
export async function syncStatsNow(baseUrl: string, token: string) {
  const response = await fetch(`${baseUrl}/sandbox/_sync-stats`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  if (response.status !== 202) throw new Error(`sync-stats: ${response.status} ${await response.text()}`);
}

/**
 * A user the admin makes on the shared server, for a file that reads lists as an operator does:
 * the user sees their own rows only, whatever the other files left there.
 */
export async function createOperator(baseUrl: string, login: string): Promise<{ login: string; password: string }> {
  const password = `${login}-password`;
  const created = await fetch(`${baseUrl}/api/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await adminToken(baseUrl)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ login, password, password_confirmation: password }),
  });
  if (created.status !== 201) throw new Error(`creating user ${login}: ${created.status} ${await created.text()}`);
  return { login, password };
}

export async function logIn(page: Page, baseUrl: string, login: string, password: string, path = '/') {
  await page.goto(`${baseUrl}${path}`);
  await page.getByLabel('Логін').fill(login);
  await page.getByLabel('Пароль').fill(password);
  await page.getByRole('button', { name: 'Увійти' }).click();
}

/** Keeps a screenshot of what the operator sees, for a person to look at (test-results/screens). */
export async function snapshot(page: Page, name: string) {
  await fs.mkdir(screenshotDir, { recursive: true });
  // A full-page capture keeps the scroll position, and the sticky menu would show where the page was scrolled to.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}
