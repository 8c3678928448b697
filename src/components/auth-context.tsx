import { createContext, useContext, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { AuthActor } from '../machines/auth-session';

const AuthActorContext = createContext<AuthActor | null>(null);

export function AuthProvider({ actor, children }: { actor: AuthActor; children: ReactNode }) {
  return <AuthActorContext.Provider value={actor}>{children}</AuthActorContext.Provider>;
}

export function useAuthActor(): AuthActor {
  const actor = useContext(AuthActorContext);
  if (!actor) throw new Error('useAuthActor needs an <AuthProvider>');
  return actor;
}

/** The signed-in user, or null. */
export function useSessionUser() {
  return useSelector(useAuthActor(), (snapshot) => snapshot.context.user);
}
