import crypto from 'node:crypto';
import { parse, serialize } from 'cookie';
import { normalLogin } from './login-throttle';

/**
 * The device cookie of OWASP's "Slow Down Online Guessing Attacks with Device Cookies"
 * (owasp.org/www-community/Slow_Down_Online_Guessing_Attacks_with_Device_Cookies): a browser that
 * signed in as a login carries `LOGIN.NONCE.SIGNATURE`, so its next sign-ins as that login are
 * told apart from a guesser behind the same address. The nonce names the device, so a device
 * that keeps failing is locked out on its own (login-throttle.ts).
 */
export const deviceCookieName = 'device';

// Only the sign-in routes read it; no other request carries it.
const cookiePath = '/api/auth';
const maxAgeSeconds = 365 * 24 * 3600;

function signature(key: Buffer, login: string, nonce: string): Buffer {
  return crypto.createHmac('sha256', key).update(`${login}\n${nonce}`).digest();
}

/**
 * A Set-Cookie value for a browser that just signed in as `login`. Secure whenever the browser
 * reached the server over https; plain http (a local run, the browser tests) would drop a Secure
 * cookie. SameSite=Strict: no other site's page makes the browser present it.
 */
export function deviceCookieFor(key: Buffer, login: string, secure: boolean): string {
  const name = normalLogin(login);
  const nonce = crypto.randomBytes(16).toString('base64url');
  const value = [Buffer.from(name).toString('base64url'), nonce, signature(key, name, nonce).toString('base64url')].join('.');
  return serialize(deviceCookieName, value, { httpOnly: true, sameSite: 'strict', secure, path: cookiePath, maxAge: maxAgeSeconds });
}

/** The device's nonce when the Cookie header holds a device cookie this server signed for `login`; else null. */
export function deviceOf(key: Buffer, cookieHeader: string | undefined, login: string): string | null {
  const value = cookieHeader ? parse(cookieHeader)[deviceCookieName] : undefined;
  const [encodedLogin, nonce, encodedSignature, ...rest] = value?.split('.') ?? [];
  if (!encodedLogin || !nonce || !encodedSignature || rest.length > 0) return null;
  const name = Buffer.from(encodedLogin, 'base64url').toString();
  if (name !== normalLogin(login)) return null;
  const expected = signature(key, name, nonce);
  const presented = Buffer.from(encodedSignature, 'base64url');
  return presented.length === expected.length && crypto.timingSafeEqual(presented, expected) ? nonce : null;
}
