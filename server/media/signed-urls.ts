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

/**
 * Signatures made for the current expiry, per signing key: a list signs the same files on every
 * page and poll, and for an hour their URLs do not change. Forgotten when the expiry moves on, and
 * capped, so a busy hour's many files cannot grow it without end.
 */
const signedThisHour = new WeakMap<Buffer, { expires: number; byMediaKey: Map<string, string> }>();
const signedThisHourCap = 10_000;

function hourlySignature(key: Buffer, mediaKey: string, expires: number): string {
  let signed = signedThisHour.get(key);
  if (signed?.expires !== expires) {
    signed = { expires, byMediaKey: new Map() };
    signedThisHour.set(key, signed);
  }
  let made = signed.byMediaKey.get(mediaKey);
  if (made === undefined) {
    made = signature(key, mediaKey, expires);
    if (signed.byMediaKey.size >= signedThisHourCap) signed.byMediaKey.clear();
    signed.byMediaKey.set(mediaKey, made);
  }
  return made;
}

/** A URL a <video>, an <img> or a new tab can open without a Bearer header, valid for about `ttlSeconds`. */
export function signMediaUrl(key: Buffer, mediaKey: string, ttlSeconds: number, now: number): string {
  const expires = Math.ceil((now / 1000 + ttlSeconds) / expiryStepSeconds) * expiryStepSeconds;
  return `${mediaPathPrefix}${assertKey(mediaKey)}?exp=${expires}&sig=${hourlySignature(key, mediaKey, expires)}`;
}

export function verifyMediaSignature(key: Buffer, mediaKey: string, exp: unknown, sig: unknown, now: number): boolean {
  const expires = Number(exp);
  if (!Number.isInteger(expires) || typeof sig !== 'string' || expires * 1000 < now) return false;
  const expected = Buffer.from(signature(key, mediaKey, expires));
  const given = Buffer.from(sig);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
