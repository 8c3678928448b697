import { afterEach, beforeEach, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { startAuth, type AuthActor } from '../../src/machines/auth-session';
import { AuthProvider } from '../../src/components/auth-context';
import { App } from '../../src/app';
import { serverDouble, type ServerDouble } from './server-double';

/**
 * The login form checks its two fields itself (no form library: issue 40.10 keeps the login page
 * small): on submit, then as they change, each with the catalog's words; the first wrong field
 * takes the keyboard; nothing is sent until both are right.
 */

let server: ServerDouble;
let ui: UserEvent;
let actor: AuthActor;

beforeEach(() => {
  localStorage.clear();
  server = serverDouble();
  ui = userEvent.setup();
  actor = startAuth();
  render(
    <AuthProvider actor={actor}>
      <App />
    </AuthProvider>,
  );
});

afterEach(() => actor.stop());

const field = (name: 'Логін' | 'Пароль') => screen.getByLabelText(name);
const submit = () => ui.click(screen.getByRole('button', { name: 'Увійти' }));

it('says what each empty field needs on submit, takes the keyboard to the first, and sends nothing', async () => {
  await submit();
  expect(screen.getAllByText('Обовʼязкове до заповнення')).toHaveLength(2);
  expect(field('Логін')).toHaveAttribute('aria-invalid', 'true');
  await waitFor(() => expect(field('Логін')).toHaveFocus());
  expect(server.calls).toEqual([]);
});

it('checks a field again as it changes after a submit, and sends the login once both are right', async () => {
  await ui.type(field('Пароль'), 'secret-pass');
  await submit();
  expect(screen.getAllByText('Обовʼязкове до заповнення')).toHaveLength(1);
  await ui.type(field('Логін'), 'o');
  expect(screen.getByText('Занадто коротко: щонайменше 2 символи')).toBeInTheDocument();
  await ui.type(field('Логін'), 'perator');
  expect(screen.queryByText(/Занадто коротко|Обовʼязкове/)).toBeNull();
  expect(field('Логін')).not.toHaveAttribute('aria-invalid', 'true');
  await submit();
  await waitFor(() =>
    expect(server.calls.map((call) => [call.method, call.path, call.body])).toEqual([
      ['POST', '/auth/login', { login: 'operator', password: 'secret-pass' }],
    ]),
  );
});

it('checks nothing before the first submit', async () => {
  await ui.type(field('Логін'), 'o');
  expect(screen.queryByText(/Занадто коротко/)).toBeNull();
});
