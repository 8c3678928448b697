import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api, ApiError } from '../../src/lib/api';
import type { ManagedUser } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { UserListScreen } from '../../src/screens/users/user-list-screen';
import { answerApi, renderScreen } from './render';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));

afterEach(() => {
  vi.mocked(api).mockReset();
});

describe('user list', () => {
  it("shows the server's refusal when the user's uploads could not be stopped, and keeps the row", async () => {
    const user = userEvent.setup();
    const leaver: ManagedUser = { id: 7, login: 'anna', role: 'user', videosCount: 3, accountsCount: 1 };
    const refusal = t.finalDelete.inFlight([t.finalDelete.item('Ранкова пробіжка', 2, 'YouTube', '#4 Канал Анни')]);
    answerApi({
      'GET /users?page=1': { data: [leaver], page: 1, totalPages: 1, total: 1 },
      'DELETE /users/7': () => {
        throw new ApiError(409, [refusal]);
      },
    });
    renderScreen(<UserListScreen />, { path: '/users', role: 'admin' });
    await user.click(await screen.findByRole('button', { name: t.users.deleteLabel('anna') }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Видалити' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(screen.queryByText(t.toast.deleteFailed)).not.toBeInTheDocument();
    expect(await screen.findByText('anna')).toBeInTheDocument();
  });
});
