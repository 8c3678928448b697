/**
 * A webhook's signing secret in the Standard Webhooks form: `whsec_` and the base64 of random
 * bytes, 24 at least and 64 at most ("Signature scheme", symmetric row:
 * https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md).
 * A secret without the prefix is one saved before that form (issue 42.2) or chosen by its owner:
 * it still signs, with its UTF-8 bytes as the key (server/alerts/webhooks.ts).
 */

export const standardSecretPrefix = 'whsec_';
const minKeyBytes = 24;
const maxKeyBytes = 64;
const keyBytesGenerated = 32;

/** Standard base64 with its padding, as the spec's verifiers decode it. */
const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A new secret: 32 random bytes, as hard to guess as the HMAC-SHA256 key they become. */
export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(keyBytesGenerated));
  return standardSecretPrefix + btoa(String.fromCharCode(...bytes));
}

/** False for a `whsec_` secret whose key is not base64 of 24 to 64 bytes; true for any other. */
export function isWellFormedSecret(secret: string): boolean {
  if (!secret.startsWith(standardSecretPrefix)) return true;
  const key = secret.slice(standardSecretPrefix.length);
  if (!base64Pattern.test(key)) return false;
  const bytes = (key.length / 4) * 3 - (key.match(/=+$/)?.[0].length ?? 0);
  return bytes >= minKeyBytes && bytes <= maxKeyBytes;
}
