import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { profileConnectMachine, type ProfileConnectEmitted, type ProfileSave } from '../../src/machines/profile-connect-machine';
import { apiDouble, recordToasts } from './api-double';

let shown: string[];

beforeEach(() => {
  shown = [];
  recordToasts(shown);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const newProfile: ProfileSave = {
  method: 'POST',
  path: '/accounts',
  body: { proxy: 'http://127.0.0.1:3001' },
  successText: 'Профіль створено',
};

function start() {
  const actor = createActor(profileConnectMachine);
  const emitted: ProfileConnectEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, emitted };
}

describe("profile connect machine ('Підключити …' on the profile form)", () => {
  it("saves a new profile first, then asks for the platform's consent page of the profile it made, and stays while the browser goes", async () => {
    const asked = apiDouble((request) =>
      request.startsWith('POST /api/accounts ')
        ? { status: 201, body: { id: 7 } }
        : { body: { url: 'http://127.0.0.1:3000/sandbox/tiktok/consent?x=1' } },
    );
    const { actor, emitted } = start();
    actor.send({ type: 'connect', request: { platform: 'tiktok', save: newProfile } });
    expect(actor.getSnapshot().value).toBe('saving');
    await waitFor(actor, (snapshot) => snapshot.matches('leaving'));
    expect(asked).toEqual([`POST /api/accounts ${JSON.stringify(newProfile.body)}`, 'POST /api/accounts/connect-tiktok/7']);
    expect(emitted).toEqual([{ type: 'consent', url: 'http://127.0.0.1:3000/sandbox/tiktok/consent?x=1' }]);
    expect(shown).toEqual([]);
  });

  it('asks a saved profile with nothing to save for its consent page at once', async () => {
    const asked = apiDouble(() => ({ body: { url: 'https://accounts.google.com/o/oauth2/v2/auth?x=1' } }));
    const { actor, emitted } = start();
    actor.send({ type: 'connect', request: { platform: 'youtube', accountId: 3 } });
    expect(actor.getSnapshot().value).toBe('linking');
    await waitFor(actor, (snapshot) => snapshot.matches('leaving'));
    expect(asked).toEqual(['POST /api/accounts/connect-youtube/3']);
    expect(emitted).toEqual([{ type: 'consent', url: 'https://accounts.google.com/o/oauth2/v2/auth?x=1' }]);
  });

  it("keeps the form when the save is refused, saying the server's words, and asks for no consent page", async () => {
    const asked = apiDouble(() => ({ status: 400, body: { message: ['Проксі обовʼязковий'] } }));
    const { actor, emitted } = start();
    actor.send({ type: 'connect', request: { platform: 'tiktok', save: newProfile } });
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    expect(asked).toHaveLength(1);
    expect(shown).toEqual(['error Проксі обовʼязковий']);
    expect(emitted).toEqual([]);
  });

  it('says the profile was saved, and why the consent page is missing, when only the link fails after a save', async () => {
    apiDouble((request) =>
      request.startsWith('POST /api/accounts ')
        ? { status: 201, body: { id: 9 } }
        : { status: 502, body: { message: 'TikTok не відповідає' } },
    );
    const { actor, emitted } = start();
    actor.send({ type: 'connect', request: { platform: 'tiktok', save: newProfile } });
    await waitFor(actor, (snapshot) => snapshot.matches('idle') && emitted.length > 0);
    expect(shown).toEqual(['success Профіль створено', 'error TikTok не відповідає']);
    expect(emitted).toEqual([{ type: 'saved', accountId: 9 }]);
  });

  it('words a lost connection to the link in its own sentence, and tells no save when there was none; a second press goes out again', async () => {
    const asked = apiDouble(() => Promise.reject(new TypeError('Failed to fetch')));
    const { actor, emitted } = start();
    actor.send({ type: 'connect', request: { platform: 'instagram', accountId: 4 } });
    await waitFor(actor, (snapshot) => snapshot.matches('idle') && shown.length > 0);
    expect(shown).toEqual(['error Не вдалося відкрити сторінку дозволу Instagram: спробуйте ще раз']);
    expect(emitted).toEqual([]);
    actor.send({ type: 'connect', request: { platform: 'instagram', accountId: 4 } });
    await waitFor(actor, (snapshot) => snapshot.matches('idle') && shown.length > 1);
    expect(asked).toEqual(['POST /api/accounts/connect-instagram/4', 'POST /api/accounts/connect-instagram/4']);
  });
});
