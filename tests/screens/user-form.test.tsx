import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { api } from '../../src/lib/api';
import type { ManagedUser, UserDetail } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { UserFormScreen } from '../../src/screens/users/user-form-screen';
import { answerApi, renderScreen } from './render';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));

afterEach(() => {
  vi.mocked(api).mockReset();
});

const emptyPage = { data: [], page: 1, totalPages: 0, total: 0 };
const detailOf = (user: ManagedUser): UserDetail => ({ user, accounts: emptyPage, video: emptyPage });

/** The user form at /users/{id}, signed in as the admin (id 1), saving to a PATCH whose bodies `sent` keeps. */
function renderUser(user: ManagedUser) {
  const sent: unknown[] = [];
  answerApi({
    [`GET /users/${user.id}`]: detailOf(user),
    [`PATCH /users/${user.id}`]: (body: unknown) => {
      sent.push(body);
      return user;
    },
  });
  const view = renderScreen(
    <Route path={/^\/users\/(?<id>\d+)$/}>
      <UserFormScreen />
    </Route>,
    { path: `/users/${user.id}`, role: 'admin' },
  );
  return { ...view, sent };
}

describe('user form', () => {
  it("offers the admin's own record its login only, and sends their password to Settings", async () => {
    const user = userEvent.setup();
    const { sent, location } = renderUser({ id: 1, login: 'chief', role: 'admin', videosCount: 0, accountsCount: 0 });
    const login = await screen.findByLabelText(t.users.login);
    expect(login).toHaveValue('chief');
    expect(screen.queryByLabelText(t.passwordFields.password)).toBeNull();
    expect(screen.queryByLabelText(t.passwordFields.confirmation)).toBeNull();
    expect(screen.getByText(t.users.ownPasswordInSettings)).toBeInTheDocument();

    await user.clear(login);
    await user.type(login, 'head');
    await user.click(screen.getByRole('button', { name: t.app.save }));
    expect(await screen.findByText(t.users.updated)).toBeInTheDocument();
    expect(sent).toEqual([{ login: 'head' }]);

    await user.click(screen.getByRole('link', { name: t.users.ownPasswordLink }));
    expect(location.history?.at(-1)).toBe('/setting');
  });

  it("asks for another user's new password twice, as SPEC's form does", async () => {
    const user = userEvent.setup();
    const { sent } = renderUser({ id: 7, login: 'anna', role: 'user', videosCount: 0, accountsCount: 0 });
    await screen.findByLabelText(t.users.login);
    expect(screen.queryByText(t.users.ownPasswordInSettings)).toBeNull();

    await user.type(screen.getByLabelText(t.passwordFields.password), 'new-pass');
    await user.type(screen.getByLabelText(t.passwordFields.confirmation), 'new-pass');
    await user.click(screen.getByRole('button', { name: t.app.save }));
    await waitFor(() => expect(sent).toEqual([{ login: 'anna', password: 'new-pass', password_confirmation: 'new-pass' }]));
  });
});
