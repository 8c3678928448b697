import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createActor, fromPromise } from 'xstate';
import { authMachine } from '../../src/machines/auth-machine';
import { AuthProvider } from '../../src/components/auth-context';
import type { SessionUser } from '../../src/lib/contract';

/**
 * Renders `ui` at `path` inside the router and an auth actor that is already signed in as `user`
 * (or signed out with `null`), so a screen sees exactly what it would in the app.
 */
export function renderWithSession(ui: ReactElement, { user, path = '/' }: { user: SessionUser | null; path?: string }) {
  const machine = authMachine.provide({
    actors: {
      checkSession: fromPromise(async () => ({ user: user!, accessToken: 'access', refreshToken: 'refresh' })),
    },
  });
  const input = user ? { user, accessToken: 'access', refreshToken: 'refresh' } : { user: null, accessToken: null, refreshToken: null };
  const actor = createActor(machine, { input }).start();
  const location = memoryLocation({ path, record: true });
  const view = render(
    <Router hook={location.hook}>
      <AuthProvider actor={actor}>{ui}</AuthProvider>
    </Router>,
  );
  return { ...view, actor, location };
}
