import { createActor, waitFor, type ActorOptions, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { connectSession, type SessionBridge } from '../lib/api';
import { loadStoredAuth, saveStoredAuth, type StoredAuthState } from '../lib/auth-storage';
import { authMachine } from './auth-machine';

export type AuthActor = ActorRefFrom<typeof authMachine>;
export type AuthSnapshot = SnapshotFrom<typeof authMachine>;

export function isAuthLoading(snapshot: AuthSnapshot): boolean {
  return snapshot.matches('starting') || snapshot.matches('checking');
}

export function toStoredAuth(snapshot: AuthSnapshot): StoredAuthState {
  const { user, accessToken, refreshToken } = snapshot.context;
  return {
    isLoading: isAuthLoading(snapshot),
    isAuthenticated: snapshot.matches('signedIn'),
    user,
    accessToken,
    refreshToken,
  };
}

/** Lets the API client ask the auth machine for a refresh after a 401, and wait for its outcome. */
export function sessionBridgeFor(actor: AuthActor): SessionBridge {
  return {
    accessToken: () => actor.getSnapshot().context.accessToken,
    async afterUnauthorized(tokenUsed) {
      actor.send({ type: 'session.unauthorized', accessToken: tokenUsed });
      const settled = await waitFor(actor, (snapshot) => !snapshot.matches({ signedIn: 'refreshing' }));
      return settled.matches('signedIn') ? settled.context.accessToken : null;
    },
  };
}

/** The app's one auth actor: restored from localStorage, persisted on every change, wired to the API client. */
export function startAuth(options: Pick<ActorOptions<typeof authMachine>, 'inspect'> = {}): AuthActor {
  const actor = createActor(authMachine, { ...options, id: 'auth', input: loadStoredAuth() });
  actor.subscribe((snapshot) => saveStoredAuth(toStoredAuth(snapshot)));
  connectSession(sessionBridgeFor(actor));
  actor.start();
  return actor;
}
