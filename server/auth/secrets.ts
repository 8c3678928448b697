import crypto from 'node:crypto';
import type { Database } from '../db/connect';
import { t } from '../messages';
import { formatProxy, parseProxy } from '../../src/lib/proxy';

/**
 * Platform secrets at rest: AES-256-GCM under `keys.secretsAtRest`. Each value is bound to the
 * row and column it lives in (associated data), so a ciphertext copied into another row or
 * column fails to open instead of leaking someone else's secret.
 */

export interface SecretSlot {
  table: string;
  rowId: number;
  column: string;
}

const version = 'v1';
const ivLength = 12;

function associatedData({ table, rowId, column }: SecretSlot): Buffer {
  return Buffer.from(`${table}:${rowId}:${column}`, 'utf8');
}

export class SecretUnreadableError extends Error {
  constructor(slot: SecretSlot) {
    super(
      `secret in ${slot.table}.${slot.column} of row ${slot.rowId} cannot be decrypted (another SECRET_KEY, or a value moved between rows)`,
    );
  }
}

export function encryptSecret(key: Buffer, slot: SecretSlot, plaintext: string): string {
  const iv = crypto.randomBytes(ivLength);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(slot));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [version, iv, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export function decryptSecret(key: Buffer, slot: SecretSlot, stored: string): string {
  const [storedVersion, iv, ciphertext, tag] = stored.split('.');
  if (storedVersion !== version || iv === undefined || ciphertext === undefined || tag === undefined) {
    throw new SecretUnreadableError(slot);
  }
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(associatedData(slot));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretUnreadableError(slot);
  }
}

/** Encrypts and decrypts the optional secret columns of one row; empty values are stored as NULL. */
export function secretsOfRow(key: Buffer, table: string, rowId: number) {
  return {
    seal(column: string, value: string | null | undefined): string | null {
      return value ? encryptSecret(key, { table, rowId, column }, value) : null;
    },
    open(column: string, stored: string | null): string | null {
      return stored === null ? null : decryptSecret(key, { table, rowId, column }, stored);
    },
  };
}

/**
 * A profile's proxy as stored: the URL with its user in `accounts.proxy`, which lists and the form
 * may show, and the password apart, sealed in `accounts.proxy_password`.
 */
export function splitProxy(proxy: string): { address: string; password: string | null } {
  const parts = parseProxy(proxy);
  if (!parts) throw new Error(t.accountForm.proxyInvalid);
  return { address: formatProxy({ ...parts, password: '' }), password: parts.password || null };
}

export function joinProxy(address: string, password: string | null): string {
  if (!password) return address;
  const parts = parseProxy(address);
  if (!parts) throw new Error(t.accountForm.proxyInvalid);
  return formatProxy({ ...parts, password });
}

/** The whole proxy of a profile, password included, for the platform calls made through it. */
export function proxyOfAccount(key: Buffer, account: { id: number; proxy: string; proxyPassword: string | null }): string {
  return joinProxy(account.proxy, secretsOfRow(key, 'accounts', account.id).open('proxy_password', account.proxyPassword));
}

/**
 * Seals the proxy passwords that rows from before migration 0007 keep in plain text. Runs at
 * start-up after the migrations, since the SQL migration cannot reach SECRET_KEY; a proxy that
 * cannot be parsed has no password to take out and stays as it is.
 */
export async function sealPlainProxyPasswords(db: Database, key: Buffer): Promise<number> {
  const { rows } = await db.sql('SELECT id, proxy FROM accounts WHERE proxy_password IS NULL', []);
  let sealed = 0;
  for (const row of rows as { id: number; proxy: string }[]) {
    let split: ReturnType<typeof splitProxy>;
    try {
      split = splitProxy(row.proxy);
    } catch {
      continue;
    }
    if (split.password === null) continue;
    await db.sql('UPDATE accounts SET proxy = $2, proxy_password = $3 WHERE id = $1 AND proxy = $4', [
      row.id,
      split.address,
      secretsOfRow(key, 'accounts', row.id).seal('proxy_password', split.password),
      row.proxy,
    ]);
    sealed++;
  }
  return sealed;
}
