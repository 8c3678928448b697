import crypto from 'node:crypto';
import { assertKey } from './storage';

const mediaPathPrefix = '/api/media/';

/**
 * The expiry is rounded up to a whole hour, so the same file keeps the same URL for an hour and
 * the browser's cache and a polling list do not fetch it again on every answer.
 */
const expiryStepSeconds = 60 * 60;

function signature(key: Buffer, mediaKey: string, expires: number): string {
  return crypto.createHmac('sha256', key).update(`${mediaKey}\n${expires}`).digest('base64url');
}

/** A URL a <video>, an <img> or a new tab can open without a Bearer header, valid for about `ttlSeconds`. */
export function signMediaUrl(key: Buffer, mediaKey: string, ttlSeconds: number, now = Date.now()): string {
  const expires = Math.ceil((now / 1000 + ttlSeconds) / expiryStepSeconds) * expiryStepSeconds;
  return `${mediaPathPrefix}${assertKey(mediaKey)}?exp=${expires}&sig=${signature(key, mediaKey, expires)}`;
}

export function verifyMediaSignature(key: Buffer, mediaKey: string, exp: unknown, sig: unknown, now = Date.now()): boolean {
  const expires = Number(exp);
  if (!Number.isInteger(expires) || typeof sig !== 'string' || expires * 1000 < now) return false;
  const expected = Buffer.from(signature(key, mediaKey, expires));
  const given = Buffer.from(sig);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
