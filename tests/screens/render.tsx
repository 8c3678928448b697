import type { ReactElement } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createActor, fromPromise } from 'xstate';
import { api } from '../../src/lib/api';
import type { Role, SessionUser } from '../../src/lib/contract';
import { authMachine } from '../../src/machines/auth-machine';
import { AuthProvider } from '../../src/components/auth-context';

/**
 * Renders a screen as the app does: signed in as `role`, inside a router at `path`, with the
 * toaster. Test files mock `src/lib/api` (see `answerApi`), so nothing reaches a network.
 */
export function renderScreen(ui: ReactElement, { path = '/', role = 'user' as Role } = {}) {
  const user: SessionUser = { id: 1, login: role === 'admin' ? 'chief' : 'operator', role };
  const machine = authMachine.provide({
    actors: {
      checkSession: fromPromise(async ({ input }: { input: { accessToken: string; refreshToken: string } }) => ({ user, ...input })),
    },
  });
  const actor = createActor(machine, { input: { user, accessToken: 'access', refreshToken: 'refresh' } }).start();
  const location = memoryLocation({ path, record: true });
  const result = render(
    <AuthProvider actor={actor}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {ui}
      </Router>
      <Toaster />
    </AuthProvider>,
  );
  return { ...result, location, user };
}

type Answer = unknown | ((body: unknown) => unknown);

/** Makes the mocked `api()` answer `METHOD /path` calls from `routes`; any other call fails the test loudly. */
export function answerApi(routes: Record<string, Answer>) {
  vi.mocked(api).mockImplementation(async (method: string, path: string, body?: unknown) => {
    const key = `${method} ${path}`;
    if (!(key in routes)) throw new Error(`unexpected API call ${key}`);
    const answer = routes[key];
    return typeof answer === 'function' ? answer(body) : answer;
  });
}

/** Sets a DateTimeField (day, hour, minute) to a Kyiv wall time `YYYY-MM-DDTHH:mm`, as an operator picks it. */
export function pickDateTime(label: string, wallTime: string) {
  const [day, time] = wallTime.split('T') as [string, string];
  const [hour, minute] = time.split(':') as [string, string];
  fireEvent.change(screen.getByLabelText(`${label}: година`), { target: { value: hour } });
  fireEvent.change(screen.getByLabelText(`${label}: хвилина`), { target: { value: minute } });
  const [year, month, date] = day.split('-');
  fireEvent.change(screen.getByLabelText(`${label}: день`), { target: { value: `${date}.${month}.${year}` } });
}

/** What a DateTimeField shows, as `YYYY-MM-DDTHH:mm`. */
export function shownDateTime(label: string): string {
  const value = (part: string) => (screen.getByLabelText(`${label}: ${part}`) as HTMLInputElement).value;
  const [date, month, year] = value('день').split('.');
  return `${year}-${month}-${date}T${value('година')}:${value('хвилина')}`;
}
