import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { maxActiveApiTokens } from '../../server/auth/api-tokens';
import { loginThrottle, tokenThrottle } from '../../server/auth/login-throttle';
import { t } from '../../server/messages';
import { buildAppOn, createApiToken, createUser, describeEachDatabase, newSession, type TestEnv } from './helpers';
import { createAccount } from './backoffice-fixtures';
import { ManualClock } from './manual-clock';

const clock = new ManualClock();
const dayMs = 24 * 3600 * 1000;

function call(env: TestEnv, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) {
  return env.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

const tokenList = async (env: TestEnv, headers: Record<string, string>) => (await call(env, 'GET', '/api/tokens', headers)).json().data;

/** A token nobody was ever given. */
const guess = () => ({ authorization: `Bearer sho_${crypto.randomBytes(32).toString('base64url')}` });

describeEachDatabase(
  'personal API tokens',
  (env) => {
    const from = (headers: Record<string, string>, ip: string) => env().app.inject({ url: '/api/auth/me', headers, remoteAddress: ip });

    it('shows the token once, stores only its hash, lists it without the secret with its last use, and revokes it at once', async () => {
      const operator = await createUser(env(), 'operator');
      const created = await call(env(), 'POST', '/api/tokens', operator.headers, { name: 'звіти', scope: 'read', expiresInDays: 30 });
      expect(created.statusCode, created.body).toBe(201);
      const body = created.json();
      expect(Object.keys(body).sort()).toEqual(['expiresAt', 'id', 'name', 'scope', 'token']);
      expect(body).toMatchObject({ name: 'звіти', scope: 'read', expiresAt: new Date(clock.now() + 30 * dayMs).toISOString() });
      expect(body.token).toMatch(/^sho_[\w-]{43}$/);

      const stored = (await env().db.sql('SELECT * FROM api_tokens', [])).rows;
      expect(stored).toHaveLength(1);
      expect(JSON.stringify(stored)).not.toContain(body.token.slice(4));
      expect(stored[0].token_hash).toBe(crypto.createHash('sha256').update(body.token).digest('hex'));

      const [listed] = await tokenList(env(), operator.headers);
      expect(listed).toEqual({
        id: body.id,
        name: 'звіти',
        scope: 'read',
        createdAt: new Date(clock.now()).toISOString(),
        expiresAt: body.expiresAt,
        lastUsedAt: null,
        expired: false,
      });

      const token = { authorization: `Bearer ${body.token}` };
      expect((await call(env(), 'GET', '/api/auth/me', token)).json()).toEqual({
        user: { id: operator.id, login: 'operator', role: 'user' },
      });
      expect((await tokenList(env(), operator.headers))[0].lastUsedAt).toBe(new Date(clock.now()).toISOString());

      const revoked = await call(env(), 'DELETE', `/api/tokens/${body.id}`, operator.headers);
      expect(revoked.statusCode).toBe(204);
      const refused = await call(env(), 'GET', '/api/accounts?page=1', token);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBe(t.server.apiTokenEnded);
      expect(await tokenList(env(), operator.headers)).toEqual([]);
      expect((await call(env(), 'DELETE', `/api/tokens/${body.id}`, operator.headers)).statusCode).toBe(404);
    });

    it('lets a read token read lists and statistics and refuses it anything else, in Ukrainian', async () => {
      const operator = await createUser(env(), 'operator');
      const account = await createAccount(env(), operator);
      const { headers } = await createApiToken(env(), operator, 'read');
      for (const url of [
        '/api/accounts?page=1',
        `/api/accounts/${account.id}`,
        `/api/stats/accounts/${account.id}`,
        '/api/home',
        '/api/upload-video?page=1',
      ]) {
        const response = await call(env(), 'GET', url, headers);
        expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      }
      expect((await env().app.inject({ method: 'HEAD', url: '/api/accounts?page=1', headers })).statusCode).toBe(200);

      const writes = [
        call(env(), 'POST', `/api/upload-video/${crypto.randomUUID()}`, headers, { title: 'x' }),
        call(env(), 'POST', '/api/accounts', headers, { proxy: '127.0.0.1:8080' }),
        call(env(), 'PATCH', `/api/accounts/${account.id}`, headers, { comments: 'змінено' }),
        call(env(), 'DELETE', `/api/accounts/${account.id}`, headers),
      ];
      for (const response of await Promise.all(writes)) {
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ statusCode: 403, error: t.server.statusNames[403], message: t.server.apiTokenReadOnly });
      }
      expect((await call(env(), 'GET', `/api/accounts/${account.id}`, operator.headers)).json().comments).toBe('');
    });

    it("never shows an operator's token another user's rows", async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const account = await createAccount(env(), owner);
      for (const scope of ['read', 'publish'] as const) {
        const { headers } = await createApiToken(env(), other, scope);
        for (const url of [
          `/api/accounts/${account.id}`,
          `/api/stats/accounts/${account.id}`,
          `/api/accounts/${account.id}/video?page=1`,
        ]) {
          expect((await call(env(), 'GET', url, headers)).statusCode, `${scope} ${url}`).toBe(404);
        }
        expect((await call(env(), 'GET', '/api/accounts?page=1', headers)).json().total).toBe(0);
      }
    });

    it('lets a publish token do what an operator does but no admin route, even an admin’s, which acts as an operator', async () => {
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const operator = await createUser(env(), 'operator');
      const operatorAccount = await createAccount(env(), operator);
      const publish = await createApiToken(env(), operator, 'publish');
      const created = await call(env(), 'POST', '/api/accounts', publish.headers, { proxy: '127.0.0.1:8080', comments: 'зі скрипта' });
      expect(created.statusCode, created.body).toBe(201);
      // The script's profile is the operator's own: their session, which sees only their rows, finds it.
      expect((await call(env(), 'GET', `/api/accounts/${created.json().id}`, operator.headers)).statusCode).toBe(200);
      const users = await call(env(), 'GET', '/api/users', publish.headers);
      expect(users.statusCode).toBe(403);
      expect(users.json().message).toBe(t.server.apiTokenNotAdmin);

      const adminPublish = await createApiToken(env(), admin, 'publish');
      expect((await call(env(), 'GET', '/api/users', adminPublish.headers)).json().message).toBe(t.server.apiTokenNotAdmin);
      expect((await call(env(), 'GET', `/api/accounts/${operatorAccount.id}`, adminPublish.headers)).statusCode).toBe(404);
      expect((await call(env(), 'GET', '/api/auth/me', adminPublish.headers)).json().user.role).toBe('user');

      const adminToken = await createApiToken(env(), admin, 'admin');
      expect((await call(env(), 'GET', '/api/users', adminToken.headers)).statusCode).toBe(200);
      expect((await call(env(), 'GET', `/api/accounts/${operatorAccount.id}`, adminToken.headers)).statusCode).toBe(200);
    });

    it('never makes an operator an admin token, and checks the form as the screen does', async () => {
      const operator = await createUser(env(), 'operator');
      const post = (payload: object) => call(env(), 'POST', '/api/tokens', operator.headers, payload);
      const admin = await post({ name: 'все', scope: 'admin', expiresInDays: 30 });
      expect(admin.statusCode).toBe(400);
      expect(admin.json().message).toEqual([t.apiTokens.scopeAboveRole]);
      expect((await post({ name: '  ', scope: 'read', expiresInDays: 0 })).json().message).toEqual([
        t.apiTokens.nameRequired,
        t.apiTokens.expiryRange(365),
      ]);
      expect((await post({ name: 'x', scope: 'read', expiresInDays: 366 })).json().message).toEqual([t.apiTokens.expiryRange(365)]);
      expect((await post({ name: 'x', expiresInDays: 30 })).json().message).toEqual([t.apiTokens.scopeRequired]);
      const unknownScope = await post({ name: 'x', scope: 'owner', expiresInDays: 30 });
      expect(unknownScope.statusCode).toBe(400);
      expect(unknownScope.json().message).toEqual([t.validation.invalidValue('scope')]);
      expect((await post({ name: 'x'.repeat(101), scope: 'read', expiresInDays: 30 })).json().message).toEqual([t.validation.tooLong(100)]);
      expect(await tokenList(env(), operator.headers)).toEqual([]);
    });

    it('refuses a token once it expires, and records its use at most once a minute', async () => {
      const operator = await createUser(env(), 'operator');
      const token = await createApiToken(env(), operator, 'read', { expiresInDays: 1 });
      const lastUse = async () => (await env().db.sql('SELECT last_used_at FROM api_tokens', [])).rows[0].last_used_at;
      const use = () => call(env(), 'GET', '/api/auth/me', token.headers);

      expect((await use()).statusCode).toBe(200);
      const first = new Date(await lastUse()).getTime();
      expect(first).toBe(clock.now());
      await clock.advance(59_000);
      expect((await use()).statusCode).toBe(200);
      expect(new Date(await lastUse()).getTime()).toBe(first);
      await clock.advance(1_000);
      expect((await use()).statusCode).toBe(200);
      expect(new Date(await lastUse()).getTime()).toBe(first + 60_000);

      await clock.advance(dayMs - 60_000 - 1);
      expect((await use()).statusCode).toBe(200);
      await clock.advance(1);
      const expired = await use();
      expect(expired.statusCode).toBe(401);
      expect(expired.json().message).toBe(t.server.apiTokenEnded);
      // The list still shows it, marked by the server's clock, so its owner sees why the script stopped.
      const { headers } = await newSession(env(), operator.id);
      expect(await tokenList(env(), headers)).toMatchObject([{ id: token.id, expired: true }]);
    });

    it('ends the tokens of a deleted user, and the admin tokens of an admin who is one no more', async () => {
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const operator = await createUser(env(), 'operator');
      const operatorToken = await createApiToken(env(), operator, 'publish');
      const adminToken = await createApiToken(env(), admin, 'admin');
      const adminRead = await createApiToken(env(), admin, 'read');

      expect((await call(env(), 'DELETE', `/api/users/${operator.id}`, admin.headers)).statusCode).toBe(204);
      expect((await call(env(), 'GET', '/api/auth/me', operatorToken.headers)).statusCode).toBe(401);

      await env().db.sql(`UPDATE users SET role = 'user' WHERE id = $1`, [admin.id]);
      const demoted = await call(env(), 'GET', '/api/auth/me', adminToken.headers);
      expect(demoted.statusCode).toBe(401);
      expect(demoted.json().message).toBe(t.server.apiTokenEnded);
      expect((await call(env(), 'GET', '/api/auth/me', adminRead.headers)).statusCode).toBe(200);
    });

    it('manages tokens and the password from a session only, never with a token', async () => {
      const operator = await createUser(env(), 'operator', { password: 'secret-pass' });
      const token = await createApiToken(env(), operator, 'publish');
      const attempts = [
        call(env(), 'GET', '/api/tokens', token.headers),
        call(env(), 'POST', '/api/tokens', token.headers, { name: 'ще', scope: 'publish', expiresInDays: 365 }),
        call(env(), 'DELETE', `/api/tokens/${token.id}`, token.headers),
        call(env(), 'POST', '/api/auth/password', token.headers, {
          current_password: 'secret-pass',
          password: 'other-pass',
          password_confirmation: 'other-pass',
        }),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe(t.server.apiTokenNeedsSession);
      }
      expect(await tokenList(env(), operator.headers)).toHaveLength(1);
    });

    it('holds at most 20 active tokens a user: the 21st is a 409 until one is revoked or expires', async () => {
      const operator = await createUser(env(), 'operator');
      const other = await createUser(env(), 'other');
      const make = (name: string, expiresInDays = 30) =>
        call(env(), 'POST', '/api/tokens', operator.headers, { name, scope: 'read', expiresInDays });
      const short = await createApiToken(env(), operator, 'read', { expiresInDays: 1 });
      for (let index = 1; index < maxActiveApiTokens - 1; index++) expect((await make(`token ${index}`)).statusCode).toBe(201);
      // Three at once for the last place: the count is taken under the user's lock, so one gets it.
      const racing = await Promise.all([make('a'), make('b'), make('c')]);
      expect(racing.map((response) => response.statusCode).sort()).toEqual([201, 409, 409]);
      const refused = racing.find((response) => response.statusCode === 409)!;
      expect(refused.json()).toEqual({
        statusCode: 409,
        error: t.server.statusNames[409],
        message: t.apiTokens.tooMany(maxActiveApiTokens),
      });
      expect(await tokenList(env(), operator.headers)).toHaveLength(maxActiveApiTokens);
      expect((await createApiToken(env(), other, 'read')).token).toMatch(/^sho_/);

      await call(env(), 'DELETE', `/api/tokens/${(await tokenList(env(), operator.headers))[0].id}`, operator.headers);
      expect((await make('after a revoke')).statusCode).toBe(201);
      expect((await make('one too many')).statusCode).toBe(409);
      await clock.advance(dayMs);
      // A day on, the session's 15-minute access token has ended too: the operator signs in again.
      Object.assign(operator, await newSession(env(), operator.id));
      expect((await tokenList(env(), operator.headers)).find((token: { id: number }) => token.id === short.id).expired).toBe(true);
      expect((await make('after an end')).statusCode).toBe(201);
    });

    it('shows a user only their own tokens, and lets no one revoke another’s', async () => {
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const operator = await createUser(env(), 'operator');
      const mine = await createApiToken(env(), operator, 'read', { name: 'моє' });
      await createApiToken(env(), admin, 'admin', { name: 'адмінське' });
      expect((await tokenList(env(), operator.headers)).map((listed: { name: string }) => listed.name)).toEqual(['моє']);
      expect((await tokenList(env(), admin.headers)).map((listed: { name: string }) => listed.name)).toEqual(['адмінське']);
      expect((await call(env(), 'DELETE', `/api/tokens/${mine.id}`, admin.headers)).statusCode).toBe(404);
      expect((await call(env(), 'GET', '/api/auth/me', mine.headers)).statusCode).toBe(200);
    });

    it('throttles guesses from an address, but never a token that worked before, a revoked one, or sign-in', async () => {
      const operator = await createUser(env(), 'operator', { password: 'secret-pass' });
      const working = await createApiToken(env(), operator, 'read');
      const unused = await createApiToken(env(), operator, 'read');
      const revoked = await createApiToken(env(), operator, 'read');
      await call(env(), 'DELETE', `/api/tokens/${revoked.id}`, operator.headers);
      expect((await from(working.headers, '10.0.0.9')).statusCode).toBe(200);

      for (let attempt = 0; attempt < 30; attempt++) expect((await from(revoked.headers, '10.0.0.7')).statusCode).toBe(401);
      for (let attempt = 0; attempt < tokenThrottle.maxGuessesPerIp; attempt++) {
        const response = await from(guess(), '10.0.0.7');
        expect(response.statusCode).toBe(401);
        expect(response.json().message).toBe(t.server.unauthorized);
      }
      const refused = await from(guess(), '10.0.0.7');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe(String(loginThrottle.windowSeconds));
      expect(refused.json().message).toBe(t.server.tooManyTokenAttempts(loginThrottle.windowSeconds));
      // A new token's first use from that address waits with the guesses; a token that worked goes on.
      expect((await from(unused.headers, '10.0.0.7')).statusCode).toBe(429);
      expect((await from(working.headers, '10.0.0.7')).statusCode).toBe(200);
      expect((await from(unused.headers, '10.0.0.8')).statusCode).toBe(200);
      expect((await from(unused.headers, '10.0.0.7')).statusCode).toBe(200);
      const signIn = await env().app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { login: 'operator', password: 'secret-pass' },
        remoteAddress: '10.0.0.7',
      });
      expect(signIn.statusCode).toBe(200);

      await clock.advance(loginThrottle.windowSeconds * 1000);
      expect((await from(guess(), '10.0.0.7')).statusCode).toBe(401);
    });

    it("throttles the guesses of one token's beginning from every address, and all guesses from everywhere", async () => {
      const operator = await createUser(env(), 'operator', { password: 'secret-pass' });
      const working = await createApiToken(env(), operator, 'read');
      const unused = await createApiToken(env(), operator, 'read');
      expect((await from(working.headers, '10.0.0.9')).statusCode).toBe(200);
      let addresses = 0;
      const anywhere = () => `10.1.${++addresses >> 8}.${addresses & 255}`;

      // Whoever saw how two tokens begin tries their ends, each from another address.
      for (const token of [working, unused]) {
        const known = token.token.slice(0, 'sho_'.length + tokenThrottle.prefixLength);
        const ending = () => `${known}${crypto.randomBytes(32).toString('base64url').slice(tokenThrottle.prefixLength)}`;
        const tries = [];
        for (let attempt = 0; attempt < tokenThrottle.maxGuessesPerPrefix + 1; attempt++) {
          tries.push((await from({ authorization: `Bearer ${ending()}` }, anywhere())).statusCode);
        }
        expect(tries).toEqual([...Array<number>(tokenThrottle.maxGuessesPerPrefix).fill(401), 429]);
      }
      expect((await from(working.headers, anywhere())).statusCode).toBe(200);
      expect((await from(unused.headers, anywhere())).statusCode).toBe(429);
      expect((await from(guess(), anywhere())).statusCode).toBe(401);

      // Guesses spread over the world: past the limit from everywhere, no new address gets another.
      await clock.advance(loginThrottle.windowSeconds * 1000);
      for (let attempt = 0; attempt < tokenThrottle.maxGuessesEverywhere; attempt++) {
        expect((await from(guess(), anywhere())).statusCode).toBe(401);
      }
      expect((await from(guess(), anywhere())).statusCode).toBe(429);
      expect((await from(unused.headers, anywhere())).statusCode).toBe(429);
      expect((await from(working.headers, anywhere())).statusCode).toBe(200);
      const signIn = await env().app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { login: 'operator', password: 'secret-pass' },
      });
      expect(signIn.statusCode).toBe(200);
      await clock.advance(loginThrottle.windowSeconds * 1000);
      expect((await from(unused.headers, anywhere())).statusCode).toBe(200);
    });

    it('keeps the limit and a bounded table when every guess forges its X-Forwarded-For behind TRUST_PROXY=1', async () => {
      const app = await buildAppOn(env(), { trustProxy: 1, clock });
      try {
        let forged = 0;
        const tokenRows = async () =>
          (await env().db.sql(`SELECT count(*)::int AS rows FROM login_failures WHERE key LIKE 'token-%'`, [])).rows[0].rows;
        for (let window = 0; window < 2; window++) {
          const statuses = new Map<number, number>();
          for (let attempt = 0; attempt < tokenThrottle.maxGuessesEverywhere + 100; attempt++) {
            forged++;
            const response = await app.inject({
              url: '/api/auth/me',
              remoteAddress: '10.0.0.2',
              headers: { ...guess(), 'x-forwarded-for': `198.18.${forged >> 8}.${forged & 255}` },
            });
            statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          }
          expect(Object.fromEntries(statuses)).toEqual({ 401: tokenThrottle.maxGuessesEverywhere, 429: 100 });
          // One row for all, and at most one address and one beginning per guess counted.
          expect(await tokenRows()).toBeLessThanOrEqual(2 * tokenThrottle.maxGuessesEverywhere + 1);
          await clock.advance(loginThrottle.windowSeconds * 1000);
        }
      } finally {
        await app.close();
      }
    });

    it('serves the OpenAPI document to any signed-in user or token, with both Bearer schemes in it', async () => {
      const operator = await createUser(env(), 'operator');
      const token = await createApiToken(env(), operator, 'read');
      expect((await env().app.inject({ url: '/api/docs' })).statusCode).toBe(401);
      expect((await call(env(), 'GET', '/api/docs', operator.headers)).statusCode).toBe(200);
      const docs = await call(env(), 'GET', '/api/docs', token.headers);
      expect(docs.statusCode).toBe(200);
      const openapi = docs.json();
      expect(openapi.components.securitySchemes).toMatchObject({
        session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiToken: { type: 'http', scheme: 'bearer', bearerFormat: 'sho_…' },
      });
      expect(openapi.security).toEqual([{ session: [] }, { apiToken: [] }]);
      expect(Object.keys(openapi.paths['/api/tokens/'] ?? openapi.paths['/api/tokens']).sort()).toEqual(['get', 'post']);
      expect(openapi.paths['/api/tokens/{id}'].delete.responses['204']).toBeDefined();
    });
  },
  { clock },
);
