import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api, ApiError } from '../../src/lib/api';
import { t } from '../../server/messages';
import { answerApi, renderScreen } from './render';
import { telegramOff } from './alerts-fixtures';

vi.mock('../../src/lib/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/lib/api')>()),
  api: vi.fn(),
}));

const { SettingsScreen } = await import('../../src/screens/settings/settings-screen');

afterEach(() => {
  vi.mocked(api).mockReset();
});

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

/** The other cards of the screen read their own settings; these tests are about the password. */
const otherCards = {
  'GET /telegram': { ...telegramOff },
  'GET /webhooks': { data: [] },
};

async function fill(current: string, password: string, repeat: string) {
  const user = userEvent.setup();
  if (current) await user.type(field(t.settings.currentPassword), current);
  if (password) await user.type(field(t.passwordFields.password), password);
  if (repeat) await user.type(field(t.passwordFields.confirmation), repeat);
  await user.click(screen.getByRole('button', { name: t.settings.submitPassword }));
}

describe("settings: the operator's own password", () => {
  it("shows the user form's rules under the fields and sends nothing", async () => {
    answerApi(otherCards);
    renderScreen(<SettingsScreen />, { path: '/setting' });
    expect(screen.getByRole('heading', { name: t.settings.changePassword })).toBeTruthy();
    await fill('', '', '');
    await waitFor(() => expect(screen.getAllByText(t.validation.required)).toHaveLength(3));

    await fill('old-secret', '12345', '12346');
    await screen.findByText(t.validation.tooShort(6));
    await screen.findByText(t.users.passwordsMismatch);
    expect(vi.mocked(api).mock.calls.filter(([method]) => method !== 'GET')).toEqual([]);
  });

  it('sends the current and the new password, says so, and empties the form', async () => {
    const sent: unknown[] = [];
    answerApi({ ...otherCards, 'POST /auth/password': (body: unknown) => void sent.push(body) });
    renderScreen(<SettingsScreen />, { path: '/setting' });
    await fill('old-secret', 'new-secret', 'new-secret');

    await screen.findByText(t.settings.passwordChanged);
    expect(sent).toEqual([{ current_password: 'old-secret', password: 'new-secret', password_confirmation: 'new-secret' }]);
    await waitFor(() => expect(field(t.settings.currentPassword).value).toBe(''));
    expect(field(t.passwordFields.password).value).toBe('');
    expect(field(t.passwordFields.confirmation).value).toBe('');
  });

  it("shows the server's answer to a wrong current password and keeps what was typed", async () => {
    answerApi({
      ...otherCards,
      'POST /auth/password': () => {
        throw new ApiError(400, [t.settings.wrongCurrentPassword]);
      },
    });
    renderScreen(<SettingsScreen />, { path: '/setting' });
    await fill('not-it', 'new-secret', 'new-secret');

    await screen.findByText(t.settings.wrongCurrentPassword);
    expect(field(t.settings.currentPassword).value).toBe('not-it');
    expect(screen.getByRole('button', { name: t.settings.submitPassword }).hasAttribute('disabled')).toBe(false);
  });
});
