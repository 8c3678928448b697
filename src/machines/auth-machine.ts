import { assign, assertEvent, fromPromise, setup } from 'xstate';
import { authApi } from '../lib/api';
import type { LoginResponse, RefreshResponse, SessionUser } from '../lib/contract';
import { toasts } from '../lib/toasts';

export interface AuthContext {
  user: SessionUser | null;
  accessToken: string | null;
  refreshToken: string | null;
}

export type AuthInput = AuthContext;

export type AuthEvent =
  { type: 'login.submit'; login: string; password: string } | { type: 'session.unauthorized'; accessToken: string } | { type: 'logout' };

export interface CheckedSession {
  user: SessionUser;
  accessToken: string;
  refreshToken: string;
}

/**
 * Validates a stored session with the server. An expired access token is refreshed once first,
 * so reopening the app after a break keeps the operator signed in.
 */
export const checkStoredSession = fromPromise<CheckedSession, { accessToken: string; refreshToken: string }>(async ({ input }) => {
  try {
    const { user } = await authApi.me(input.accessToken);
    return { user, ...input };
  } catch (error) {
    if ((error as { status?: number }).status !== 401) throw error;
    const refreshed = await authApi.refresh(input.refreshToken);
    const { user } = await authApi.me(refreshed.accessToken);
    return { user, ...refreshed };
  }
});

const emptySession = { user: null, accessToken: null, refreshToken: null } as const;

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
  },
  actors: {
    checkSession: checkStoredSession,
    logIn: fromPromise<LoginResponse, { login: string; password: string }>(({ input }) => authApi.logIn(input)),
    refreshSession: fromPromise<RefreshResponse, { refreshToken: string }>(({ input }) => authApi.refresh(input.refreshToken)),
    logOut: fromPromise<void, { refreshToken: string | null }>(async ({ input }) => {
      if (input.refreshToken) await authApi.logOut(input.refreshToken);
    }),
  },
  actions: {
    'clear session': assign(emptySession),
    'toast authorized': () => {
      toasts.authorized();
    },
    'toast login failure': (_, params: { error: unknown }) => toasts.errors(params.error),
    // Plain actions, not assignments: an assignment may run more than once, and a toast must not.
    'toast logging out': () => {
      toasts.loggingOut();
    },
    // Half-filled forms belong to the one who signed out; a session that merely ended keeps them.
    // The drafts' store (and @xstate/store) is fetched here rather than with the login screen.
    'forget drafts': () => {
      void import('./publish-draft-store').then(({ publishDrafts }) => publishDrafts.trigger.forgetAll());
    },
    'toast logged out': () => {
      toasts.loggedOut();
    },
  },
  guards: {
    'has stored session': ({ context }) => Boolean(context.accessToken && context.refreshToken),
    'token is the current one': ({ context, event }) => event.type === 'session.unauthorized' && event.accessToken === context.accessToken,
  },
}).createMachine({
  id: 'auth',
  context: ({ input }) => input,
  initial: 'starting',
  states: {
    starting: {
      always: [
        { guard: 'has stored session', target: 'checking' },
        { target: 'signedOut', actions: 'clear session' },
      ],
    },
    checking: {
      invoke: {
        id: 'checkSession',
        src: 'checkSession',
        input: ({ context }) => ({ accessToken: context.accessToken!, refreshToken: context.refreshToken! }),
        onDone: {
          target: 'signedIn',
          actions: assign(({ event }) => event.output),
        },
        // A stored session the server no longer takes (expired, revoked): the login screen says so.
        onError: { target: 'signedOut.sessionEnded', actions: 'clear session' },
      },
    },
    signedOut: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'login.submit': 'submitting' },
        },
        sessionEnded: {
          on: { 'login.submit': 'submitting' },
        },
        submitting: {
          invoke: {
            id: 'logIn',
            src: 'logIn',
            input: ({ event }) => {
              assertEvent(event, 'login.submit');
              return { login: event.login, password: event.password };
            },
            onDone: {
              target: '#auth.signedIn',
              actions: [assign(({ event }) => event.output), 'toast authorized'],
            },
            onError: {
              target: 'idle',
              actions: { type: 'toast login failure', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    signedIn: {
      initial: 'idle',
      on: { logout: 'loggingOut' },
      states: {
        idle: {
          on: {
            // A 401 for a token that was already replaced needs no refresh: the caller retries with the new one.
            'session.unauthorized': { guard: 'token is the current one', target: 'refreshing' },
          },
        },
        refreshing: {
          // Further 401s while this runs are ignored here, so parallel requests share one refresh call.
          invoke: {
            id: 'refreshSession',
            src: 'refreshSession',
            input: ({ context }) => ({ refreshToken: context.refreshToken! }),
            onDone: {
              target: 'idle',
              actions: assign(({ event }) => ({
                accessToken: event.output.accessToken,
                refreshToken: event.output.refreshToken,
              })),
            },
            onError: { target: '#auth.signedOut.sessionEnded', actions: 'clear session' },
          },
        },
      },
    },
    loggingOut: {
      entry: 'toast logging out',
      invoke: {
        id: 'logOut',
        src: 'logOut',
        input: ({ context }) => ({ refreshToken: context.refreshToken }),
        // The local session ends either way; a failed revoke only leaves a token that expires by itself.
        onDone: { target: 'signedOut', actions: ['clear session', 'forget drafts', 'toast logged out'] },
        onError: { target: 'signedOut', actions: ['clear session', 'forget drafts', 'toast logged out'] },
      },
    },
  },
});
