import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, SecretUnreadableError } from '../../server/auth/secrets';
import { deriveKeys } from '../../server/auth/keys';
import { testSecretKey } from './helpers';

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
