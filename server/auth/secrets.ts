import crypto from 'node:crypto';

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
    super(`secret in ${slot.table}.${slot.column} of row ${slot.rowId} cannot be decrypted (another SECRET_KEY, or a value moved between rows)`);
  }
}

export function encryptSecret(key: Buffer, slot: SecretSlot, plaintext: string): string {
  const iv = crypto.randomBytes(ivLength);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(slot));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [version, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
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
