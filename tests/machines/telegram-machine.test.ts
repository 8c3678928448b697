import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { TelegramSettings } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { telegramMachine } from '../../src/machines/telegram-machine';
import { apiDouble, recordToasts } from './api-double';

let shown: string[];

beforeEach(() => {
  shown = [];
  recordToasts(shown);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const off: TelegramSettings = {
  available: true,
  bot: 'shorts_office_bot',
  state: 'off',
  code: null,
  codeExpiresAt: null,
  link: null,
  chatName: null,
  failure: null,
  events: ['post.failed', 'post.held', 'grant.revoked', 'profile.unhealthy'],
  digest: true,
};
const connecting: TelegramSettings = {
  ...off,
  state: 'connecting',
  code: 'ABCD2345',
  codeExpiresAt: '2026-11-22T10:15:00.000Z',
  link: 'https://t.me/shorts_office_bot?start=ABCD2345',
};
const connected: TelegramSettings = { ...off, state: 'connected', chatName: '@team_lead' };

// The page looks again after 3 s while the code waits; the test does not wait that long.
const quickMachine = telegramMachine.provide({ delays: { codeCheck: 5 } });

describe('telegram machine (Settings)', () => {
  it('asks for a code, looks again while it waits, and says so once the bot has it', async () => {
    // The machine's pauses run on fake timers: vi.waitFor moves them on, and the test never sleeps.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let issued = false;
    let bound = false;
    const asked = apiDouble((request) => {
      if (request !== 'POST /api/telegram/code') return { body: bound ? connected : issued ? connecting : off };
      issued = true;
      return { status: 201, body: connecting };
    });
    const actor = createActor(quickMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches({ ready: 'still' }));
    expect(actor.getSnapshot().context.settings).toEqual(off);

    actor.send({ type: 'connect' });
    expect(actor.getSnapshot().value).toBe('issuing');
    await waitFor(actor, (snapshot) => snapshot.context.settings?.state === 'connecting');
    // Still waiting: it keeps looking, and says nothing.
    await vi.waitFor(() => expect(asked.filter((request) => request === 'GET /api/telegram').length).toBeGreaterThanOrEqual(3));
    expect(shown).toEqual([]);

    bound = true;
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ ready: 'still' })).toBe(true));
    expect(actor.getSnapshot().context.settings).toEqual(connected);
    expect(shown).toEqual([`success ${t.telegram.connected}`]);
    const looks = asked.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(asked).toHaveLength(looks);
  });

  it('saves what to be told, and says so', async () => {
    const choices = { events: ['post.failed' as const], digest: false };
    const asked = apiDouble((request) => ({ body: request.startsWith('PUT') ? { ...connected, ...choices } : connected }));
    const actor = createActor(quickMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'save', choices });
    expect(actor.getSnapshot().value).toBe('saving');
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(asked).toEqual(['GET /api/telegram', `PUT /api/telegram ${JSON.stringify(choices)}`]);
    expect(actor.getSnapshot().context.settings).toEqual({ ...connected, ...choices });
    expect(shown).toEqual([`success ${t.telegram.saved}`]);
  });

  it('disconnects and reads the settings again; a refusal keeps what is shown and says why', async () => {
    let refuse = true;
    const asked = apiDouble((request) => {
      if (request === 'DELETE /api/telegram') return refuse ? { status: 503, body: { message: 'Сервер не готовий' } } : { status: 204 };
      return { body: asked.includes('DELETE /api/telegram') && !refuse ? off : connected };
    });
    const actor = createActor(quickMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'disconnect' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready') && asked.length === 2);
    expect(actor.getSnapshot().context.settings).toEqual(connected);
    await vi.waitFor(() => expect(shown).toEqual(['error Сервер не готовий']));

    refuse = false;
    actor.send({ type: 'disconnect' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready') && snapshot.context.settings?.state === 'off');
    expect(asked).toEqual(['GET /api/telegram', 'DELETE /api/telegram', 'DELETE /api/telegram', 'GET /api/telegram']);
    expect(shown).toEqual(['error Сервер не готовий', `success ${t.telegram.disconnected}`]);
  });

  it('says why a code could not be issued or the choices saved, keeping what is shown', async () => {
    const asked = apiDouble((request) => {
      if (request === 'POST /api/telegram/code') return { status: 503, body: { message: t.telegram.notConfigured } };
      return request.startsWith('PUT') ? { status: 503, body: { message: 'Сервер не готовий' } } : { body: off };
    });
    const actor = createActor(quickMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'connect' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'save', choices: { events: [], digest: false } });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(asked).toHaveLength(3);
    await vi.waitFor(() => expect(shown).toEqual([`error ${t.telegram.notConfigured}`, 'error Сервер не готовий']));
    expect(actor.getSnapshot().context.settings).toEqual(off);
  });

  it('shows why the settings could not be read, and reads them again when asked', async () => {
    let fail = true;
    apiDouble(() => (fail ? { status: 500, body: { message: 'Внутрішня помилка сервера' } } : { body: off }));
    const actor = createActor(quickMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    fail = false;
    actor.send({ type: 'reload' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context).toEqual({ settings: off, error: undefined, testResult: null });
  });

  it('sends a test message, keeps what Telegram did, and reads the chat again (a refused chat is marked)', async () => {
    let tested = false;
    const asked = apiDouble((request) => {
      if (request === 'POST /api/telegram/test') return ((tested = true), { body: { outcome: 'blocked' } });
      return { body: tested ? { ...connected, failure: 'blocked' } : connected };
    });
    const actor = createActor(quickMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches({ ready: 'still' }));
    actor.send({ type: 'test' });
    expect(actor.getSnapshot().value).toBe('testing');
    await waitFor(actor, (snapshot) => snapshot.matches({ ready: 'still' }) && snapshot.context.settings?.failure === 'blocked');
    expect(actor.getSnapshot().context.testResult).toEqual({ outcome: 'blocked' });
    expect(asked).toEqual(['GET /api/telegram', 'POST /api/telegram/test', 'GET /api/telegram']);

    // A new code is another chat: the last test's outcome is not about it.
    actor.send({ type: 'connect' });
    expect(actor.getSnapshot().context.testResult).toBeNull();
  });

  it('toasts a test the server refused, with its words, and stays ready', async () => {
    apiDouble((request) =>
      request === 'POST /api/telegram/test' ? { status: 409, body: { message: t.alertTests.telegramNotConnected } } : { body: off },
    );
    const actor = createActor(quickMachine).start();
    await waitFor(actor, (snapshot) => snapshot.matches({ ready: 'still' }));
    actor.send({ type: 'test' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(shown).toEqual([`error ${t.alertTests.telegramNotConnected}`]);
    expect(actor.getSnapshot().context.testResult).toBeNull();
  });
});
