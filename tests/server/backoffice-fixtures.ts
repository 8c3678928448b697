import { expect } from 'vitest';
import type { AccountDetail, AccountFields, PostOptions } from '../../src/lib/contract';
import { emptyAccountForm } from '../../src/lib/schemas';
import { issueSandboxToken } from '../../server/sandbox/index';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';
import type { createUser, SandboxServer, TestEnv } from './helpers';

export type TestUser = Awaited<ReturnType<typeof createUser>>;

/** The profile form with every platform off and a proxy: valid as it is. */
export const emptyAccount: AccountFields = { ...emptyAccountForm, proxy: '127.0.0.1:8080' };

export async function createAccount(env: TestEnv, user: TestUser, fields: Partial<AccountFields> = {}): Promise<AccountDetail> {
  const response = await env.app.inject({
    method: 'POST',
    url: '/api/accounts',
    headers: user.headers,
    payload: { ...emptyAccount, ...fields },
  });
  expect(response.statusCode, response.body).toBe(201);
  const account: AccountDetail = response.json();
  await rememberChoices(env, account.id);
  return account;
}

type SandboxPlatform = 'youtube' | 'tiktok' | 'instagram';

/**
 * A profile's fields on the sandbox's `platforms` behind `proxy`. Both database runs share the
 * sandbox and its video ids: the platform accounts are named after `name` and the run's kind, so
 * each run has its own.
 */
export function sandboxProfileFields(
  env: TestEnv,
  name: string,
  proxy: string,
  platforms: SandboxPlatform[] = ['youtube', 'tiktok', 'instagram'],
): Partial<AccountFields> {
  const label = `${name}-${env.kind}`;
  const fieldsOf = {
    youtube: {
      isActiveYouTube: true,
      YouTubeAuthClientId: `${label}.apps.googleusercontent.com`,
      YouTubeAuthClientSecret: 'client-secret',
    },
    tiktok: { isActiveTikTok: true, TikTiokAuthStr: issueSandboxToken('tiktok', `${label}@tiktok`) },
    instagram: { isActiveInstagram: true, InstagramLogin: `${label}.insta`, InstagramPassword: 'instagram-password' },
  };
  return Object.assign({ proxy, comments: label }, ...platforms.map((platform) => fieldsOf[platform]));
}

/**
 * A profile of `user` on the sandbox (sandboxProfileFields, behind `proxy`: the sandbox's loopback
 * proxy unless a test names another), its YouTube connected by following the consent link.
 */
export async function connectedProfile(
  env: TestEnv,
  network: SandboxServer,
  user: TestUser,
  name: string,
  { proxy = network.proxy.url, platforms }: { proxy?: string; platforms?: SandboxPlatform[] } = {},
): Promise<AccountDetail> {
  const account = await createAccount(env, user, sandboxProfileFields(env, name, proxy, platforms));
  const link = await fetch(`${network.baseUrl}/api/accounts/connect-youtube/${account.id}`, { method: 'POST', headers: user.headers });
  expect(new URL((await answerSandboxConsent(link)).url).search).toBe('?youtube=connected');
  return account;
}

/**
 * The operator's remembered choices for a profile (PUT /api/posting-rules/{id} stores the same
 * rows), so a SPEC-shaped publish without `options` has the choices TikTok and YouTube require.
 * SELF_ONLY is the one privacy level TikTok's creator_info offers every account.
 */
export async function rememberChoices(env: TestEnv, accountId: number, choices: PostOptions = rememberedChoices) {
  for (const [platform, options] of Object.entries(choices)) {
    await env.db.sql(
      `INSERT INTO posting_defaults (account_id, platform, options) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (account_id, platform) DO UPDATE SET options = EXCLUDED.options`,
      [accountId, platform, JSON.stringify(options)],
    );
  }
}

export const rememberedChoices: PostOptions = {
  tiktok: { privacyLevel: 'SELF_ONLY', disableComment: false, disableDuet: false, disableStitch: false },
  youtube: { privacyStatus: 'public', selfDeclaredMadeForKids: false, categoryId: '22' },
};

/** A published video of `userId`, as the media and publishing work will store them. */
export async function insertVideo(env: TestEnv, userId: number, accountId: number | null): Promise<number> {
  const { rows } = await env.db.sql(
    `INSERT INTO creation_requests (id_upload, user_id, count_video, source_key) VALUES (gen_random_uuid(), $1, 1, 'source') RETURNING id`,
    [userId],
  );
  const video = await env.db.sql(
    `INSERT INTO videos (request_id, user_id, account_id, position, status, url_youtube)
     VALUES ($1, $2, $3, 0, 'success', 'https://youtu.be/x') RETURNING id`,
    [rows[0].id, userId, accountId],
  );
  return video.rows[0].id as number;
}
