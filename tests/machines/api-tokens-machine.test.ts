import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { ApiToken, CreatedApiToken } from '../../src/lib/contract';
import * as t from '../../src/lib/i18n';
import { apiTokensMachine } from '../../src/machines/api-tokens-machine';
import { apiDouble, heldReply, recordToasts } from './api-double';

let shown: string[];

beforeEach(() => {
  shown = [];
  recordToasts(shown);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const listed: ApiToken = {
  id: 3,
  name: 'звіти',
  scope: 'read',
  createdAt: '2026-01-10T08:00:00.000Z',
  expiresAt: '2026-02-09T08:00:00.000Z',
  lastUsedAt: null,
  expired: false,
};
const made: CreatedApiToken = { id: 4, name: 'n8n', scope: 'publish', expiresAt: '2026-04-10T08:00:00.000Z', token: 'sho_secret' };
const form = { name: 'n8n', scope: 'publish' as const, expiresInDays: 90 };

describe('API tokens machine (Settings → API-токени)', () => {
  it('loads the list, makes a token, keeps it to show through the list read again, and forgets it on hide', async () => {
    const asked = apiDouble((request) => (request.startsWith('POST') ? { status: 201, body: made } : { body: { data: [listed] } }));
    const actor = createActor(apiTokensMachine).start();
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context).toEqual({ tokens: [listed], error: undefined, created: null });

    actor.send({ type: 'create', form });
    expect(actor.getSnapshot().value).toBe('creating');
    await waitFor(actor, (snapshot) => snapshot.matches('loading'));
    expect(actor.getSnapshot().context.created).toEqual(made);
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(asked).toEqual(['GET /api/tokens', `POST /api/tokens ${JSON.stringify(form)}`, 'GET /api/tokens']);
    expect(shown).toEqual(['success Токен створено']);

    actor.send({ type: 'hide' });
    expect(actor.getSnapshot().context.created).toBeNull();
  });

  it("says the server's refusal of a token and shows none", async () => {
    apiDouble((request) =>
      request.startsWith('POST')
        ? { status: 400, body: { message: ['Оператор не може створити токен адміністратора'] } }
        : { body: { data: [] } },
    );
    const actor = createActor(apiTokensMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'create', form: { ...form, scope: 'admin' } });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    await vi.waitFor(() => expect(shown).toEqual(['error Оператор не може створити токен адміністратора']));
    expect(actor.getSnapshot().context.created).toBeNull();
  });

  it('revokes a token and reads the list again, also when the answer is lost', async () => {
    let fail = false;
    const asked = apiDouble((request) => {
      // A lost answer: the connection breaks, so there are no server's words to show.
      if (request.startsWith('DELETE')) return fail ? Promise.reject(new TypeError('Failed to fetch')) : { status: 204 };
      return { body: { data: [] } };
    });
    const actor = createActor(apiTokensMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'revoke', id: 3 });
    expect(actor.getSnapshot().value).toBe('revoking');
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(shown).toEqual(['success Токен відкликано']);

    fail = true;
    actor.send({ type: 'revoke', id: 3 });
    await waitFor(actor, (snapshot) => snapshot.matches('ready') && asked.length === 5);
    expect(asked).toEqual(['GET /api/tokens', 'DELETE /api/tokens/3', 'GET /api/tokens', 'DELETE /api/tokens/3', 'GET /api/tokens']);
    expect(shown[1]).toBe(`error ${t.apiTokens.revokeFailed}`);
  });

  it('copies only a token it shows, and says when the clipboard refuses', async () => {
    apiDouble((request) => (request.startsWith('POST') ? { status: 201, body: made } : { body: { data: [] } }));
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    const actor = createActor(apiTokensMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'copy' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(writeText).not.toHaveBeenCalled();

    actor.send({ type: 'create', form });
    await waitFor(actor, (snapshot) => snapshot.matches('ready') && snapshot.context.created !== null);
    actor.send({ type: 'copy' });
    expect(actor.getSnapshot().value).toBe('copying');
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(writeText).toHaveBeenCalledWith('sho_secret');

    writeText.mockRejectedValueOnce(new Error('denied'));
    actor.send({ type: 'copy' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    await vi.waitFor(() =>
      expect(shown).toEqual([
        'success Токен створено',
        'success Токен скопійовано',
        'error Не вдалося скопіювати: виділіть токен і скопіюйте вручну',
      ]),
    );
  });

  it('shows why the list could not be read, and reads it again on reload', async () => {
    const held = heldReply();
    let reply: Promise<{ status?: number; body?: unknown }> = Promise.resolve({ status: 500, body: { message: 'Внутрішня помилка' } });
    apiDouble(() => reply);
    const actor = createActor(apiTokensMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(actor.getSnapshot().context.error).toBeDefined();
    reply = held.reply;
    actor.send({ type: 'reload' });
    expect(actor.getSnapshot().value).toBe('loading');
    held.give({ body: { data: [listed] } });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ tokens: [listed], error: undefined });
  });
});
