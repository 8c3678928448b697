import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import toast from 'react-hot-toast';
import { createActor, fromPromise, toPromise, waitFor } from 'xstate';
import { authMachine, checkStoredSession, type AuthInput } from '../../src/machines/auth-machine';
import { publishDrafts } from '../../src/machines/publish-draft-store';
import { isAuthLoading, sessionBridgeFor, startAuth, toStoredAuth } from '../../src/machines/auth-session';
import { connectInspector, inspector } from '../../src/machines/inspector';
import { deferredActors } from './deferred-actors';
import { api, ApiError, connectSession } from '../../src/lib/api';
import type { RefreshResponse, SessionUser } from '../../src/lib/contract';
const user: SessionUser = { id: 7, login: 'operator', role: 'user' };
const storedSession: AuthInput = { user, accessToken: 'access-stored', refreshToken: 'refresh-stored' };
const noSession: AuthInput = { user: null, accessToken: null, refreshToken: null };
const refreshResponse: RefreshResponse = { accessToken: 'access-refreshed', refreshToken: 'refresh-refreshed' };
const failure = new ApiError(401, ['Сесія завершилась, увійдіть знову']);

const quietActions = {
  'toast authorized': () => {},
  'toast login failure': () => {},
  'toast logging out': () => {},
  'toast logged out': () => {},
};

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
    const { actor, refreshCalls, seenTokens } = signedInClient(() => new Promise<RefreshResponse>((resolve) => (finishRefresh = resolve)));
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

  it('forgets the publish drafts on signing out', async () => {
    publishDrafts.trigger.keep({ key: '7/request', draft: { fields: undefined } });
    const machine = authMachine.provide({
      actors: {
        logOut: fromPromise<void, { refreshToken: string | null }>(async () => {}),
        checkSession: fromPromise(async () => ({ user, accessToken: 'access-stored', refreshToken: 'refresh-stored' })),
      },
      actions: quietActions,
    });
    const actor = createActor(machine, { input: storedSession }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn'));
    expect(Object.keys(publishDrafts.getSnapshot().context.drafts)).toEqual(['7/request']);
    actor.send({ type: 'logout' });
    await waitFor(actor, (snapshot) => snapshot.matches('signedOut'));
    await vi.waitFor(() => expect(publishDrafts.getSnapshot().context.drafts).toEqual({}));
  });

  it('ignores a 401 for a token already replaced: the caller retries with the new one, no second refresh', async () => {
    const { actor, refreshCalls } = signedInClient(async () => refreshResponse);
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: 'idle' }));
    await api('GET', '/accounts');
    actor.send({ type: 'session.unauthorized', accessToken: 'access-stored' });
    expect(actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(refreshCalls).toHaveBeenCalledTimes(1);
  });

  it('a 401 arriving after a refresh, for the fresh token, refreshes again', async () => {
    const second: RefreshResponse = { accessToken: 'access-second', refreshToken: 'refresh-second' };
    const refreshes = [refreshResponse, second];
    const { actor, refreshCalls } = signedInClient(async () => refreshes.shift()!);
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: 'idle' }));
    await api('GET', '/accounts');
    actor.send({ type: 'session.unauthorized', accessToken: refreshResponse.accessToken });
    await waitFor(actor, (snapshot) => snapshot.context.accessToken === second.accessToken);
    expect(refreshCalls).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().context.refreshToken).toBe(second.refreshToken);
  });

  it('signs out with an empty session when a stored session is refused', async () => {
    const machine = authMachine.provide({
      actors: { checkSession: fromPromise(async () => Promise.reject(failure)) },
      actions: quietActions,
    });
    const actor = createActor(machine, { input: storedSession }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('signedOut'));
    expect(actor.getSnapshot().context).toMatchObject({ user: null, accessToken: null, refreshToken: null });
  });

  it('starts signed out, asking nothing, without a stored session', () => {
    const checks = vi.fn();
    const machine = authMachine.provide({ actors: { checkSession: fromPromise(async () => checks()) }, actions: quietActions });
    const actor = createActor(machine, { input: noSession }).start();
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    expect(checks).not.toHaveBeenCalled();
  });
});

describe('checking a stored session', () => {
  function serverWith(answers: Record<string, Response | (() => Response)>) {
    const seen: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const key = `${init.method} ${url} ${(init.headers as Record<string, string>).Authorization ?? ''}`.trim();
        seen.push(key);
        const answer = answers[key];
        if (!answer) throw new Error(`unexpected ${key}`);
        return typeof answer === 'function' ? answer() : answer;
      }),
    );
    return seen;
  }
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('keeps a valid session as it is', async () => {
    serverWith({ 'GET /api/auth/me Bearer a1': json(200, { user }) });
    const actor = createActor(checkStoredSession, { input: { accessToken: 'a1', refreshToken: 'r1' } }).start();
    await expect(waitFor(actor, (snapshot) => snapshot.status === 'done').then((snapshot) => snapshot.output)).resolves.toEqual({
      user,
      accessToken: 'a1',
      refreshToken: 'r1',
    });
  });

  it('refreshes an expired access token once, then asks again with the new one', async () => {
    const seen = serverWith({
      'GET /api/auth/me Bearer a1': () => json(401, { statusCode: 401, message: 'expired' }),
      'POST /api/auth/refresh': () => json(200, refreshResponse),
      'GET /api/auth/me Bearer access-refreshed': () => json(200, { user }),
    });
    const actor = createActor(checkStoredSession, { input: { accessToken: 'a1', refreshToken: 'r1' } }).start();
    const done = await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(done.output).toEqual({ user, ...refreshResponse });
    expect(seen).toEqual(['GET /api/auth/me Bearer a1', 'POST /api/auth/refresh', 'GET /api/auth/me Bearer access-refreshed']);
  });

  it('gives up on any other failure without refreshing', async () => {
    const seen = serverWith({ 'GET /api/auth/me Bearer a1': () => json(500, { statusCode: 500, message: 'down' }) });
    const actor = createActor(checkStoredSession, { input: { accessToken: 'a1', refreshToken: 'r1' } }).start();
    await expect(toPromise(actor)).rejects.toMatchObject({ status: 500, messages: ['down'] });
    expect(seen).toEqual(['GET /api/auth/me Bearer a1']);
  });
});

describe('auth machine: signing in and out', () => {
  let shown: string[];

  beforeEach(() => {
    shown = [];
    vi.spyOn(toast, 'success').mockImplementation(((message: string, options?: { id?: string }) => {
      shown.push(`success ${message}${options?.id ? ` #${options.id}` : ''}`);
      return 'success-id';
    }) as never);
    vi.spyOn(toast, 'error').mockImplementation(((message: string) => (shown.push(`error ${message}`), '')) as never);
    vi.spyOn(toast, 'loading').mockImplementation(
      ((message: string, options?: { id?: string }) => (shown.push(`loading ${message} #${options?.id}`), '')) as never,
    );
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  function start(input: AuthInput) {
    const calls = deferredActors(['checkSession', 'logIn', 'refreshSession', 'logOut'] as const);
    const actor = createActor(authMachine.provide({ actors: calls.actors }), { input }).start();
    return { actor, calls };
  }

  it("signs in with the login and password, keeps the tokens and says 'Ви увійшли'", async () => {
    const { actor, calls } = start(noSession);
    actor.send({ type: 'login.submit', login: 'operator', password: 'secret-pass' });
    expect(actor.getSnapshot().matches({ signedOut: 'submitting' })).toBe(true);
    actor.send({ type: 'login.submit', login: 'operator', password: 'secret-pass' });
    expect(calls.started).toEqual([{ name: 'logIn', input: { login: 'operator', password: 'secret-pass' } }]);
    await calls.resolve('logIn', { user, accessToken: 'a', refreshToken: 'r' });
    expect(actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ user, accessToken: 'a', refreshToken: 'r' });
    expect(shown).toEqual(['success Ви увійшли']);
  });

  it("stays on the login form with the server's message when refused", async () => {
    const { actor, calls } = start(noSession);
    actor.send({ type: 'login.submit', login: 'operator', password: 'wrong-pass' });
    await calls.reject('logIn', new ApiError(401, ['Невірний логін або пароль']));
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    expect(shown).toEqual(['error Невірний логін або пароль']);
  });

  it("logs out with 'Завантаження ...' replaced by 'Ви вийшли із системи', revoking the refresh token, even when the revoke fails", async () => {
    for (const outcome of ['resolve', 'reject'] as const) {
      shown = [];
      const { actor, calls } = start(storedSession);
      await calls.resolve('checkSession', { user, accessToken: 'access-stored', refreshToken: 'refresh-stored' });
      actor.send({ type: 'logout' });
      expect(calls.started.at(-1)).toEqual({ name: 'logOut', input: { refreshToken: 'refresh-stored' } });
      if (outcome === 'resolve') await calls.resolve('logOut');
      else await calls.reject('logOut', failure);
      expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
      expect(actor.getSnapshot().context).toEqual({ user: null, accessToken: null, refreshToken: null });
      expect(shown).toEqual(['loading Завантаження ... #logout', 'success Ви вийшли із системи #logout']);
    }
  });

  it('checks a stored session only when both tokens are there', () => {
    const { actor, calls } = start({ user, accessToken: 'access-stored', refreshToken: null });
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(calls.started).toEqual([]);
    const both = start(storedSession);
    expect(both.actor.getSnapshot().value).toBe('checking');
    expect(both.calls.started).toEqual([{ name: 'checkSession', input: { accessToken: 'access-stored', refreshToken: 'refresh-stored' } }]);
  });

  it('ends the session when a refresh is refused, and refreshes with the refresh token it holds', async () => {
    const { actor, calls } = start(storedSession);
    await calls.resolve('checkSession', { user, accessToken: 'access-stored', refreshToken: 'refresh-stored' });
    actor.send({ type: 'session.unauthorized', accessToken: 'access-stored' });
    expect(calls.started.at(-1)).toEqual({ name: 'refreshSession', input: { refreshToken: 'refresh-stored' } });
    await calls.reject('refreshSession', failure);
    expect(actor.getSnapshot().matches({ signedOut: 'sessionEnded' })).toBe(true);
    expect(actor.getSnapshot().context.accessToken).toBeNull();
  });

  it('reaches the auth API: login, refresh, me and logout', async () => {
    const seen: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        seen.push(`${init.method} ${url} ${init.body ?? ''}`.trim());
        return new Response(JSON.stringify({ user, accessToken: 'a', refreshToken: 'r' }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const actor = createActor(authMachine, { input: noSession }).start();
    actor.send({ type: 'login.submit', login: 'operator', password: 'secret-pass' });
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: 'idle' }));
    actor.send({ type: 'session.unauthorized', accessToken: 'a' });
    await waitFor(actor, (snapshot) => snapshot.matches({ signedIn: 'idle' }));
    actor.send({ type: 'logout' });
    await waitFor(actor, (snapshot) => snapshot.matches('signedOut'));
    expect(seen).toEqual([
      'POST /api/auth/login {"login":"operator","password":"secret-pass"}',
      'POST /api/auth/refresh {"refreshToken":"r"}',
      'POST /api/auth/logout {"refreshToken":"r"}',
    ]);
  });
});

describe('the app-wide auth actor', () => {
  function memoryStorage(initial: Record<string, string> = {}) {
    const items = new Map(Object.entries(initial));
    return {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
      items,
    };
  }

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is loading while it starts or checks, and not once signed in or out', () => {
    const snapshotAt = (value: unknown) => authMachine.resolveState({ value: value as never, context: noSession });
    expect(isAuthLoading(snapshotAt('checking'))).toBe(true);
    expect(isAuthLoading(snapshotAt({ signedOut: 'idle' }))).toBe(false);
    expect(isAuthLoading(snapshotAt({ signedIn: 'idle' }))).toBe(false);
    expect(toStoredAuth(snapshotAt({ signedIn: 'refreshing' }))).toEqual({ isLoading: false, isAuthenticated: true, ...noSession });
    expect(toStoredAuth(snapshotAt('checking'))).toMatchObject({ isLoading: true, isAuthenticated: false });
  });

  it('starts from the stored session, saves every change, reports to an inspector and serves the API client', async () => {
    const storage = memoryStorage({ authStore: JSON.stringify({ state: storedSession, version: 1 }) });
    vi.stubGlobal('localStorage', storage);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) =>
        url === '/api/auth/me'
          ? new Response(JSON.stringify({ user }), { status: 200, headers: { 'content-type': 'application/json' } })
          : new Response(JSON.stringify({ seen: (init.headers as Record<string, string>).Authorization }), {
              status: 200,
              headers: { 'content-type': 'application/json' },
            }),
      ),
    );
    const inspected: string[] = [];
    const actor = startAuth({
      inspect: (event) => void (event.type === '@xstate.actor' && inspected.push((event.actorRef as unknown as { id: string }).id)),
    });
    await waitFor(actor, (snapshot) => snapshot.matches('signedIn'));
    expect(inspected).toContain('auth');
    expect(JSON.parse(storage.items.get('authStore')!)).toEqual({
      state: { isLoading: false, isAuthenticated: true, ...storedSession },
      version: 1,
    });
    await expect(api('GET', '/accounts')).resolves.toEqual({ seen: 'Bearer access-stored' });
  });

  it('hands its inspector to every actor created after it is connected', () => {
    const inspect = { next: () => {} };
    connectInspector(inspect);
    expect(inspector()).toBe(inspect);
    connectInspector(undefined);
    expect(inspector()).toBeUndefined();
  });
});
