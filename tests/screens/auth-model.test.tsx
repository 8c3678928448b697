import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { TestModel } from 'xstate/graph';
import { ApiError } from '../../src/lib/api';
import type { AuthInput } from '../../src/machines/auth-machine';
import { authMachine } from '../../src/machines/auth-machine';
import { startAuth, type AuthActor } from '../../src/machines/auth-session';
import { AuthProvider } from '../../src/components/auth-context';
import { App } from '../../src/app';
import { describePath, errorBody, serverDouble, type ServerDouble } from './server-double';

// The bell and the home screen read their data on their own (stats-calendar-bell.test.tsx, home-screen.test.tsx); here only the session's requests are counted.
vi.mock('../../src/components/notification-bell', () => ({ NotificationBell: () => null }));
vi.mock('../../src/screens/home/home-screen', () => ({ HomeScreen: () => null }));

const user = { id: 2, login: 'operator', role: 'user' as const };
const tokens = { accessToken: 'access-1', refreshToken: 'refresh-1' };
const refused = 'Невірний логін або пароль';

const events = [
  { type: 'login.submit', login: 'operator', password: 'secret-pass' },
  { type: 'xstate.done.actor.logIn', output: { user, ...tokens } },
  { type: 'xstate.error.actor.logIn', error: new ApiError(401, [refused]) },
  { type: 'logout' },
  { type: 'xstate.done.actor.logOut', output: undefined },
  { type: 'xstate.error.actor.logOut', error: new ApiError(500, ['down']) },
  { type: 'xstate.done.actor.checkSession', output: { user, ...tokens } },
  { type: 'xstate.error.actor.checkSession', error: new ApiError(401, ['expired']) },
] as never[];

function modelFrom(input: AuthInput) {
  return new TestModel(authMachine, {
    input,
    events,
    stateMatcher: (snapshot, key) => snapshot.matches(key as never),
    filterEvents: (snapshot, event) => snapshot.can(event as never),
    // The logout toast's id is the toaster's own; what tells states apart is where the machine is and how it got there.
    serializeState: (snapshot, event, previous) => {
      const changed = !previous || JSON.stringify(previous.value) !== JSON.stringify(snapshot.value);
      return JSON.stringify([snapshot.value, changed ? event?.type : undefined]);
    },
  });
}

// The menu is a chunk of its own (src/app.tsx): loaded once here, so no walk waits on its first load.
beforeAll(() => import('../../src/components/sidebar'));

let server: ServerDouble;
let ui: UserEvent;
let actor: AuthActor;
let toasts: string[];

beforeEach(() => {
  server = serverDouble();
  ui = userEvent.setup();
  toasts = [];
});

afterEach(() => {
  actor?.stop();
  toast.remove();
});

function renderApp() {
  // The app's own auth actor: restored from localStorage, wired to the API client, as in main.tsx.
  actor = startAuth();
  const location = memoryLocation({ path: '/' });
  render(
    <AuthProvider actor={actor}>
      <Router hook={location.hook}>
        <App />
      </Router>
      <Toaster />
    </AuthProvider>,
  );
}

const steps = {
  'xstate.init': () => renderApp(),
  'login.submit': async () => {
    await ui.type(screen.getByLabelText('Логін'), 'operator');
    await ui.type(screen.getByLabelText('Пароль'), 'secret-pass');
    await ui.click(screen.getByRole('button', { name: 'Увійти' }));
  },
  'xstate.done.actor.logIn': async () => {
    expect(server.calls.at(-1)!.body).toEqual({ login: 'operator', password: 'secret-pass' });
    await server.answer('POST', '/auth/login', 200, { user, ...tokens });
    toasts.push('Ви увійшли');
  },
  'xstate.error.actor.logIn': async () => {
    await server.answer('POST', '/auth/login', 401, errorBody(401, refused));
    toasts.push(refused);
  },
  logout: async () => {
    await ui.click(screen.getByRole('button', { name: 'operator' }));
    await ui.click(screen.getByRole('menuitem', { name: 'Вийти' }));
  },
  'xstate.done.actor.logOut': async () => {
    expect(server.calls.at(-1)!.body).toEqual({ refreshToken: tokens.refreshToken });
    await server.answer('POST', '/auth/logout', 204);
    toasts.push('Ви вийшли із системи');
  },
  'xstate.error.actor.logOut': async () => {
    await server.answer('POST', '/auth/logout', 500, errorBody(500, 'down'));
    toasts.push('Ви вийшли із системи');
  },
  'xstate.done.actor.checkSession': () => server.answer('GET', '/auth/me', 200, { user }),
  'xstate.error.actor.checkSession': async () => {
    await server.answer('GET', '/auth/me', 500, errorBody(500, 'down'));
  },
};

const stored = () => JSON.parse(localStorage.getItem('authStore') ?? 'null')?.state;

async function saysWhatHappened() {
  for (const text of toasts) expect(await screen.findByText(text)).toBeInTheDocument();
}

const states = {
  checking: () => {
    expect(screen.getByRole('status', { name: 'Завантаження' })).toBeInTheDocument();
    expect(server.pending()).toEqual(['GET /auth/me']);
  },
  'signedOut.idle': async () => {
    await waitFor(() => expect(screen.getByRole('button', { name: 'Увійти' })).toBeEnabled());
    expect(screen.queryByTestId('user-login')).toBeNull();
    expect(screen.queryByText('Сесію завершено, увійдіть знову')).toBeNull();
    await saysWhatHappened();
    expect(stored()).toMatchObject({ isAuthenticated: false, user: null, accessToken: null, refreshToken: null });
  },
  'signedOut.sessionEnded': async () => {
    await waitFor(() => expect(screen.getByRole('button', { name: 'Увійти' })).toBeEnabled());
    expect(screen.getByRole('alert')).toHaveTextContent('Сесію завершено, увійдіть знову');
    expect(screen.queryByTestId('user-login')).toBeNull();
    await saysWhatHappened();
    expect(stored()).toMatchObject({ isAuthenticated: false, user: null, accessToken: null, refreshToken: null });
  },
  'signedOut.submitting': async () => {
    await waitFor(() => expect(screen.getByRole('button', { name: 'Увійти' })).toBeDisabled());
    expect(server.pending()).toEqual(['POST /auth/login']);
  },
  'signedIn.idle': async () => {
    expect(await screen.findByTestId('user-login')).toHaveTextContent('operator');
    await saysWhatHappened();
    expect(stored()).toMatchObject({ isAuthenticated: true, user, ...tokens });
  },
  loggingOut: async () => {
    expect(await screen.findByText('Завантаження ...')).toBeInTheDocument();
    expect(server.pending()).toEqual(['POST /auth/logout']);
  },
};

describe('sign-in and sign-out screens, walked along the auth machine', () => {
  const withoutSession = modelFrom({ user: null, accessToken: null, refreshToken: null }).getShortestPaths();
  const withSession = modelFrom({ user, ...tokens }).getShortestPaths();

  for (const path of withoutSession) {
    it(`without a stored session: ${describePath(path)}`, async () => {
      await path.test({ events: steps as never, states });
    }, 30_000);
  }

  for (const path of withSession) {
    it(`with a stored session: ${describePath(path)}`, async () => {
      localStorage.setItem('authStore', JSON.stringify({ state: { user, ...tokens }, version: 1 }));
      await path.test({ events: steps as never, states });
    }, 30_000);
  }
});
