import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { authMachine, type AuthEvent, type AuthInput } from '../../src/machines/auth-machine';
import { sessionBridgeFor } from '../../src/machines/auth-session';
import { api, ApiError, connectSession } from '../../src/lib/api';
import type { LoginResponse, RefreshResponse, SessionUser } from '../../src/lib/contract';
import {
  activeStateIds,
  declaredTransitions,
  describePath,
  replayPath,
  stateIds,
  takenTransitions,
  transitionPaths,
  valueOf,
} from './model-paths';

const user: SessionUser = { id: 7, login: 'operator', role: 'user' };
const storedSession: AuthInput = { user, accessToken: 'access-stored', refreshToken: 'refresh-stored' };
const noSession: AuthInput = { user: null, accessToken: null, refreshToken: null };
const loginResponse: LoginResponse = { user, accessToken: 'access-login', refreshToken: 'refresh-login' };
const refreshResponse: RefreshResponse = { accessToken: 'access-refreshed', refreshToken: 'refresh-refreshed' };
const failure = new ApiError(401, ['Сесія завершилась, увійдіть знову']);

const actorIds = ['checkSession', 'logIn', 'refreshSession', 'logOut'] as const;
type ActorId = (typeof actorIds)[number];

/** A fixture for every event and every actor outcome; a new event or actor must be added here. */
const events: Array<AuthEvent | { type: `xstate.done.actor.${ActorId}`; output: unknown } | { type: `xstate.error.actor.${ActorId}`; error: unknown }> = [
  { type: 'login.submit', login: 'operator', password: 'secret-pass' },
  { type: 'session.unauthorized', accessToken: 'access-stored' },
  { type: 'session.unauthorized', accessToken: 'access-login' },
  { type: 'session.unauthorized', accessToken: 'an-older-token' },
  { type: 'logout' },
  { type: 'xstate.done.actor.checkSession', output: { user, accessToken: 'access-stored', refreshToken: 'refresh-stored' } },
  { type: 'xstate.error.actor.checkSession', error: failure },
  { type: 'xstate.done.actor.logIn', output: loginResponse },
  { type: 'xstate.error.actor.logIn', error: failure },
  { type: 'xstate.done.actor.refreshSession', output: refreshResponse },
  { type: 'xstate.error.actor.refreshSession', error: failure },
  { type: 'xstate.done.actor.logOut', output: undefined },
  { type: 'xstate.error.actor.logOut', error: failure },
];

const quietActions = {
  'toast authorized': () => {},
  'toast login failure': () => {},
  'toast logging out': () => {},
  'toast logged out': () => {},
};

// The toasts stay out of the model: the logout toast id is random and would split equal states.
const modelMachine = authMachine.provide({ actions: quietActions });

function pathsFrom(input: AuthInput) {
  return transitionPaths(modelMachine, { events, input });
}

describe('auth machine, model-based', () => {
  const allPaths = [...pathsFrom(storedSession), ...pathsFrom(noSession)];

  it('reaches every state and takes every declared transition', () => {
    const visited = new Set(allPaths.flatMap((path) => path.steps.flatMap((step) => activeStateIds(step.state))));
    expect(stateIds(authMachine).filter((id) => !visited.has(id))).toEqual([]);
    const taken = takenTransitions(allPaths);
    expect(declaredTransitions(authMachine).filter((transition) => !taken.has(transition))).toEqual([]);
  });

  it('starts by checking a stored session, and signed out without one', () => {
    expect(valueOf(pathsFrom(storedSession)[0].steps[0].state)).toBe('checking');
    expect(valueOf(pathsFrom(noSession)[0].steps[0].state)).toEqual({ signedOut: 'idle' });
  });

  for (const [label, input] of [
    ['with a stored session', storedSession],
    ['without a stored session', noSession],
  ] as const) {
    for (const path of pathsFrom(input)) {
      it(`${label}: ${describePath(path)}`, async () => {
        await replayPath(modelMachine, path, { input, actorIds });
      });
    }
  }
});

/** The real API client wired to a real auth actor; product calls answer 401 to every token but the fresh one. */
function signedInClient(refresh: () => Promise<RefreshResponse>) {
  const refreshCalls = vi.fn(refresh);
  const machine = authMachine.provide({
    actors: {
      checkSession: fromPromise(async () => ({ user, accessToken: 'access-stored', refreshToken: 'refresh-stored' })),
      refreshSession: fromPromise(() => refreshCalls()),
      logOut: fromPromise<void, { refreshToken: string | null }>(async () => {}),
    },
    actions: quietActions,
  });
  const actor = createActor(machine, { input: storedSession }).start();
  connectSession(sessionBridgeFor(actor));
  const seenTokens: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      const authorization = (init.headers as Record<string, string>).Authorization ?? '';
      seenTokens.push(authorization);
      const ok = authorization === `Bearer ${refreshResponse.accessToken}`;
      return new Response(JSON.stringify(ok ? { ok: true } : { statusCode: 401, message: 'expired' }), {
        status: ok ? 200 : 401,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return { actor, refreshCalls, seenTokens };
}

describe('auth machine journeys with the API client', () => {
  it('refreshes after a 401, retries once with the new token and keeps both rotated tokens', async () => {
    const { actor, refreshCalls, seenTokens } = signedInClient(async () => refreshResponse);
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: 'idle' }));
    await expect(api('GET', '/accounts')).resolves.toEqual({ ok: true });
    expect(refreshCalls).toHaveBeenCalledTimes(1);
    expect(seenTokens).toEqual(['Bearer access-stored', 'Bearer access-refreshed']);
    expect(actor.getSnapshot().context).toMatchObject({
      accessToken: 'access-refreshed',
      refreshToken: 'refresh-refreshed',
      user,
    });
  });

  it('logs out when the refresh fails, and the call fails with the 401', async () => {
    const { actor, refreshCalls } = signedInClient(async () => {
      throw failure;
    });
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: 'idle' }));
    await expect(api('GET', '/accounts')).rejects.toMatchObject({ status: 401 });
    expect(refreshCalls).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ user: null, accessToken: null, refreshToken: null });
  });

  it('makes exactly one refresh call for five parallel 401s, and all five calls succeed', async () => {
    let finishRefresh: (value: RefreshResponse) => void = () => {};
    const { actor, refreshCalls, seenTokens } = signedInClient(
      () => new Promise<RefreshResponse>((resolve) => (finishRefresh = resolve)),
    );
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: 'idle' }));
    const calls = Array.from({ length: 5 }, (_, index) => api('GET', `/accounts/${index}`));
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: 'refreshing' }));
    await vi.waitFor(() => expect(seenTokens.length).toBe(5));
    finishRefresh(refreshResponse);
    await expect(Promise.all(calls)).resolves.toEqual(Array(5).fill({ ok: true }));
    expect(refreshCalls).toHaveBeenCalledTimes(1);
    expect(seenTokens.filter((token) => token === 'Bearer access-refreshed')).toHaveLength(5);
  });

  it('replaces the logout loading toast with the success toast', async () => {
    const shown: string[] = [];
    const machine = authMachine.provide({
      actors: {
        logOut: fromPromise<void, { refreshToken: string | null }>(async () => {}),
        checkSession: fromPromise(async () => ({ user, accessToken: 'access-stored', refreshToken: 'refresh-stored' })),
      },
      actions: {
        'toast logging out': () => shown.push('loading'),
        'toast logged out': () => shown.push('logged out'),
      },
    });
    const actor = createActor(machine, { input: storedSession }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn'));
    actor.send({ type: 'logout' });
    await waitFor(actor, (snapshot) => snapshot.matches('signedOut'));
    expect(shown).toEqual(['loading', 'logged out']);
    expect(actor.getSnapshot().context).toMatchObject({ user: null, accessToken: null, refreshToken: null });
  });
});
