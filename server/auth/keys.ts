import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Independent keys derived from the one SECRET_KEY, so no two purposes share key material. */
export interface Keys {
  /** A key object rather than bytes: jose would import raw bytes again on every request it verifies. */
  accessToken: crypto.KeyObject;
  refreshToken: Buffer;
  mediaUrl: Buffer;
  secretsAtRest: Buffer;
  /** Signs the device cookie of a browser that signed in (server/auth/device-cookie.ts). */
  deviceCookie: Buffer;
  /** Signs the cookie that binds a consent flow to its browser, and YouTube's consent link (server/platforms/consent-cookie.ts). */
  consentCookie: Buffer;
  /** The built-in Google sandbox signs its codes and tokens with this, so they survive a restart. */
  sandboxGoogle: Uint8Array;
}

const secretFileName = 'secret.key';

/** SECRET_KEY when set (the configuration checked its length); otherwise the key kept in DATA_DIR, generated on the first start. */
export async function loadSecretKey(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, secretFileName);
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(dataDir, { recursive: true });
  const generated = crypto.randomBytes(32).toString('base64url');
  // 'wx' so two processes starting together never overwrite each other's key.
  await fs.writeFile(file, generated, { mode: 0o600, flag: 'wx' }).catch(async (error) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
  return (await fs.readFile(file, 'utf8')).trim();
}

export function deriveKeys(secretKey: string): Keys {
  const derive = (purpose: string) => Buffer.from(crypto.hkdfSync('sha256', secretKey, 'shorts-backoffice', purpose, 32));
  return {
    accessToken: crypto.createSecretKey(derive('access-token')),
    refreshToken: derive('refresh-token'),
    mediaUrl: derive('media-url'),
    secretsAtRest: derive('secrets-at-rest'),
    deviceCookie: derive('device-cookie'),
    consentCookie: derive('consent-cookie'),
    sandboxGoogle: new Uint8Array(derive('sandbox-google')),
  };
}
