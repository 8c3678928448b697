import { describe, expect, it } from 'vitest';
import { issueSandboxToken } from '../../server/sandbox/index';
import type { Platform } from '../../server/platforms/types';
import { bearer, control, jsonPost, useSandbox, type SandboxEnv } from './sandbox-helpers';

/** Who the token's account is, in the platform's own answer: the names a tester sees and copies. */
async function shownBy(env: SandboxEnv, platform: Platform, token: string): Promise<{ status: number; names: string[] }> {
  if (platform === 'tiktok') {
    const answer = await fetch(`${env.base}/open.tiktokapis.com/v2/post/publish/creator_info/query/`, jsonPost({}, token));
    if (answer.status !== 200) return { status: answer.status, names: [] };
    const { creator_nickname: nickname, creator_username: username } = (await answer.json()).data;
    // The back office shows a TikTok connection as "nickname (@username)".
    return { status: 200, names: [nickname, username, `@${username}`, `${nickname} (@${username})`] };
  }
  if (platform === 'youtube') {
    const answer = await fetch(`${env.base}/www.googleapis.com/youtube/v3/channels?part=snippet&mine=true`, bearer(token));
    if (answer.status !== 200) return { status: answer.status, names: [] };
    return { status: 200, names: [(await answer.json()).items[0].snippet.title] };
  }
  const answer = await fetch(`${env.base}/graph.facebook.com/v21.0/me?fields=id,username,name&access_token=${token}`);
  if (answer.status !== 200) return { status: answer.status, names: [] };
  const { username, name } = await answer.json();
  return { status: 200, names: [username, `@${username}`, name] };
}

const revoke = (env: SandboxEnv, platform: Platform, account: string) => control(env, '/_revoke', jsonPost({ platform, account }));

describe("The sandbox's debug endpoints take an account by the name the platform shows, or by its key", () => {
  const env = useSandbox();

  for (const platform of ['tiktok', 'youtube', 'instagram'] as const) {
    it(`${platform}: /_revoke takes each name the platform shows for an account, or its key, and its tokens are refused from then on`, async () => {
      const kinds = (await shownBy(env(), platform, issueSandboxToken(platform, `probe.${platform}`))).names.length + 1;
      expect(kinds).toBeGreaterThan(1);
      for (let kind = 0; kind < kinds; kind++) {
        // One account per way of naming it, so each revocation is the work of that name alone.
        const login = `Olena.K${kind}-${platform}`;
        const token = issueSandboxToken(platform, login);
        const shown = await shownBy(env(), platform, token);
        expect(shown.status).toBe(200);
        const name = kind < shown.names.length ? shown.names[kind]! : Buffer.from(login).toString('base64url');
        expect((await revoke(env(), platform, name)).status, name).toBe(204);
        expect((await shownBy(env(), platform, token)).status, name).not.toBe(200);
      }
    });
  }

  it('answers 404 for an account it has not met, by name or by key, and revokes nobody', async () => {
    const token = issueSandboxToken('tiktok', 'known.one');
    expect((await shownBy(env(), 'tiktok', token)).status).toBe(200);
    for (const unknown of ['nobody', Buffer.from('nobody').toString('base64url'), 'sandbox_nobody', 'Тестовий акаунт known.one']) {
      const answer = await revoke(env(), 'tiktok', unknown);
      expect(answer.status, unknown).toBe(404);
      expect((await answer.json()).message).toContain(unknown);
    }
    // Another platform's account is no account of this one.
    expect((await revoke(env(), 'youtube', 'known.one')).status).toBe(404);
    expect((await shownBy(env(), 'tiktok', token)).status).toBe(200);
  });
});
