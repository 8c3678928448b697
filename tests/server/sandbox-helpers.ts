import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { googleOAuthSandbox } from '../../server/sandbox/youtube/oauth';
import { registerSandbox, SandboxState, type SandboxOptions } from '../../server/sandbox/index';

export interface SandboxEnv {
  app: FastifyInstance;
  state: SandboxState;
  clock: { now: number };
  /** http://127.0.0.1:port/sandbox */
  base: string;
}

/**
 * The emulator alone has no users: its controls take this header where the app asks for an admin,
 * so a test reaches them only through `control` and a platform stand-in called without it shows
 * that it stayed open.
 */
const rigAdmin = 'Bearer sandbox-rig-admin';

/**
 * The sandbox alone, listening on a port (consent pages are answered over real HTTP, as a
 * browser would), with a clock the test moves instead of sleeping.
 */
export function useSandbox(options: Omit<SandboxOptions, 'now'> = {}): () => SandboxEnv {
  let env: SandboxEnv | undefined;
  beforeAll(async () => {
    const clock = { now: Date.parse('2026-11-22T10:00:00Z') };
    const state = new SandboxState({ ...options, now: () => clock.now });
    const app = Fastify();
    await app.register(googleOAuthSandbox, { prefix: '/sandbox', key: crypto.randomBytes(32), now: state.now });
    await registerSandbox(app, {
      state,
      guardControls: async (request) => {
        if (request.headers.authorization !== rigAdmin)
          throw Object.assign(new Error('The sandbox controls are an admin’s'), { statusCode: 401 });
      },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    env = { app, state, clock, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/sandbox` };
  });
  afterAll(async () => {
    await env?.app.close();
  });
  return () => env!;
}

/** A control route of the emulator (`/_posts`, `/_calls`, `/_faults`, `/_revoke`, `/_telegram`…) as its admin calls it. */
export function control(env: SandboxEnv, route: string, init: RequestInit = {}) {
  return fetch(`${env.base}${route}`, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: rigAdmin } });
}

/**
 * The sandbox's requests after the first `since`, without its Telegram bot's: a suite whose queue
 * works runs the alert worker, which asks the bot (getMe, getUpdates) on a schedule of its own.
 */
export function platformRequestsSince(state: SandboxState, since: number) {
  return state.requests.slice(since).filter((entry) => !entry.url.startsWith('/sandbox/api.telegram.org/'));
}

export const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
});

export const jsonPost = (body: unknown, token?: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
});

export const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
