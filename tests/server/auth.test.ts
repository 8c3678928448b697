import { expect, it } from 'vitest';
import { bootstrapAdmin } from '../../server/bootstrap-admin';
import { loginThrottle } from '../../server/auth/login-throttle';
import { purgeExpiredRefreshTokens } from '../../server/auth/tokens';
import { t } from '../../server/messages';
import { createUser, describeEachDatabase, type TestEnv } from './helpers';

async function logIn(env: TestEnv, body: unknown, remoteAddress = '10.0.0.1') {
  return env.app.inject({ method: 'POST', url: '/api/auth/login', payload: body as object, remoteAddress });
}

async function refresh(env: TestEnv, refreshToken: string) {
  return env.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
}

describeEachDatabase('auth API', (env) => {
  it('answers missing and out-of-range fields with the spec messages', async () => {
    const empty = await logIn(env(), {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toEqual([t.validation.required]);

    const short = await logIn(env(), { login: 'a', password: '1234' });
    expect(short.json().message).toEqual([t.validation.tooShort(2), t.validation.tooShort(5)]);

    const long = await logIn(env(), { login: 'a'.repeat(51), password: 'p'.repeat(51) });
    expect(long.json().message).toEqual([t.validation.tooLong(50)]);
  });

  it('logs in with the right password and returns user, access and refresh tokens', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const response = await logIn(env(), { login: 'operator', password: 'secret-pass' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toEqual({ id: 1, login: 'operator', role: 'user' });
    expect(body.accessToken).toMatch(/^ey/);
    expect(body.refreshToken).toHaveLength(43);

    const me = await env().app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${body.accessToken}` } });
    expect(me.json()).toEqual({ user: { id: 1, login: 'operator', role: 'user' } });
  });

  it('gives the same 401 for a wrong password and an unknown login', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const wrongPassword = await logIn(env(), { login: 'operator', password: 'wrong-pass' });
    const unknownLogin = await logIn(env(), { login: 'nobody', password: 'wrong-pass' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownLogin.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual(unknownLogin.json());
    expect(wrongPassword.json().message).toBe(t.server.invalidCredentials);
  });

  it('rotates the refresh token on every refresh', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const { refreshToken } = (await logIn(env(), { login: 'operator', password: 'secret-pass' })).json();
    const first = await refresh(env(), refreshToken);
    expect(first.statusCode).toBe(200);
    const rotated = first.json();
    expect(rotated.refreshToken).not.toBe(refreshToken);
    expect(rotated.accessToken).toMatch(/^ey/);

    const second = await refresh(env(), rotated.refreshToken);
    expect(second.statusCode).toBe(200);
    expect(second.json().refreshToken).not.toBe(rotated.refreshToken);
  });

  it('hands out the same successor when a spent token comes back within the grace window', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const { refreshToken } = (await logIn(env(), { login: 'operator', password: 'secret-pass' })).json();
    const tabA = (await refresh(env(), refreshToken)).json();
    const tabB = await refresh(env(), refreshToken);
    expect(tabB.statusCode).toBe(200);
    expect(tabB.json().refreshToken).toBe(tabA.refreshToken);
    expect((await refresh(env(), tabA.refreshToken)).statusCode).toBe(200);
  });

  it('revokes the whole family when a spent token comes back after the grace window', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const { refreshToken } = (await logIn(env(), { login: 'operator', password: 'secret-pass' })).json();
    const successor = (await refresh(env(), refreshToken)).json().refreshToken;
    await env().db.sql(`UPDATE refresh_tokens SET rotated_at = now() - interval '11 seconds' WHERE rotated_at IS NOT NULL`, []);

    const reuse = await refresh(env(), refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().message).toBe(t.server.sessionExpired);
    expect((await refresh(env(), successor)).statusCode).toBe(401);
  });

  it('logout revokes the family, so neither the token nor its successors refresh', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const { refreshToken } = (await logIn(env(), { login: 'operator', password: 'secret-pass' })).json();
    const successor = (await refresh(env(), refreshToken)).json().refreshToken;
    const logout = await env().app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: successor } });
    expect(logout.statusCode).toBe(204);
    expect((await refresh(env(), successor)).statusCode).toBe(401);
    expect((await refresh(env(), refreshToken)).statusCode).toBe(401);
  });

  it('answers 429 in Ukrainian after repeated failures for one login, even with the right password', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    for (let attempt = 0; attempt < loginThrottle.maxFailuresPerLogin; attempt++) {
      expect((await logIn(env(), { login: 'operator', password: 'wrong-pass' })).statusCode).toBe(401);
    }
    const blocked = await logIn(env(), { login: 'operator', password: 'secret-pass' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(t.server.tooManyLoginAttempts(Number(blocked.headers['retry-after'])));
    // Another login from another address is not affected.
    await createUser(env(), 'other', { password: 'secret-pass' });
    expect((await logIn(env(), { login: 'other', password: 'secret-pass' }, '10.0.0.2')).statusCode).toBe(200);
  });

  it('answers 429 after repeated failures from one address across logins', async () => {
    for (let attempt = 0; attempt < loginThrottle.maxFailuresPerIp; attempt++) {
      await logIn(env(), { login: `guess${attempt}`, password: 'wrong-pass' }, '10.9.9.9');
    }
    await createUser(env(), 'operator', { password: 'secret-pass' });
    expect((await logIn(env(), { login: 'operator', password: 'secret-pass' }, '10.9.9.9')).statusCode).toBe(429);
    expect((await logIn(env(), { login: 'operator', password: 'secret-pass' }, '10.9.9.8')).statusCode).toBe(200);
  });

  it('refuses a deleted user at once, although their access token has not expired', async () => {
    const user = await createUser(env(), 'operator');
    expect((await env().app.inject({ url: '/api/auth/me', headers: user.headers })).statusCode).toBe(200);
    await env().db.sql('DELETE FROM users WHERE id = $1', [user.id]);
    const after = await env().app.inject({ url: '/api/auth/me', headers: user.headers });
    expect(after.statusCode).toBe(401);
  });

  it('ends the sessions of a user whose role changes, at once', async () => {
    const user = await createUser(env(), 'boss', { role: 'admin' });
    await env().db.sql(`UPDATE users SET role = 'user' WHERE id = $1`, [user.id]);
    const me = await env().app.inject({ url: '/api/auth/me', headers: user.headers });
    expect(me.statusCode).toBe(401);
  });

  it('refuses an access token right after logout, and keeps the other sessions of the user', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const first = (await logIn(env(), { login: 'operator', password: 'secret-pass' })).json();
    const second = (await logIn(env(), { login: 'operator', password: 'secret-pass' })).json();
    const me = (token: string) => env().app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect((await me(first.accessToken)).statusCode).toBe(200);
    await env().app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: first.refreshToken } });
    expect((await me(first.accessToken)).statusCode).toBe(401);
    expect((await me(second.accessToken)).statusCode).toBe(200);
  });

  it('refuses an access token right after an admin sets a new password', async () => {
    const admin = await createUser(env(), 'boss', { role: 'admin' });
    const user = await createUser(env(), 'operator', { password: 'secret-pass' });
    expect((await env().app.inject({ url: '/api/auth/me', headers: user.headers })).statusCode).toBe(200);
    const changed = await env().app.inject({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      headers: admin.headers,
      payload: { login: 'operator', password: 'another-pass', password_confirmation: 'another-pass' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await env().app.inject({ url: '/api/auth/me', headers: user.headers })).statusCode).toBe(401);
    expect((await env().app.inject({ url: '/api/auth/me', headers: admin.headers })).statusCode).toBe(200);
  });

  it('evaluates at most the limit of 40 parallel wrong passwords', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    const answers = await Promise.all(Array.from({ length: 40 }, () => logIn(env(), { login: 'operator', password: 'wrong-pass' })));
    const evaluated = answers.filter((answer) => answer.statusCode === 401).length;
    expect(evaluated).toBeLessThanOrEqual(loginThrottle.maxFailuresPerLogin);
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(40 - evaluated);
  });

  it('does not lock the right user out from another address', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    for (let attempt = 0; attempt < loginThrottle.maxFailuresPerLogin + 3; attempt++) {
      await logIn(env(), { login: 'operator', password: 'wrong-pass' }, '10.6.6.6');
    }
    expect((await logIn(env(), { login: 'operator', password: 'secret-pass' }, '10.6.6.6')).statusCode).toBe(429);
    expect((await logIn(env(), { login: 'operator', password: 'secret-pass' }, '10.0.0.7')).statusCode).toBe(200);
  });

  it('refuses a forged or missing token', async () => {
    expect((await env().app.inject({ url: '/api/auth/me' })).statusCode).toBe(401);
    const forged = await env().app.inject({ url: '/api/auth/me', headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' } });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ statusCode: 401, error: t.server.statusNames[401], message: t.server.unauthorized });
  });

  it('creates the first admin once, with a generated password when none is configured', async () => {
    const first = await bootstrapAdmin(env().db, 'admin', undefined);
    expect(first.created).toBe(true);
    const password = first.created ? first.generatedPassword! : '';
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(await bootstrapAdmin(env().db, 'admin', undefined)).toEqual({ created: false });
    const login = await logIn(env(), { login: 'admin', password });
    expect(login.json().user.role).toBe('admin');

    const configured = await bootstrapAdmin(env().db, 'chief', 'chief-password');
    expect(configured).toEqual({ created: false });
  });

  it('uses ADMIN_PASSWORD when given and prints no generated one', async () => {
    const result = await bootstrapAdmin(env().db, 'chief', 'chief-password');
    expect(result).toEqual({ created: true, login: 'chief', generatedPassword: undefined });
    expect((await logIn(env(), { login: 'chief', password: 'chief-password' })).statusCode).toBe(200);
  });

  it('purges expired refresh tokens and keeps live ones', async () => {
    await createUser(env(), 'operator', { password: 'secret-pass' });
    await logIn(env(), { login: 'operator', password: 'secret-pass' });
    await logIn(env(), { login: 'operator', password: 'secret-pass' });
    const now = env().app.clock.now();
    await env().db.sql(`UPDATE refresh_tokens SET expires_at = $1 WHERE id = 1`, [new Date(now - 60_000)]);
    expect(await purgeExpiredRefreshTokens(env().db, now)).toBe(1);
    const { rows } = await env().db.sql('SELECT id FROM refresh_tokens ORDER BY id', []);
    expect(rows.map((row) => row.id)).toEqual([2, 3]);
  });

  it('answers unknown API paths with a JSON 404 in the error shape', async () => {
    const response = await env().app.inject({ url: '/api/does-not-exist' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: 404, error: t.server.statusNames[404], message: t.server.routeNotFound });
  });
});
