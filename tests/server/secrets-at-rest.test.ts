import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, logRedactions, logSerializers } from '../../server/app';
import { connectDatabase, type Database } from '../../server/db/connect';
import { migrate } from '../../server/db/migrate';
import { decryptSecret, encryptSecret, SecretUnreadableError } from '../../server/auth/secrets';
import { deriveKeys } from '../../server/auth/keys';
import { createUser, testMedia, testPlatformSettings, testSecretKey, testTokenSettings, type TestEnv } from './helpers';
import { emptyAccount } from './backoffice-fixtures';
import { startLoopbackProxy, type LoopbackProxy } from '../../server/platforms/sandbox/loopback-proxy';

describe('secret encryption', () => {
  const key = deriveKeys(testSecretKey).secretsAtRest;
  const slot = { table: 'accounts', rowId: 7, column: 'tiktok_auth_str' };

  it('round-trips and never stores the plaintext', () => {
    const stored = encryptSecret(key, slot, 'tt-access');
    expect(stored).not.toContain('tt-access');
    expect(stored).not.toBe(encryptSecret(key, slot, 'tt-access'));
    expect(decryptSecret(key, slot, stored)).toBe('tt-access');
  });

  it('refuses a value moved to another row or column, or read with another key', () => {
    const stored = encryptSecret(key, slot, 'tt-access');
    expect(() => decryptSecret(key, { ...slot, rowId: 8 }, stored)).toThrow(SecretUnreadableError);
    expect(() => decryptSecret(key, { ...slot, column: 'instagram_password' }, stored)).toThrow(SecretUnreadableError);
    expect(() => decryptSecret(deriveKeys(`${testSecretKey}-other`).secretsAtRest, slot, stored)).toThrow(SecretUnreadableError);
    const parts = stored.split('.');
    const ciphertext = Buffer.from(parts[2], 'base64url');
    ciphertext[0] ^= 1;
    parts[2] = ciphertext.toString('base64url');
    expect(() => decryptSecret(key, slot, parts.join('.'))).toThrow(SecretUnreadableError);
  });
});

/** Every file under `dir`, read whole. */
async function filesUnder(dir: string): Promise<{ file: string; bytes: Buffer }[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return { file, bytes: await fs.readFile(file) };
      }),
  );
}

describe('secrets at rest in an on-disk database and in the logs', () => {
  const secrets = {
    YouTubeAuthClientSecret: 'needle-client-secret-4f1c',
    YouTubePassword: 'needle-youtube-password-9a2e',
    InstagramPassword: 'needle-instagram-password-7b3d',
    InstagramAccessToken: 'needle-instagram-token-5e1a',
    TikTiokAuthStr: 'needle-tiktok-access-2c8f',
  };
  let dataDir: string;
  let db: Database;
  let env: TestEnv;
  let proxy: LoopbackProxy;
  let logs = '';

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'secrets-at-rest-'));
    db = await connectDatabase({ dataDir });
    await migrate(db);
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logs += chunk;
        done();
      },
    });
    // The production logger's settings, at the most talkative level.
    const logger = pino({ level: 'trace', redact: logRedactions, serializers: logSerializers }, logStream);
    const tokenSettings = testTokenSettings();
    const mediaDir = path.join(dataDir, 'media');
    const media = testMedia(mediaDir);
    const app = await buildApp({ db, keys: tokenSettings.keys, tokenSettings, queue: null, media, logger });
    env = { kind: 'pglite', db, app, tokenSettings, media, mediaDir, queue: null, platforms: testPlatformSettings() };
    proxy = await startLoopbackProxy();
  });

  afterAll(async () => {
    await proxy?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('finds no secret in the database files or the logs after a full round of use', async () => {
    const baseUrl = await env.app.listen({ port: 0, host: '127.0.0.1' });
    const user = await createUser(env, 'operator');
    const fields = {
      ...emptyAccount,
      ...secrets,
      proxy: proxy.url,
      isActiveYouTube: true,
      YouTubeAuthClientId: 'client.apps.googleusercontent.com',
      isActiveInstagram: true,
      InstagramLogin: 'shop',
      isActiveTikTok: true,
    };
    const created = await env.app.inject({ method: 'POST', url: '/api/accounts', headers: user.headers, payload: fields });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    await env.app.inject({ method: 'PATCH', url: `/api/accounts/${id}`, headers: user.headers, payload: { ...fields, comments: 'edited' } });
    const refused = await env.app.inject({ method: 'PATCH', url: `/api/accounts/${id}`, headers: user.headers, payload: { ...fields, YouTubeAuthClientId: '' } });
    expect(refused.statusCode).toBe(400);
    const detail = await env.app.inject({ url: `/api/accounts/${id}`, headers: user.headers });
    expect(Object.values(detail.json().savedSecrets).filter(Boolean)).toHaveLength(Object.keys(secrets).length);

    const connect = await fetch(`${baseUrl}/api/accounts/connect-youtube/${id}`, { method: 'POST', headers: user.headers });
    const consent = await fetch(((await connect.json()) as { url: string }).url, { redirect: 'manual' });
    const callbackUrl = consent.headers.get('location')!;
    const code = new URL(callbackUrl).searchParams.get('code')!;
    const landed = await fetch(callbackUrl, { redirect: 'manual' });
    expect(landed.headers.get('location')).toBe(`/accounts/${id}?youtube=connected`);
    const { rows } = await db.sql('SELECT youtube_refresh_token FROM accounts WHERE id = $1', [id]);
    const refreshToken = decryptSecret(
      env.tokenSettings.keys.secretsAtRest,
      { table: 'accounts', rowId: id, column: 'youtube_refresh_token' },
      rows[0].youtube_refresh_token,
    );

    await env.app.close();
    await db.close();

    const needles = { ...secrets, refreshToken, authorizationCode: code, oauthState: new URL(callbackUrl).searchParams.get('state')! };
    expect(logs).toContain('incoming request');
    expect(logs).toContain('/api/oauth/youtube/callback?code=[Redacted]');
    const files = await filesUnder(path.join(dataDir, 'pglite'));
    // The client_id is not a secret and is stored as it is: finding it proves the search sees the rows.
    expect(files.some(({ bytes }) => bytes.includes('client.apps.googleusercontent.com'))).toBe(true);
    const found: string[] = [];
    for (const [name, needle] of Object.entries(needles)) {
      if (logs.includes(needle)) found.push(`${name} in the logs`);
      for (const { file, bytes } of files) if (bytes.includes(needle)) found.push(`${name} in ${file}`);
    }
    expect(found).toEqual([]);
  });
});
