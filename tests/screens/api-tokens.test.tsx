import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api, ApiError } from '../../src/lib/api';
import type { ApiToken, CreatedApiToken } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { answerApi, renderScreen } from './render';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));

const { ApiTokensScreen } = await import('../../src/screens/settings/api-tokens-screen');

afterEach(() => {
  vi.mocked(api).mockReset();
});

const reports: ApiToken = {
  id: 3,
  name: 'звіти',
  scope: 'read',
  createdAt: '2026-01-10T08:00:00.000Z',
  expiresAt: '2099-02-09T08:00:00.000Z',
  lastUsedAt: '2026-01-11T09:30:00.000Z',
  expired: false,
};
const old: ApiToken = {
  id: 2,
  name: 'старий скрипт',
  scope: 'publish',
  createdAt: '2025-01-10T08:00:00.000Z',
  expiresAt: '2025-02-09T08:00:00.000Z',
  lastUsedAt: null,
  expired: true,
};
const secret = 'sho_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const made: CreatedApiToken = { id: 4, name: 'публікація з n8n', scope: 'publish', expiresAt: '2099-04-10T08:00:00.000Z', token: secret };

const rowOf = (name: string) => screen.getByText(name).closest('tr')!;

describe('API tokens page', () => {
  it('lists the tokens with their scope, end and last use, without the admin scope for an operator', async () => {
    answerApi({ 'GET /tokens': { data: [reports, old] } });
    renderScreen(<ApiTokensScreen />, { path: '/setting/tokens' });
    await screen.findByText('звіти');
    expect(within(rowOf('звіти')).getByText(t.apiTokens.scopes.read)).toBeInTheDocument();
    expect(within(rowOf('звіти')).getByText('11.01.2026 11:30')).toBeInTheDocument();
    expect(within(rowOf('старий скрипт')).getByText(`09.02.2025 10:00, ${t.apiTokens.expired}`)).toBeInTheDocument();
    expect(within(rowOf('старий скрипт')).getByText(t.apiTokens.neverUsed)).toBeInTheDocument();

    const scopes = screen.getByRole('group', { name: t.apiTokens.scope });
    expect(
      within(scopes)
        .getAllByRole('radio')
        .map((radio) => (radio as HTMLInputElement).value),
    ).toEqual(['read', 'publish']);
  });

  it('offers an admin the admin scope', async () => {
    answerApi({ 'GET /tokens': { data: [] } });
    renderScreen(<ApiTokensScreen />, { path: '/setting/tokens', role: 'admin' });
    expect(await screen.findByText(t.app.nothingFound)).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: new RegExp(t.apiTokens.scopes.admin) })).toBeInTheDocument();
  });

  it('checks the form, makes the token, shows it once with a copy button, and forgets it when hidden', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    let listed: ApiToken[] = [reports];
    answerApi({
      'GET /tokens': () => ({ data: listed }),
      'POST /tokens': (body: unknown) => {
        sent.push(body);
        listed = [{ ...made, createdAt: '2026-01-12T08:00:00.000Z', lastUsedAt: null, expired: false }, reports];
        return made;
      },
    });
    renderScreen(<ApiTokensScreen />, { path: '/setting/tokens' });
    await screen.findByText('звіти');

    await user.click(screen.getByRole('button', { name: t.apiTokens.submit }));
    expect(await screen.findByText(t.apiTokens.nameRequired)).toBeInTheDocument();
    expect(screen.getByLabelText(t.apiTokens.name)).toHaveFocus();
    expect(sent).toEqual([]);

    await user.type(screen.getByLabelText(t.apiTokens.name), 'публікація з n8n');
    await user.click(screen.getByRole('radio', { name: new RegExp(t.apiTokens.scopes.publish) }));
    await user.selectOptions(screen.getByLabelText(t.apiTokens.expiry), t.apiTokens.expiryOption(90));
    await user.click(screen.getByRole('button', { name: t.apiTokens.submit }));

    const heading = await screen.findByRole('heading', { name: t.apiTokens.newTokenTitle('публікація з n8n') });
    expect(sent).toEqual([{ name: 'публікація з n8n', scope: 'publish', expiresInDays: 90 }]);
    expect(heading).toHaveFocus();
    expect(screen.getByLabelText(t.apiTokens.newTokenLabel)).toHaveValue(secret);
    expect(screen.getByText(t.apiTokens.newTokenWarning)).toBeInTheDocument();
    expect(await screen.findByText(t.apiTokens.created)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(t.apiTokens.name)).toHaveValue(''));
    expect(within(rowOf('публікація з n8n')).getByText(t.apiTokens.scopes.publish)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: t.apiTokens.copy }));
    expect(await screen.findByText(t.apiTokens.copied)).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(secret);

    await user.click(screen.getByRole('button', { name: t.apiTokens.hide }));
    expect(screen.queryByLabelText(t.apiTokens.newTokenLabel)).toBeNull();
    expect(document.body.innerHTML).not.toContain(secret);
    expect(screen.getByText('публікація з n8n')).toBeInTheDocument();
  });

  it("shows the server's refusal of a 21st token and keeps what was typed", async () => {
    const user = userEvent.setup();
    answerApi({
      'GET /tokens': { data: [] },
      'POST /tokens': () => {
        throw new ApiError(409, [t.apiTokens.tooMany(20)]);
      },
    });
    renderScreen(<ApiTokensScreen />, { path: '/setting/tokens' });
    await screen.findByText(t.app.nothingFound);
    await user.type(screen.getByLabelText(t.apiTokens.name), 'звіти');
    await user.click(screen.getByRole('button', { name: t.apiTokens.submit }));
    expect(await screen.findByText(t.apiTokens.tooMany(20))).toBeInTheDocument();
    expect(screen.getByLabelText(t.apiTokens.name)).toHaveValue('звіти');
    expect(screen.queryByLabelText(t.apiTokens.newTokenLabel)).toBeNull();
  });

  it('says why the list could not be read, and reads it again when asked', async () => {
    const user = userEvent.setup();
    let down = true;
    answerApi({
      'GET /tokens': () => {
        if (down) throw new ApiError(503, [t.server.notReady]);
        return { data: [reports] };
      },
    });
    renderScreen(<ApiTokensScreen />, { path: '/setting/tokens' });
    expect(await screen.findByText(t.server.notReady)).toBeInTheDocument();
    down = false;
    await user.click(screen.getByRole('button', { name: t.apiTokens.reload }));
    expect(await screen.findByText('звіти')).toBeInTheDocument();
    expect(screen.queryByText(t.server.notReady)).toBeNull();
  });

  it('revokes a token after asking, and reads the list again', async () => {
    const user = userEvent.setup();
    let listed: ApiToken[] = [reports, old];
    const revoked: string[] = [];
    answerApi({
      'GET /tokens': () => ({ data: listed }),
      'DELETE /tokens/3': () => {
        revoked.push('3');
        listed = [old];
      },
    });
    renderScreen(<ApiTokensScreen />, { path: '/setting/tokens' });
    await user.click(await screen.findByRole('button', { name: t.apiTokens.revokeLabel('звіти') }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(t.apiTokens.revokeConsequence)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: t.apiTokens.revoke }));

    expect(await screen.findByText(t.apiTokens.revoked)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('звіти')).toBeNull());
    expect(revoked).toEqual(['3']);
    expect(screen.getByText('старий скрипт')).toBeInTheDocument();
  });
});
