import crypto from 'node:crypto';
import { parse, serialize } from 'cookie';
import { stateTtlSeconds } from './oauth-state';

/**
 * A consent flow bound to the browser that starts it (RFC 9700 §4.7.1, the OAuth 2.0 Security Best
 * Current Practice: the `state` bound to the user agent): that browser gets a cookie holding the
 * state's HMAC, and the callback takes the state only with it. One cookie per flow, named after its
 * state, so flows started side by side in one browser keep theirs; HttpOnly, as no script needs it;
 * SameSite=Lax, so the platform's redirect back (a top-level GET from its site) carries it and no
 * other site's subrequest does; sent only to the callback, the path the platform sends the browser
 * to; Secure when that is https; as short-lived as the state.
 */

const nameOf = (state: string) => `consent_${crypto.createHash('sha256').update(state).digest('base64url').slice(0, 16)}`;

const mac = (key: Buffer, purpose: 'browser' | 'link', state: string) =>
  crypto.createHmac('sha256', key).update(`${purpose}\n${state}`).digest();

const cookieOptions = (callbackUrl: string) => {
  const callback = new URL(callbackUrl);
  return { httpOnly: true, sameSite: 'lax', secure: callback.protocol === 'https:', path: callback.pathname } as const;
};

const same = (presented: Buffer, expected: Buffer) => presented.length === expected.length && crypto.timingSafeEqual(presented, expected);

/** The Set-Cookie that binds `state` to the browser it is sent to; `callbackUrl` is the flow's redirect URI. */
export function consentCookieFor(key: Buffer, state: string, callbackUrl: string): string {
  return serialize(nameOf(state), mac(key, 'browser', state).toString('base64url'), {
    ...cookieOptions(callbackUrl),
    maxAge: stateTtlSeconds,
  });
}

/** The Set-Cookie that takes a spent flow's cookie back, so a busy browser does not gather them. */
export function consentCookieCleared(state: string, callbackUrl: string): string {
  return serialize(nameOf(state), '', { ...cookieOptions(callbackUrl), maxAge: 0 });
}

/** Whether the browser whose Cookie header this is holds the cookie this server set for `state`. */
export function isBoundToBrowser(key: Buffer, state: string, cookieHeader: string | undefined): boolean {
  const value = cookieHeader ? parse(cookieHeader)[nameOf(state)] : undefined;
  return value !== undefined && same(Buffer.from(value, 'base64url'), mac(key, 'browser', state));
}

/**
 * The signature of YouTube's link (routes/oauth.ts), which binds whichever browser opens it: apart
 * from the cookie's, so neither can be made from the other, and a state seen in a callback's
 * address cannot be made into a link.
 */
export const linkSignature = (key: Buffer, state: string) => mac(key, 'link', state).toString('base64url');

export const isLinkSigned = (key: Buffer, state: string, signature: string) =>
  same(Buffer.from(signature, 'base64url'), mac(key, 'link', state));
