import crypto from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { deriveKeys } from '../../server/auth/keys';
import { deviceCookieFor } from '../../server/auth/device-cookie';
import { loginThrottle } from '../../server/auth/login-throttle';
import type { TrustProxy } from '../../server/config';
import { t } from '../../server/messages';
import { startSession } from '../../server/auth/tokens';
import { buildAppOn, buildLiveApp, createUser, describeEachDatabase, type TestEnv } from './helpers';
import { systemClock, type Clock } from '../../server/clock';
import type { NotificationList } from '../../src/lib/contract';
import { ManualClock } from './manual-clock';

type App = TestEnv['app'];

interface From {
  ip?: string;
  cookie?: string;
  forwardedFor?: string;
}

function signIn(app: App, login: string, password: string, { ip = '10.0.0.1', cookie, forwardedFor }: From = {}) {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
  return app.inject({ method: 'POST', url: '/api/auth/login', payload: { login, password }, remoteAddress: ip, headers });
}

/** The `device=...` pair a browser sends back, from the answer that set it. */
function deviceCookieIn(response: { headers: Record<string, unknown> }): string {
  const setCookie = String(response.headers['set-cookie'] ?? '');
  expect(setCookie).toMatch(/^device=/);
  return setCookie.split(';')[0]!;
}

/** Failed sign-ins with a fresh random login each, as the attacker of the issue sent them. */
async function spray(app: App, attempts: number, from: From = {}) {
  const statuses = new Set<number>();
  for (let attempt = 0; attempt < attempts; attempt++) {
    statuses.add((await signIn(app, `guess-${crypto.randomBytes(6).toString('hex')}`, 'wrong-pass', from)).statusCode);
  }
  return statuses;
}

/**
 * The admin of the guessing tests, whose password hash is argon2id at the algorithm's low end (1 MiB,
 * one pass) instead of the server's 19 MiB and two: `verifyPassword` reads the cost from the
 * stored hash, so every guess runs the same code, at a millisecond where the server's cost takes
 * 15 and more, over some 300 guesses a test. The throttle is under test here, not the hash.
 */
async function createAdminWithCheapHash(env: TestEnv, password: string) {
  const cheapHash = await hash(password, { algorithm: 2 /* Argon2id */, memoryCost: 1024, timeCost: 1, parallelism: 1 });
  const { rows } = await env.db.sql(`INSERT INTO users (login, password_hash, role) VALUES ('admin', $1, 'admin') RETURNING id`, [
    cheapHash,
  ]);
  const { accessToken } = await startSession(env.db, env.tokenSettings, rows[0].id as number, env.app.clock.now());
  return { headers: { authorization: `Bearer ${accessToken}` } };
}

async function failureRows(env: TestEnv) {
  return (await env.db.sql('SELECT key, failures, window_started_at FROM login_failures ORDER BY key', [])).rows;
}

describeEachDatabase('sign-in policy', (env) => {
  it('gives a browser that signs in an httpOnly, SameSite=Strict device cookie for the auth routes, Secure over https', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const plain = await signIn(env().app, 'operator', 'secret-pass');
    const cookie = String(plain.headers['set-cookie']);
    expect(cookie).toMatch(/^device=[\w-]+\.[\w-]+\.[\w-]+; Max-Age=31536000; Path=\/api\/auth; HttpOnly; SameSite=Strict$/);

    const https = await buildLiveApp(env(), 'https://office.example');
    try {
      const secure = await signIn(https, 'operator', 'secret-pass');
      expect(String(secure.headers['set-cookie'])).toContain('; Secure');
    } finally {
      await https.close();
    }
    // A failed attempt proves nothing about the browser.
    expect((await signIn(env().app, 'operator', 'wrong-pass')).headers['set-cookie']).toBeUndefined();
  });

  it('lets a browser that signed in before past the per-address limit, for its login only', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    await createUser(env(), 'other', { password: 'secret-pass' });
    const device = deviceCookieIn(await signIn(env().app, 'operator', 'secret-pass'));

    expect(await spray(env().app, loginThrottle.maxFailuresPerIp + 5)).toEqual(new Set([401, 429]));
    expect((await signIn(env().app, 'operator', 'secret-pass')).statusCode).toBe(429);
    expect((await signIn(env().app, 'operator', 'secret-pass', { cookie: device })).statusCode).toBe(200);
    // The cookie speaks for the login it signed in as, not for another one typed in the same browser.
    expect((await signIn(env().app, 'other', 'secret-pass', { cookie: device })).statusCode).toBe(429);
  });

  it('locks out a device cookie that keeps failing: it is then an unknown browser again', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const device = deviceCookieIn(await signIn(env().app, 'operator', 'secret-pass'));
    await spray(env().app, loginThrottle.maxFailuresPerIp);
    for (let attempt = 0; attempt < loginThrottle.maxFailuresPerDevice; attempt++) {
      expect((await signIn(env().app, 'operator', 'wrong-pass', { cookie: device })).statusCode).toBe(401);
    }
    // Past its own limit the device counts on the address again, which the spray used up.
    const locked = await signIn(env().app, 'operator', 'secret-pass', { cookie: device });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe(t.server.tooManyLoginAttempts(Number(locked.headers['retry-after'])));
  });

  it('gives a forged device cookie, or one signed with another key, nothing', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const device = deviceCookieIn(await signIn(env().app, 'operator', 'secret-pass'));
    await spray(env().app, loginThrottle.maxFailuresPerIp);

    const [login, nonce, signature] = device.slice('device='.length).split('.');
    const forgedNonce = `device=${login}.${crypto.randomBytes(16).toString('base64url')}.${signature}`;
    const otherLogin = `device=${Buffer.from('other').toString('base64url')}.${nonce}.${signature}`;
    const otherKey = deviceCookieFor(deriveKeys('another-secret-key-that-is-long-enough-98765').deviceCookie, 'operator', false);
    for (const cookie of [forgedNonce, otherLogin, otherKey.split(';')[0]!, 'device=garbage', `${device}.extra`]) {
      expect((await signIn(env().app, 'operator', 'secret-pass', { cookie })).statusCode).toBe(429);
    }
    expect((await signIn(env().app, 'operator', 'secret-pass', { cookie: device })).statusCode).toBe(200);
  });

  it('writes nothing for a refused attempt', async () => {
    await spray(env().app, loginThrottle.maxFailuresPerIp);
    const before = await failureRows(env());
    expect(before).toHaveLength(2 * loginThrottle.maxFailuresPerIp + 1);
    expect(await spray(env().app, 50)).toEqual(new Set([429]));
    expect(await failureRows(env())).toEqual(before);
  });

  it('purges the windows that have ended as attempts come in', async () => {
    await spray(env().app, 3, { ip: '10.5.5.5' });
    await env().db.sql(`UPDATE login_failures SET window_started_at = now() - make_interval(secs => $1)`, [
      loginThrottle.windowSeconds + 1,
    ]);
    await spray(env().app, 1, { ip: '10.6.6.6' });
    const keys = (await failureRows(env())).map((row) => row.key as string);
    expect(keys).toHaveLength(3);
    expect(keys.filter((key) => key.includes('10.5.5.5'))).toEqual([]);
  });

  // The spray of 5 000 and the database growth it costs are measured by `npm run bench:sign-in`.
  it('keeps the failures of a spray of fresh logins in rows that do not grow with the logins, after which a known browser signs in', async () => {
    await createUser(env(), 'admin', { role: 'admin', password: 'admin-password' });
    const device = deviceCookieIn(await signIn(env().app, 'admin', 'admin-password', { ip: '10.7.7.7' }));
    expect(await spray(env().app, 30, { ip: '10.7.7.7' })).toEqual(new Set([401, 429]));
    const rows = (await failureRows(env())).length;
    await spray(env().app, 100, { ip: '10.7.7.7' });
    expect(await failureRows(env())).toHaveLength(rows);

    expect((await signIn(env().app, 'admin', 'admin-password', { ip: '10.7.7.7' })).statusCode).toBe(429);
    expect((await signIn(env().app, 'admin', 'admin-password', { ip: '10.7.7.7', cookie: device })).statusCode).toBe(200);
  });

  const changePassword = (accessToken: string, payload: object, ip = '10.0.0.1') =>
    env().app.inject({
      method: 'POST',
      url: '/api/auth/password',
      payload,
      remoteAddress: ip,
      headers: { authorization: `Bearer ${accessToken}` },
    });
  const me = (accessToken: string) => env().app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${accessToken}` } });
  const refresh = (refreshToken: string) => env().app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });

  it("changes the operator's own password: the session it was changed in continues, every other one ends", async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const here = (await signIn(env().app, 'operator', 'secret-pass')).json();
    const elsewhere = (await signIn(env().app, 'operator', 'secret-pass', { ip: '10.0.0.9' })).json();

    const changed = await changePassword(here.accessToken, {
      current_password: 'secret-pass',
      password: 'new-secret',
      password_confirmation: 'new-secret',
    });
    expect(changed.statusCode).toBe(204);
    expect((await me(here.accessToken)).statusCode).toBe(200);
    expect((await refresh(here.refreshToken)).statusCode).toBe(200);
    expect((await me(elsewhere.accessToken)).statusCode).toBe(401);
    expect((await refresh(elsewhere.refreshToken)).statusCode).toBe(401);
    expect((await signIn(env().app, 'operator', 'secret-pass')).statusCode).toBe(401);
    expect((await signIn(env().app, 'operator', 'new-secret')).statusCode).toBe(200);
  });

  it("refuses a wrong current password with a Ukrainian 400, and the new one by the user form's rules", async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const { accessToken } = (await signIn(env().app, 'operator', 'secret-pass')).json();
    const wrong = await changePassword(accessToken, {
      current_password: 'not-it',
      password: 'new-secret',
      password_confirmation: 'new-secret',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(t.settings.wrongCurrentPassword);

    const mismatch = await changePassword(accessToken, {
      current_password: 'secret-pass',
      password: 'new-secret',
      password_confirmation: 'other',
    });
    expect(mismatch.json().message).toEqual([t.users.passwordsMismatch]);
    const short = await changePassword(accessToken, { current_password: 'secret-pass', password: '12345', password_confirmation: '12345' });
    expect(short.json().message).toEqual([t.validation.tooShort(6)]);
    const empty = await changePassword(accessToken, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toEqual([t.validation.required]);
    expect((await changePassword('not-a-token', {})).statusCode).toBe(401);
    expect((await signIn(env().app, 'operator', 'secret-pass')).statusCode).toBe(200);
  });

  it('throttles wrong current passwords as it throttles sign-ins', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const { accessToken } = (await signIn(env().app, 'operator', 'secret-pass')).json();
    const attempt = (current: string) =>
      changePassword(accessToken, { current_password: current, password: 'new-secret', password_confirmation: 'new-secret' });
    for (let guess = 0; guess < loginThrottle.maxFailuresPerLogin; guess++) expect((await attempt(`guess-${guess}`)).statusCode).toBe(400);
    const blocked = await attempt('secret-pass');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(t.server.tooManyLoginAttempts(Number(blocked.headers['retry-after'])));
  });

  const trusting = (trustProxy: TrustProxy, clock: Clock = systemClock) => buildAppOn(env(), { trustProxy, clock });
  const addressKeys = async () =>
    (await failureRows(env())).filter((row) => String(row.key).startsWith('ip:')).map((row) => [row.key, row.failures]);

  it('counts the connection address, whatever X-Forwarded-For says, when no proxy is trusted', async () => {
    await spray(env().app, 2, { ip: '10.0.0.1', forwardedFor: '203.0.113.12' });
    expect(await addressKeys()).toEqual([['ip:10.0.0.1', 2]]);
  });

  it('TRUST_PROXY=1 counts the address the proxy saw, whatever the client wrote before it', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const app = await trusting(1);
    try {
      for (let attempt = 0; attempt < loginThrottle.maxFailuresPerIp; attempt++) {
        const spoofed = `198.51.100.${attempt}, 203.0.113.7`;
        await spray(app, 1, { ip: '10.0.0.2', forwardedFor: spoofed });
      }
      expect(await addressKeys()).toEqual([['ip:203.0.113.7', loginThrottle.maxFailuresPerIp]]);
      expect((await signIn(app, 'operator', 'secret-pass', { ip: '10.0.0.2', forwardedFor: '203.0.113.7' })).statusCode).toBe(429);
      expect((await signIn(app, 'operator', 'secret-pass', { ip: '10.0.0.2', forwardedFor: '203.0.113.8' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('TRUST_PROXY with addresses believes those peers only; any other is counted on its own address', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const app = await trusting(['10.0.0.0/8', '::1']);
    try {
      await spray(app, 1, { ip: '10.1.2.3', forwardedFor: '203.0.113.9' });
      for (let attempt = 0; attempt < loginThrottle.maxFailuresPerIp; attempt++) {
        await spray(app, 1, { ip: '192.0.2.5', forwardedFor: `203.0.113.${100 + attempt}` });
      }
      expect(await addressKeys()).toEqual([
        ['ip:192.0.2.5', loginThrottle.maxFailuresPerIp],
        ['ip:203.0.113.9', 1],
      ]);
      expect((await signIn(app, 'operator', 'secret-pass', { ip: '192.0.2.5', forwardedFor: '203.0.113.200' })).statusCode).toBe(429);
      expect((await signIn(app, 'operator', 'secret-pass', { ip: '10.1.2.3', forwardedFor: '203.0.113.200' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  describe('a guesser spread over many addresses (issue 29: 300 guesses at the admin behind TRUST_PROXY=1)', () => {
    const proxy = '10.0.0.2';
    // A fresh client address behind the proxy for every attempt: 300 of them, as the adversary had.
    let addresses = 0;
    const stranger = (): From => {
      addresses++;
      return { ip: proxy, forwardedFor: `198.18.${addresses >> 8}.${addresses & 255}` };
    };
    const retryAfter = (answer: { headers: Record<string, unknown> }) => Number(answer.headers['retry-after']);
    const sprayNotices = async (headers: Record<string, string>) =>
      (await env().app.inject({ url: '/api/notifications', headers }))
        .json<NotificationList>()
        .items.filter((item) => item.kind === 'sign_in_spray')
        .map((item) => item.message);

    it('lets the admin in from the browser that signed in before, and slows, not shuts out, every other browser', async () => {
      const clock = new ManualClock();
      const app = await trusting(1, clock);
      try {
        const admin = await createAdminWithCheapHash(env(), 'admin-password');
        const device = deviceCookieIn(await signIn(app, 'admin', 'admin-password', stranger()));

        // Every guess is evaluated: on a 429 the guesser waits the Retry-After and tries again.
        let refused = 0;
        for (let guess = 0; guess < 300; guess++) {
          const from = stranger();
          let answer = await signIn(app, 'admin', `guess-${guess}`, from);
          while (answer.statusCode === 429) {
            refused++;
            await clock.advance(retryAfter(answer) * 1000);
            answer = await signIn(app, 'admin', `guess-${guess}`, from);
          }
          expect(answer.statusCode).toBe(401);
        }
        expect(refused).toBeGreaterThan(0);
        expect((await signIn(app, 'admin', 'admin-password', { ...stranger(), cookie: device })).statusCode).toBe(200);
        expect(await sprayNotices(admin.headers)).toEqual(['admin']);

        // A new window: its first guesses pass, then each waits twice as long as the one before.
        await clock.advance(loginThrottle.windowSeconds * 1000);
        for (let guess = 0; guess < loginThrottle.undelayedFailuresPerLoginEverywhere; guess++) {
          expect((await signIn(app, 'admin', `guess-${guess}`, stranger())).statusCode).toBe(401);
        }
        const waits: number[] = [];
        for (;;) {
          const answer = await signIn(app, 'admin', 'admin-password', stranger());
          expect(answer.statusCode).toBe(429);
          expect(answer.json().message).toBe(t.server.tooManyLoginAttempts(Number(answer.headers['retry-after'])));
          waits.push(retryAfter(answer));
          expect((await signIn(app, 'admin', 'admin-password', { ...stranger(), cookie: device })).statusCode).toBe(200);
          await clock.advance(retryAfter(answer) * 1000);
          if (waits.length === 11) break;
          expect((await signIn(app, 'admin', 'another-guess', stranger())).statusCode).toBe(401);
        }
        expect(waits).toEqual([1, 1, 2, 4, 8, 16, 32, 64, 128, 256, 900 - 512]);
        // The window is over: the right password from a browser the server never saw gets in.
        expect((await signIn(app, 'admin', 'admin-password', stranger())).statusCode).toBe(200);
        // Still one notice, unread, for the whole spray.
        expect(await sprayNotices(admin.headers)).toEqual(['admin']);
      } finally {
        await app.close();
      }
    });

    it("limits a device by its own failures only, on a budget apart from another device's", async () => {
      const clock = new ManualClock();
      const app = await trusting(1, clock);
      try {
        const admin = await createAdminWithCheapHash(env(), 'admin-password');
        const laptop = deviceCookieIn(await signIn(app, 'admin', 'admin-password', stranger()));
        const phone = deviceCookieIn(await signIn(app, 'admin', 'admin-password', stranger()));
        for (let guess = 0; guess < loginThrottle.undelayedFailuresPerLoginEverywhere; guess++) {
          expect((await signIn(app, 'admin', `guess-${guess}`, stranger())).statusCode).toBe(401);
        }
        for (let attempt = 0; attempt < loginThrottle.maxFailuresPerDevice; attempt++) {
          expect((await signIn(app, 'admin', 'wrong-pass', { ...stranger(), cookie: laptop })).statusCode).toBe(401);
        }
        // Past its own limit the laptop is a stranger again, slowed by the spray as strangers are.
        const slowed = await signIn(app, 'admin', 'admin-password', { ...stranger(), cookie: laptop });
        expect(slowed.statusCode).toBe(429);
        expect(retryAfter(slowed)).toBe(1);
        expect((await signIn(app, 'admin', 'admin-password', { ...stranger(), cookie: phone })).statusCode).toBe(200);

        // A spray at a login nobody has tells no one.
        for (let guess = 0; guess < loginThrottle.undelayedFailuresPerLoginEverywhere; guess++) {
          await signIn(app, 'nobody', `guess-${guess}`, stranger());
        }
        expect(await sprayNotices(admin.headers)).toEqual(['admin']);
      } finally {
        await app.close();
      }
    });
  });
});
