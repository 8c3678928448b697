import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api, ApiError } from '../../src/lib/api';
import { t } from '../../server/messages';
import { answerApi, renderScreen } from './render';
import { deliveries, telegramOff, webhook } from './alerts-fixtures';

vi.mock('../../src/lib/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/lib/api')>()),
  api: vi.fn(),
}));

const { SettingsScreen } = await import('../../src/screens/settings/settings-screen');

afterEach(() => {
  vi.mocked(api).mockReset();
});

const telegramCard = () => screen.getByRole('region', { name: t.telegram.title });
const webhooksCard = () => screen.getByRole('region', { name: t.webhooks.title });
const sent = (method: string) => vi.mocked(api).mock.calls.filter(([called]) => called === method);

describe('settings: Telegram', () => {
  it('says there is no bot when the server has none, and offers nothing to press', async () => {
    answerApi({ 'GET /telegram': { ...telegramOff, available: false, bot: null }, 'GET /webhooks': { data: [] } });
    renderScreen(<SettingsScreen />, { path: '/setting' });
    await within(telegramCard()).findByText(t.telegram.unavailable);
    expect(within(telegramCard()).queryByRole('button')).toBeNull();
  });

  it('shows the one-time code with a link that opens the bot, then the chat once the bot has it', async () => {
    let bound = false;
    const connecting = {
      ...telegramOff,
      state: 'connecting',
      code: 'ABCD2345',
      codeExpiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
      link: 'https://t.me/shorts_office_bot?start=ABCD2345',
    };
    answerApi({
      'GET /telegram': () =>
        bound ? { ...telegramOff, state: 'connected', chatName: '@team_lead' } : sent('POST').length > 0 ? connecting : telegramOff,
      'POST /telegram/code': connecting,
      'GET /webhooks': { data: [] },
    });
    renderScreen(<SettingsScreen />, { path: '/setting' });
    await userEvent.click(await within(telegramCard()).findByRole('button', { name: t.telegram.connect }));

    await within(telegramCard()).findByText(t.telegram.sendCode('shorts_office_bot'));
    expect(within(telegramCard()).getByLabelText(t.telegram.code).textContent).toBe('ABCD2345');
    const link = within(telegramCard()).getByRole('link', { name: t.telegram.openBot });
    expect(link.getAttribute('href')).toBe('https://t.me/shorts_office_bot?start=ABCD2345');
    expect(link.getAttribute('rel')).toBe('noreferrer');

    bound = true;
    await within(telegramCard()).findByText(t.telegram.connectedTo('@team_lead'), {}, { timeout: 5000 });
    await screen.findByText(t.telegram.connected);
    expect(within(telegramCard()).getByRole('button', { name: t.telegram.disconnect })).toBeTruthy();
  });

  it('sends what was ticked, and warns when Telegram stopped delivering to the chat', async () => {
    const saved: unknown[] = [];
    answerApi({
      'GET /telegram': { ...telegramOff, state: 'connected', chatName: '@team_lead', failure: 'blocked' },
      'PUT /telegram': (body: unknown) => (
        saved.push(body),
        { ...telegramOff, state: 'connected', chatName: '@team_lead', ...(body as object) }
      ),
      'GET /webhooks': { data: [] },
    });
    renderScreen(<SettingsScreen />, { path: '/setting' });
    await within(telegramCard()).findByText(t.telegram.blocked);
    const user = userEvent.setup();
    await user.click(within(telegramCard()).getByRole('checkbox', { name: t.telegram.events['post.held'] }));
    await user.click(within(telegramCard()).getByRole('checkbox', { name: t.telegram.digest }));
    await user.click(within(telegramCard()).getByRole('button', { name: t.telegram.save }));

    await screen.findByText(t.telegram.saved);
    expect(saved).toEqual([{ events: ['post.failed', 'grant.revoked', 'profile.unhealthy'], digest: false }]);
    expect((within(telegramCard()).getByRole('checkbox', { name: t.telegram.events['post.held'] }) as HTMLInputElement).checked).toBe(
      false,
    );
  });
});

describe('settings: Telegram test message', () => {
  it('sends the connected chat a test message and says in words what Telegram did', async () => {
    const outcomes = ['sent', 'unreachable'];
    answerApi({
      'GET /telegram': { ...telegramOff, state: 'connected', chatName: '@team_lead' },
      'POST /telegram/test': () => ({ outcome: outcomes.shift() }),
      'GET /webhooks': { data: [] },
    });
    renderScreen(<SettingsScreen />, { path: '/setting' });
    const user = userEvent.setup();
    await user.click(await within(telegramCard()).findByRole('button', { name: t.alertTests.send }));
    await within(telegramCard()).findByText(t.alertTests.telegramSent('@team_lead'));
    // Said where a screen reader hears it, not only shown.
    expect(
      within(telegramCard())
        .getAllByRole('status')
        .map((line) => line.textContent),
    ).toContain(t.alertTests.telegramSent('@team_lead'));

    await user.click(within(telegramCard()).getByRole('button', { name: t.alertTests.send }));
    await within(telegramCard()).findByText(t.alertTests.telegramUnreachable);
    expect(within(telegramCard()).queryByText(t.alertTests.telegramSent('@team_lead'))).toBeNull();
    expect(sent('POST').map(([, path]) => path)).toEqual(['/telegram/test', '/telegram/test']);
  });

  it('shows the chat as refused when Telegram refused the test', async () => {
    let tested = false;
    answerApi({
      'GET /telegram': () => ({ ...telegramOff, state: 'connected', chatName: '@team_lead', failure: tested ? 'blocked' : null }),
      'POST /telegram/test': () => ((tested = true), { outcome: 'blocked' }),
      'GET /webhooks': { data: [] },
    });
    renderScreen(<SettingsScreen />, { path: '/setting' });
    await userEvent.click(await within(telegramCard()).findByRole('button', { name: t.alertTests.send }));
    await within(telegramCard()).findByText(t.telegram.blocked);
  });

  it('links the code to where the server says: the sandbox’s chat page in sandbox mode', async () => {
    answerApi({
      'GET /telegram': {
        ...telegramOff,
        state: 'connecting',
        code: 'ABCD2345',
        codeExpiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
        link: '/sandbox/t.me/shorts_office_sandbox_bot?start=ABCD2345',
      },
      'GET /webhooks': { data: [] },
    });
    renderScreen(<SettingsScreen />, { path: '/setting' });
    const link = await within(telegramCard()).findByRole('link', { name: t.telegram.openBot });
    expect(link.getAttribute('href')).toBe('/sandbox/t.me/shorts_office_sandbox_bot?start=ABCD2345');
  });
});

describe('settings: a webhook’s test and edit', () => {
  it('sends a test event and says beside the webhook what its address answered', async () => {
    const answers = [
      { delivered: true, status: 200, error: null },
      { delivered: false, status: 404, error: 'status' },
      { delivered: false, status: null, error: 'timeout' },
    ];
    answerApi({
      'GET /telegram': telegramOff,
      'GET /webhooks': { data: [webhook] },
      'POST /webhooks/7/test': () => answers.shift(),
    });
    renderScreen(<SettingsScreen />, { path: '/setting' });
    const user = userEvent.setup();
    const button = await within(webhooksCard()).findByRole('button', { name: t.alertTests.sendWebhook(webhook.url) });
    const item = button.closest('li')!;
    await user.click(button);
    await within(item).findByText(t.alertTests.delivered(200));
    await user.click(button);
    await within(item).findByText(t.alertTests.answered(404));
    await user.click(button);
    await within(item).findByText(t.alertTests.notDelivered.timeout!);
    expect(within(item).getByRole('status').textContent).toBe(t.alertTests.notDelivered.timeout);
  });

  it('edits a webhook’s URL and events by the form’s rules, sending no secret, and closes the form once saved', async () => {
    const patched: unknown[] = [];
    answerApi({
      'GET /telegram': telegramOff,
      'GET /webhooks': () => ({ data: [patched.length > 0 ? { ...webhook, ...(patched[0] as object) } : webhook] }),
      'PATCH /webhooks/7': (body: unknown) => (patched.push(body), { ...webhook, ...(body as object) }),
    });
    renderScreen(<SettingsScreen />, { path: '/setting' });
    const user = userEvent.setup();
    const toggle = await within(webhooksCard()).findByRole('button', { name: t.alertTests.editWebhook(webhook.url) });
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const form = within(webhooksCard()).getByRole('form', { name: t.alertTests.editTitle });
    const url = within(form).getByLabelText(t.webhooks.url) as HTMLInputElement;
    expect(url.value).toBe(webhook.url);
    expect(within(form).getByText(t.alertTests.secretKept)).toBeTruthy();
    expect(within(form).queryByLabelText(t.webhooks.secret)).toBeNull();

    await user.clear(url);
    await user.type(url, 'ftp://elsewhere.example.com');
    for (const event of webhook.events) await user.click(within(form).getByRole('checkbox', { name: t.alertEvents[event] }));
    await user.click(within(form).getByRole('button', { name: t.alertTests.saveEdit }));
    await within(form).findByText(t.webhooks.urlInvalid);
    expect(within(form).getByText(t.webhooks.eventsRequired)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(url));
    expect(patched).toEqual([]);

    await user.clear(url);
    await user.type(url, ' https://hooks.example.com/new ');
    await user.click(within(form).getByRole('checkbox', { name: t.alertEvents['grant.revoked'] }));
    await user.click(within(form).getByRole('button', { name: t.alertTests.saveEdit }));
    await screen.findByText(t.alertTests.updated);
    expect(patched).toEqual([{ url: 'https://hooks.example.com/new', events: ['grant.revoked'] }]);
    await within(webhooksCard()).findByText('https://hooks.example.com/new');
    await waitFor(() => expect(within(webhooksCard()).queryByRole('form', { name: t.alertTests.editTitle })).toBeNull());
  });
});

describe('settings: webhooks', () => {
  it('refuses the form by its rules, focusing the first wrong field, and sends nothing', async () => {
    answerApi({ 'GET /telegram': telegramOff, 'GET /webhooks': { data: [] } });
    renderScreen(<SettingsScreen />, { path: '/setting' });
    await within(webhooksCard()).findByText(t.webhooks.empty);
    const user = userEvent.setup();
    await user.type(within(webhooksCard()).getByLabelText(t.webhooks.url), 'ftp://files.example.com');
    // A new webhook comes with every problem ticked (issue 40.9): untick them all.
    for (const event of ['post.failed', 'post.held', 'profile.unhealthy', 'grant.revoked'] as const) {
      const box = within(webhooksCard()).getByRole('checkbox', { name: t.alertEvents[event] }) as HTMLInputElement;
      expect(box.checked).toBe(true);
      await user.click(box);
    }
    expect((within(webhooksCard()).getByRole('checkbox', { name: t.alertEvents['post.published'] }) as HTMLInputElement).checked).toBe(
      false,
    );
    await user.type(within(webhooksCard()).getByLabelText(t.webhooks.secret), 'short');
    await user.click(within(webhooksCard()).getByRole('button', { name: t.webhooks.add }));

    await within(webhooksCard()).findByText(t.webhooks.urlInvalid);
    expect(within(webhooksCard()).getByText(t.webhooks.eventsRequired)).toBeTruthy();
    expect(within(webhooksCard()).getByText(t.webhooks.secretTooShort)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(webhooksCard()).getByLabelText(t.webhooks.url)));
    // Long enough, but a whsec_ secret whose key is no base64 of 24 to 64 bytes (Standard Webhooks).
    const secretField = within(webhooksCard()).getByLabelText(t.webhooks.secret);
    await user.clear(secretField);
    await user.type(secretField, 'whsec_typed-by-hand-not-base64');
    await user.click(within(webhooksCard()).getByRole('button', { name: t.webhooks.add }));
    await within(webhooksCard()).findByText(t.webhooks.standardSecretInvalid);
    expect(sent('POST')).toEqual([]);
  });

  it('adds a webhook with a generated secret, says so, empties the form and lists it', async () => {
    const posted: { url: string; events: string[]; secret: string }[] = [];
    answerApi({
      'GET /telegram': telegramOff,
      'GET /webhooks': () => ({
        data: posted.length > 0 ? [{ ...webhook, url: posted[0]!.url, events: posted[0]!.events, lastDelivery: null }] : [],
      }),
      'POST /webhooks': (body: unknown) => (posted.push(body as (typeof posted)[number]), webhook),
    });
    renderScreen(<SettingsScreen />, { path: '/setting' });
    const user = userEvent.setup();
    await user.type(await within(webhooksCard()).findByLabelText(t.webhooks.url), '  https://n8n.example.com/webhook/shorts ');
    await user.click(within(webhooksCard()).getByRole('checkbox', { name: t.alertEvents['post.published'] }));
    await user.click(within(webhooksCard()).getByRole('button', { name: t.webhooks.generateSecret }));
    const secret = (within(webhooksCard()).getByLabelText(t.webhooks.secret) as HTMLInputElement).value;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await user.click(within(webhooksCard()).getByRole('button', { name: t.webhooks.add }));

    await screen.findByText(t.webhooks.added);
    expect(posted).toEqual([
      {
        url: 'https://n8n.example.com/webhook/shorts',
        events: ['post.failed', 'post.held', 'profile.unhealthy', 'grant.revoked', 'post.published'],
        secret,
      },
    ]);
    await within(webhooksCard()).findByText('https://n8n.example.com/webhook/shorts');
    expect(within(webhooksCard()).getByText(t.webhooks.neverDelivered)).toBeTruthy();
    await waitFor(() => expect((within(webhooksCard()).getByLabelText(t.webhooks.url) as HTMLInputElement).value).toBe(''));
    expect((within(webhooksCard()).getByLabelText(t.webhooks.secret) as HTMLInputElement).value).toBe('');
  });

  it("shows the server's refusal of an address, keeping what was typed", async () => {
    answerApi({
      'GET /telegram': telegramOff,
      'GET /webhooks': { data: [] },
      'POST /webhooks': () => {
        throw new ApiError(400, [t.webhooks.addressRefused]);
      },
    });
    renderScreen(<SettingsScreen />, { path: '/setting' });
    const user = userEvent.setup();
    await user.type(await within(webhooksCard()).findByLabelText(t.webhooks.url), 'https://10.0.0.5/hook');
    await user.type(within(webhooksCard()).getByLabelText(t.webhooks.secret), 'a-secret-of-enough-length');
    await user.click(within(webhooksCard()).getByRole('button', { name: t.webhooks.add }));
    await screen.findByText(t.webhooks.addressRefused);
    expect((within(webhooksCard()).getByLabelText(t.webhooks.url) as HTMLInputElement).value).toBe('https://10.0.0.5/hook');
  });

  it('opens a webhook’s delivery log with each delivery’s state, last answer and next attempt, and deletes it after asking', async () => {
    let removed = false;
    answerApi({
      'GET /telegram': telegramOff,
      'GET /webhooks': () => ({ data: removed ? [] : [webhook] }),
      'GET /webhooks/7/deliveries': { data: deliveries },
      'DELETE /webhooks/7': () => void (removed = true),
    });
    renderScreen(<SettingsScreen />, { path: '/setting' });
    await within(webhooksCard()).findByText(webhook.url);
    expect(within(webhooksCard()).getByText(`${t.alertEvents['post.failed']}, ${t.alertEvents['post.published']}`)).toBeTruthy();
    const user = userEvent.setup();
    const toggle = within(webhooksCard()).getByRole('button', { name: t.webhooks.showDeliveries });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');

    const table = await within(webhooksCard()).findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      [
        t.alertEvents['post.failed'],
        `${t.webhooks.states.pending}${t.webhooks.nextAttempt('22.11.2026 11:31')}`,
        `${t.webhooks.status(503)}Service Unavailable`,
        '2',
        '22.11.2026 11:29',
      ],
      [t.alertEvents['post.published'], t.webhooks.states.delivered, `${t.webhooks.status(200)}ok`, '1', '22.11.2026 10:00'],
    ]);

    await user.click(within(webhooksCard()).getByRole('button', { name: t.webhooks.remove(webhook.url) }));
    await user.click(screen.getByRole('button', { name: t.app.delete }));
    await screen.findByText(t.webhooks.deleted);
    await within(webhooksCard()).findByText(t.webhooks.empty);
    expect(sent('DELETE').map(([, path]) => path)).toEqual(['/webhooks/7']);
  });
});
