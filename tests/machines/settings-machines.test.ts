import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { ProfilePostingRules } from '../../src/lib/contract';
import { passwordMachine } from '../../src/machines/password-machine';
import { postingRulesMachine } from '../../src/machines/posting-rules-machine';
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

describe('password machine (Settings)', () => {
  const form = { current_password: 'old-secret', password: 'new-secret-1', password_confirmation: 'new-secret-1' };

  it("POSTs the form to /auth/password, says 'Пароль змінено. Інші сесії завершено.' and tells the screen to empty the form", async () => {
    const asked = apiDouble(() => ({ status: 204 }));
    const actor = createActor(passwordMachine).start();
    expect(actor.getSnapshot().value).toBe('editing');
    actor.send({ type: 'submit', form });
    expect(actor.getSnapshot().value).toBe('saving');
    await waitFor(actor, (snapshot) => snapshot.matches('changed'));
    expect(asked).toEqual([`POST /api/auth/password ${JSON.stringify(form)}`]);
    expect(shown).toEqual(['success Пароль змінено. Інші сесії завершено.']);

    // Another change from the emptied form goes out too.
    actor.send({ type: 'submit', form: { ...form, current_password: 'new-secret-1' } });
    expect(actor.getSnapshot().value).toBe('saving');
    await waitFor(actor, (snapshot) => snapshot.matches('changed'));
    expect(asked).toHaveLength(2);
  });

  it("keeps the form when the server refuses, saying the server's words", async () => {
    const asked = apiDouble(() => ({ status: 400, body: { message: 'Поточний пароль невірний' } }));
    const actor = createActor(passwordMachine).start();
    actor.send({ type: 'submit', form });
    await waitFor(actor, (snapshot) => snapshot.matches('editing') && asked.length === 1);
    await vi.waitFor(() => expect(shown).toEqual(['error Поточний пароль невірний']));
    expect(actor.getSnapshot().value).toBe('editing');
  });
});

const rulesOf = (accountId: number, saved: ProfilePostingRules['saved'] = {}): ProfilePostingRules => ({
  accountId,
  title: `Профіль ${accountId}`,
  platforms: ['youtube', 'tiktok'],
  tiktok: null,
  tiktokError: null,
  saved,
});

describe('posting rules machine (the publish form’s per-platform panel)', () => {
  it('asks nothing for no profiles, and GETs /posting-rules?accountIds=… for the chosen ones', async () => {
    const asked = apiDouble(() => ({ body: { data: [rulesOf(3), rulesOf(5)] } }));
    const actor = createActor(postingRulesMachine, { input: { accountIds: [] } }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(asked).toEqual([]);
    expect(actor.getSnapshot().context).toEqual({ accountIds: [], rules: [], error: null });

    actor.send({ type: 'profiles.changed', accountIds: [3, 5] });
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(asked).toEqual(['GET /api/posting-rules?accountIds=3,5']);
    expect(actor.getSnapshot().context).toEqual({ accountIds: [3, 5], rules: [rulesOf(3), rulesOf(5)], error: null });
  });

  it('shows why the rules could not be read, and clears it once they are', async () => {
    let refuse = true;
    apiDouble(() =>
      refuse ? { status: 502, body: { message: ['TikTok не відповідає', 'Спробуйте пізніше'] } } : { body: { data: [rulesOf(3)] } },
    );
    const actor = createActor(postingRulesMachine, { input: { accountIds: [3] } }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context.error).toBe('TikTok не відповідає; Спробуйте пізніше');
    expect(actor.getSnapshot().context.rules).toEqual([]);

    refuse = false;
    actor.send({ type: 'profiles.changed', accountIds: [3] });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ rules: [rulesOf(3)], error: null });
  });

  it("PUTs the choices to every chosen profile, shows what the server kept and says 'Типові налаштування профілю збережено'", async () => {
    const options = { youtube: { privacyStatus: 'unlisted' as const } };
    const held = heldReply();
    const asked = apiDouble((request) => {
      if (request.startsWith('GET')) return { body: { data: [rulesOf(3), rulesOf(5)] } };
      const id = Number(/\/posting-rules\/(\d+)/.exec(request)![1]);
      return id === 5 ? held.reply : { body: { data: rulesOf(id, options) } };
    });
    const actor = createActor(postingRulesMachine, { input: { accountIds: [3, 5] } }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));

    actor.send({ type: 'defaults.save', options });
    expect(actor.getSnapshot().value).toBe('saving');
    await vi.waitFor(() => expect(asked).toHaveLength(3));
    expect(asked.slice(1)).toEqual([
      `PUT /api/posting-rules/3 ${JSON.stringify(options)}`,
      `PUT /api/posting-rules/5 ${JSON.stringify(options)}`,
    ]);
    expect(actor.getSnapshot().value).toBe('saving');
    held.give({ body: { data: rulesOf(5, options) } });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context.rules).toEqual([rulesOf(3, options), rulesOf(5, options)]);
    expect(shown).toEqual(['success Типові налаштування профілю збережено']);
  });

  it("keeps the rules shown when saving is refused, saying the server's words", async () => {
    apiDouble((request) =>
      request.startsWith('GET')
        ? { body: { data: [rulesOf(3)] } }
        : { status: 400, body: { message: ['Профіль 3 не знайдено', 'Профіль 5 не знайдено'] } },
    );
    const actor = createActor(postingRulesMachine, { input: { accountIds: [3] } }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'defaults.save', options: {} });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    await vi.waitFor(() => expect(shown).toEqual(['error Профіль 3 не знайдено; Профіль 5 не знайдено']));
    expect(actor.getSnapshot().context.rules).toEqual([rulesOf(3)]);
  });
});
