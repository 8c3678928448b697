import { expect, it } from 'vitest';
import { t } from '../../server/messages';
import { createApiToken, createUser, describeEachDatabase, type TestEnv } from './helpers';
import { emptyAccount } from './backoffice-fixtures';

type Role = 'anonymous' | 'owner' | 'other' | 'admin';

interface Fixture {
  accountId: number;
  freeAccountId: number;
  groupId: number;
  tagSetId: number;
  ownerId: number;
  victimId: number;
}

interface RouteCase {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: (f: Fixture) => string;
  body?: (f: Fixture) => object;
  /** Expected status for anonymous, the owner of the resources, another user, an admin. */
  expect: [anonymous: number, owner: number, other: number, admin: number];
  /** It changes a user: a session's, and 403 to an API token of any scope. */
  sessionOnly?: true;
}

const accountBody = { ...emptyAccount, isActiveYouTube: true, YouTubeAuthClientId: 'client-id', YouTubeAuthClientSecret: 'client-secret' };

// Reads first, then writes, deletes last, so each case still finds the fixture it names.
const routes: RouteCase[] = [
  { name: 'GET /accounts', method: 'GET', url: () => '/api/accounts?page=1', expect: [401, 200, 200, 200] },
  { name: 'GET /accounts/search', method: 'GET', url: (f) => `/api/accounts/search?groupId=${f.groupId}`, expect: [401, 200, 200, 200] },
  { name: 'GET /accounts/{id}', method: 'GET', url: (f) => `/api/accounts/${f.accountId}`, expect: [401, 200, 404, 200] },
  {
    name: 'GET /accounts/{id}/video',
    method: 'GET',
    url: (f) => `/api/accounts/${f.accountId}/video?page=1`,
    expect: [401, 200, 404, 200],
  },
  {
    name: 'POST /accounts/connect-youtube/{id}',
    method: 'POST',
    url: (f) => `/api/accounts/connect-youtube/${f.accountId}`,
    expect: [401, 200, 404, 200],
  },
  {
    name: 'POST /accounts/{id}/health-check',
    method: 'POST',
    url: (f) => `/api/accounts/${f.accountId}/health-check`,
    expect: [401, 200, 404, 200],
  },
  { name: 'POST /accounts', method: 'POST', url: () => '/api/accounts', body: () => accountBody, expect: [401, 201, 201, 201] },
  {
    name: 'PATCH /accounts/{id}',
    method: 'PATCH',
    url: (f) => `/api/accounts/${f.accountId}`,
    body: () => ({ ...accountBody, comments: 'edited' }),
    expect: [401, 200, 404, 200],
  },
  {
    name: 'PATCH /accounts/update-channel/{id}',
    method: 'PATCH',
    url: (f) => `/api/accounts/update-channel/${f.accountId}`,
    body: () => ({ description: 'Channel' }),
    expect: [401, 200, 404, 200],
  },
  {
    name: 'PATCH /accounts/update-profile-inst/{id}',
    method: 'PATCH',
    url: (f) => `/api/accounts/update-profile-inst/${f.accountId}`,
    body: () => ({ profileName: 'Name', profileDescription: '' }),
    expect: [401, 200, 404, 200],
  },
  { name: 'GET /accounts-group', method: 'GET', url: () => '/api/accounts-group', expect: [401, 200, 200, 200] },
  { name: 'GET /accounts-group/{id}', method: 'GET', url: (f) => `/api/accounts-group/${f.groupId}`, expect: [401, 200, 404, 200] },
  // Another user cannot put the owner's profile into a group: for them it does not exist.
  {
    name: 'POST /accounts-group',
    method: 'POST',
    url: () => '/api/accounts-group',
    body: (f) => ({ name: 'New', accounts: [{ id: f.freeAccountId, title: '', value: f.freeAccountId }] }),
    expect: [401, 201, 400, 201],
  },
  {
    name: 'PATCH /accounts-group/{id}',
    method: 'PATCH',
    url: (f) => `/api/accounts-group/${f.groupId}`,
    body: (f) => ({ name: 'Renamed', accounts: [{ id: f.accountId, title: '', value: f.accountId }] }),
    expect: [401, 200, 404, 200],
  },
  {
    name: 'PUT /accounts/{id}/slots',
    method: 'PUT',
    url: (f) => `/api/accounts/${f.accountId}/slots`,
    body: () => ({ from: '09:00', to: '21:00', minGapMinutes: 60, days: [1, 2] }),
    expect: [401, 200, 404, 200],
  },
  {
    name: 'PUT /accounts-group/{id}/slots',
    method: 'PUT',
    url: (f) => `/api/accounts-group/${f.groupId}/slots`,
    body: () => ({ from: '09:00', to: '21:00', minGapMinutes: 60, days: [1, 2] }),
    expect: [401, 200, 404, 200],
  },
  { name: 'DELETE /accounts/{id}/slots', method: 'DELETE', url: (f) => `/api/accounts/${f.accountId}/slots`, expect: [401, 200, 404, 200] },
  {
    name: 'DELETE /accounts-group/{id}/slots',
    method: 'DELETE',
    url: (f) => `/api/accounts-group/${f.groupId}/slots`,
    expect: [401, 200, 404, 200],
  },
  // The statistics over a period: everyone reads their own, another's profile or group is not found.
  { name: 'GET /stats/choices', method: 'GET', url: () => '/api/stats/choices', expect: [401, 200, 200, 200] },
  {
    name: 'GET /stats/top of a profile',
    method: 'GET',
    url: (f) => `/api/stats/top?from=2026-01-01&to=2026-01-31&accountId=${f.accountId}`,
    expect: [401, 200, 404, 200],
  },
  {
    name: 'GET /stats/top of a group',
    method: 'GET',
    url: (f) => `/api/stats/top?from=2026-01-01&to=2026-01-31&groupId=${f.groupId}`,
    expect: [401, 200, 404, 200],
  },
  {
    name: 'GET /stats/export.csv of a profile',
    method: 'GET',
    url: (f) => `/api/stats/export.csv?from=2026-01-01&to=2026-01-31&accountId=${f.accountId}`,
    expect: [401, 200, 404, 200],
  },
  {
    name: 'GET /stats/export.csv of a group',
    method: 'GET',
    url: (f) => `/api/stats/export.csv?from=2026-01-01&to=2026-01-31&groupId=${f.groupId}`,
    expect: [401, 200, 404, 200],
  },
  { name: 'GET /tags', method: 'GET', url: () => '/api/tags', expect: [401, 200, 200, 200] },
  { name: 'GET /tags/{id}', method: 'GET', url: (f) => `/api/tags/${f.tagSetId}`, expect: [401, 200, 404, 200] },
  { name: 'POST /tags', method: 'POST', url: () => '/api/tags', body: () => ({ name: 'Set', tags: ['a'] }), expect: [401, 201, 201, 201] },
  {
    name: 'PATCH /tags/{id}',
    method: 'PATCH',
    url: (f) => `/api/tags/${f.tagSetId}`,
    body: () => ({ name: 'Set', tags: ['b'] }),
    expect: [401, 200, 404, 200],
  },
  { name: 'GET /users', method: 'GET', url: () => '/api/users', expect: [401, 403, 403, 200] },
  { name: 'GET /users/{id}', method: 'GET', url: (f) => `/api/users/${f.ownerId}`, expect: [401, 403, 403, 200] },
  { name: 'GET /users/{id}/account', method: 'GET', url: (f) => `/api/users/${f.ownerId}/account?page=1`, expect: [401, 403, 403, 200] },
  { name: 'GET /users/{id}/video', method: 'GET', url: (f) => `/api/users/${f.ownerId}/video?page=1`, expect: [401, 403, 403, 200] },
  {
    name: 'POST /users',
    method: 'POST',
    url: () => '/api/users',
    body: () => ({ login: 'newbie', password: 'secret1', password_confirmation: 'secret1' }),
    expect: [401, 403, 403, 201],
    sessionOnly: true,
  },
  {
    name: 'PATCH /users/{id}',
    method: 'PATCH',
    url: (f) => `/api/users/${f.victimId}`,
    body: () => ({ login: 'victim2', password: 'secret1', password_confirmation: 'secret1' }),
    expect: [401, 403, 403, 200],
    sessionOnly: true,
  },
  // The browser arrives from Google without a token: the signed state decides, never the caller.
  {
    name: 'GET /oauth/youtube/callback',
    method: 'GET',
    url: () => '/api/oauth/youtube/callback?code=x&state=forged',
    expect: [302, 302, 302, 302],
  },
  { name: 'DELETE /tags/{id}', method: 'DELETE', url: (f) => `/api/tags/${f.tagSetId}`, expect: [401, 204, 404, 204] },
  { name: 'DELETE /accounts-group/{id}', method: 'DELETE', url: (f) => `/api/accounts-group/${f.groupId}`, expect: [401, 204, 404, 204] },
  { name: 'DELETE /accounts/{id}', method: 'DELETE', url: (f) => `/api/accounts/${f.accountId}`, expect: [401, 204, 404, 204] },
  {
    name: 'DELETE /users/{id}',
    method: 'DELETE',
    url: (f) => `/api/users/${f.victimId}`,
    expect: [401, 403, 403, 204],
    sessionOnly: true,
  },
];

const roles: Role[] = ['anonymous', 'owner', 'other', 'admin'];

type Signed = Exclude<Role, 'anonymous'>;

/**
 * The same sweep through personal API tokens (issue 32.4), each answered as a session would be: a
 * publish token as its user's session, an admin's publish token as another operator's (it acts
 * as an operator), and a read token as its session on reads and 403 on everything else. What
 * changes a user is 403 to every token (issue 38).
 */
const tokenCases: { name: string; user: Signed; scope: 'read' | 'publish' | 'admin'; answersAs: Signed }[] = [
  { name: "the owner's publish token", user: 'owner', scope: 'publish', answersAs: 'owner' },
  { name: "another user's publish token", user: 'other', scope: 'publish', answersAs: 'other' },
  { name: "the admin's admin token", user: 'admin', scope: 'admin', answersAs: 'admin' },
  { name: "the admin's publish token", user: 'admin', scope: 'publish', answersAs: 'other' },
  { name: "the owner's read token", user: 'owner', scope: 'read', answersAs: 'owner' },
  { name: "another user's read token", user: 'other', scope: 'read', answersAs: 'other' },
];

async function fixture(env: TestEnv) {
  const admin = await createUser(env, 'admin', { role: 'admin' });
  const owner = await createUser(env, 'owner');
  const other = await createUser(env, 'other');
  const victim = await createUser(env, 'victim');
  const post = async (url: string, payload: object) => {
    const response = await env.app.inject({ method: 'POST', url, payload, headers: owner.headers });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as number;
  };
  const accountId = await post('/api/accounts', accountBody);
  const freeAccountId = await post('/api/accounts', { ...accountBody, isActiveYouTube: false });
  const groupId = await post('/api/accounts-group', { name: 'Group', accounts: [{ id: accountId, title: '', value: accountId }] });
  const tagSetId = await post('/api/tags', { name: 'Tags', tags: ['one'] });
  const headers: Record<Role, Record<string, string>> = {
    anonymous: {},
    owner: owner.headers,
    other: other.headers,
    admin: admin.headers,
  };
  return { headers, ids: { accountId, freeAccountId, groupId, tagSetId, ownerId: owner.id, victimId: victim.id } };
}

async function sweep(env: TestEnv, headers: Record<string, string>, ids: Fixture, expectedOf: (route: RouteCase) => number) {
  const actual: Record<string, number> = {};
  const expected: Record<string, number> = {};
  for (const route of routes) {
    const response = await env.app.inject({
      method: route.method,
      url: route.url(ids),
      headers,
      ...(route.body ? { payload: route.body(ids) } : {}),
    });
    actual[route.name] = response.statusCode;
    expected[route.name] = expectedOf(route);
  }
  expect(actual).toEqual(expected);
}

describeEachDatabase('back-office authorization matrix', (env) => {
  for (const [index, role] of roles.entries()) {
    it(`answers ${role} with the expected status on every route`, async () => {
      const { headers, ids } = await fixture(env());
      await sweep(env(), headers[role], ids, (route) => route.expect[index]);
    });
  }

  for (const { name, user, scope, answersAs } of tokenCases) {
    it(`answers ${name} as the matrix says`, async () => {
      const { headers, ids } = await fixture(env());
      const token = await createApiToken(env(), { headers: headers[user] }, scope);
      const column = roles.indexOf(answersAs);
      await sweep(env(), token.headers, ids, (route) =>
        route.sessionOnly || (scope === 'read' && route.method !== 'GET') ? 403 : route.expect[column],
      );
    });
  }

  // Issue 38: a leaked admin token took the admin's account through PATCH /api/users/{id}. Every
  // route of the table, walked with an admin-scope token: exactly these refuse it as needing a
  // person, and none of them changed a user or a token on the way.
  it('refuses an admin-scope token on every route that changes a user, a password or a token, and on no other', async () => {
    const { headers, ids } = await fixture(env());
    const token = await createApiToken(env(), { headers: headers.admin }, 'admin');
    const newPassword = { password: 'taken-over', password_confirmation: 'taken-over' };
    const bodies: Record<string, object> = {
      'POST /api/users/': { login: 'intruder', ...newPassword },
      'PATCH /api/users/:id': { login: 'victim', ...newPassword },
      'POST /api/auth/password': { current_password: 'password123', ...newPassword },
      'POST /api/tokens/': { name: 'successor', scope: 'admin', expiresInDays: 365 },
    };
    const sessionOnly = [
      'DELETE /api/tokens/:id',
      'DELETE /api/users/:id',
      'GET /api/tokens/',
      'PATCH /api/users/:id',
      'POST /api/auth/password',
      'POST /api/tokens/',
      'POST /api/users/',
    ];
    const state = async () => ({
      users: (await env().db.sql('SELECT id, login, password_hash, role FROM users ORDER BY id', [])).rows,
      tokens: (await env().db.sql('SELECT id, revoked_at FROM api_tokens ORDER BY id', [])).rows,
    });
    const before = await state();

    const refused: string[] = [];
    const routes = env().app.routeTable.flatMap((route) =>
      (Array.isArray(route.method) ? route.method : [route.method])
        .filter((method) => method !== 'HEAD')
        .map((method) => ({ method, route })),
    );
    expect(routes.length).toBeGreaterThan(60);
    for (const { method, route } of routes) {
      const key = `${method} ${route.url}`;
      const id = route.url.startsWith('/api/users/') ? ids.victimId : route.url.startsWith('/api/tokens/') ? token.id : 1;
      const url = route.url
        .replace(/:id\b/g, String(id))
        .replace(/:[A-Za-z]+/g, '1')
        .replace(/\*$/, 'x');
      const response = await env().app.inject({
        method: method as 'GET',
        url,
        headers: token.headers,
        ...(bodies[key] ? { payload: bodies[key] } : {}),
      });
      if (
        response.statusCode === 403 &&
        response.headers['content-type']?.toString().startsWith('application/json') &&
        response.json().message === t.server.apiTokenNeedsSession
      )
        refused.push(key);
    }
    expect(refused.sort()).toEqual(sessionOnly);
    expect(await state()).toEqual(before);
  });
});
