import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { t } from '../../server/messages';
import { createApiToken, createUser, describeEachDatabase } from './helpers';
import { createAccount, insertVideo } from './backoffice-fixtures';

const body = (login: string, password = 'secret1', confirmation = password) => ({ login, password, password_confirmation: confirmation });

describeEachDatabase('users API', (env) => {
  const adminOf = () => createUser(env(), 'chief', { role: 'admin' });

  it('checks login, password and its confirmation with the spec messages', async () => {
    const admin = await adminOf();
    const post = async (payload: object) =>
      (await env().app.inject({ method: 'POST', url: '/api/users', headers: admin.headers, payload })).json().message;
    expect(await post({})).toEqual([t.validation.required]);
    expect(await post(body('a'))).toEqual([t.validation.tooShort(2)]);
    expect(await post(body('a'.repeat(51)))).toEqual([t.validation.tooLong(50)]);
    expect(await post(body('operator', '12345'))).toEqual([t.validation.tooShort(6)]);
    expect(await post(body('operator', 'p'.repeat(51)))).toEqual([t.validation.tooLong(50)]);
    expect(await post(body('operator', 'secret1', 'secret2'))).toEqual(['Паролі не збігаються']);
    // SPEC's call (login, password): the repeat is the form's, so its absence is no error.
    const specShape = await env().app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin.headers,
      payload: { login: 'operator', password: 'secret1' },
    });
    expect(specShape.statusCode, specShape.body).toBe(201);
  });

  it('creates a user who can then log in, and refuses a taken login', async () => {
    const admin = await adminOf();
    const created = await env().app.inject({ method: 'POST', url: '/api/users', headers: admin.headers, payload: body(' operator ') });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: created.json().id, login: 'operator', role: 'user', videosCount: 0, accountsCount: 0 });
    const login = await env().app.inject({ method: 'POST', url: '/api/auth/login', payload: { login: 'operator', password: 'secret1' } });
    expect(login.statusCode).toBe(200);

    const again = await env().app.inject({ method: 'POST', url: '/api/users', headers: admin.headers, payload: body('operator') });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(t.users.loginTaken);
    const other = await createUser(env(), 'other');
    for (const [id, payload] of [
      [other.id, body('operator')],
      [admin.id, { login: 'operator' }],
    ] as const) {
      const rename = await env().app.inject({ method: 'PATCH', url: `/api/users/${id}`, headers: admin.headers, payload });
      expect(rename.statusCode).toBe(409);
      expect(rename.json().message).toBe(t.users.loginTaken);
    }
  });

  it('changes login and password', async () => {
    const admin = await adminOf();
    const user = await createUser(env(), 'operator');
    const edited = await env().app.inject({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      headers: admin.headers,
      payload: body('renamed', 'newpass1'),
    });
    expect(edited.json()).toMatchObject({ id: user.id, login: 'renamed' });
    const login = await env().app.inject({ method: 'POST', url: '/api/auth/login', payload: { login: 'renamed', password: 'newpass1' } });
    expect(login.statusCode).toBe(200);
  });

  it('lists users with their roles and counts, and pages their profiles and videos', async () => {
    const admin = await adminOf();
    const user = await createUser(env(), 'operator');
    const account = await createAccount(env(), user);
    await createAccount(env(), user);
    const videoId = await insertVideo(env(), user.id, account.id);

    const list = (await env().app.inject({ url: '/api/users', headers: admin.headers })).json();
    expect(list).toEqual({
      data: [
        { id: admin.id, login: 'chief', role: 'admin', videosCount: 0, accountsCount: 0 },
        { id: user.id, login: 'operator', role: 'user', videosCount: 1, accountsCount: 2 },
      ],
      page: 1,
      totalPages: 1,
      total: 2,
    });

    const detail = (await env().app.inject({ url: `/api/users/${user.id}`, headers: admin.headers })).json();
    expect(detail.user).toEqual({ id: user.id, login: 'operator', role: 'user', videosCount: 1, accountsCount: 2 });
    expect(detail.accounts).toMatchObject({ page: 1, totalPages: 1, total: 2 });
    expect(detail.accounts.data[0]).not.toHaveProperty('YouTubeAuthClientSecret');
    expect(detail.video.data).toEqual([expect.objectContaining({ id: videoId, account: { id: account.id, title: `#${account.id}` } })]);
    const accountsPage = (await env().app.inject({ url: `/api/users/${user.id}/account?page=1`, headers: admin.headers })).json();
    expect(accountsPage).toEqual(detail.accounts);
    const videoPage = (await env().app.inject({ url: `/api/users/${user.id}/video?page=1`, headers: admin.headers })).json();
    expect(videoPage).toEqual(detail.video);
    expect((await env().app.inject({ url: '/api/users/999/account', headers: admin.headers })).statusCode).toBe(404);
  });

  it('does not let an admin delete themself', async () => {
    const admin = await adminOf();
    const response = await env().app.inject({ method: 'DELETE', url: `/api/users/${admin.id}`, headers: admin.headers });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(t.users.cannotDeleteSelf);
    expect((await env().app.inject({ url: '/api/auth/me', headers: admin.headers })).statusCode).toBe(200);
  });

  it("deleting a user removes what the user owns and keeps what other users own, detached from the user's profiles", async () => {
    const admin = await createUser(env(), 'chief', { role: 'admin' });
    const leaver = await createUser(env(), 'leaver');
    const stayer = await createUser(env(), 'stayer');
    const leaversAccount = await createAccount(env(), leaver, { isActiveTikTok: true, TikTiokAuthStr: 'token' });
    const leaversVideo = await insertVideo(env(), leaver.id, leaversAccount.id);
    await env().app.inject({ method: 'POST', url: '/api/tags', headers: leaver.headers, payload: { name: 'Mine', tags: ['a'] } });
    const leaversGrouped = await createAccount(env(), leaver);
    await env().app.inject({
      method: 'POST',
      url: '/api/accounts-group',
      headers: leaver.headers,
      payload: { name: 'Mine', accounts: [{ id: leaversGrouped.id, title: '', value: leaversGrouped.id }] },
    });

    // An admin published one of their own videos through the leaver's profile, and grouped it with a profile of another user.
    const adminsVideo = await insertVideo(env(), admin.id, leaversAccount.id);
    const stayersAccount = await createAccount(env(), stayer);
    const stayersVideo = await insertVideo(env(), stayer.id, stayersAccount.id);
    const adminsGroup = await env().app.inject({
      method: 'POST',
      url: '/api/accounts-group',
      headers: admin.headers,
      payload: {
        name: 'Mixed',
        accounts: [
          { id: leaversAccount.id, title: '', value: leaversAccount.id },
          { id: stayersAccount.id, title: '', value: stayersAccount.id },
        ],
      },
    });
    expect(adminsGroup.statusCode, adminsGroup.body).toBe(201);

    const deleted = await env().app.inject({ method: 'DELETE', url: `/api/users/${leaver.id}`, headers: admin.headers });
    expect(deleted.statusCode).toBe(204);

    const count = async (table: string) =>
      Number((await env().db.sql(`SELECT count(*) AS n FROM ${table} WHERE user_id = $1`, [leaver.id])).rows[0].n);
    expect({
      accounts: await count('accounts'),
      tag_sets: await count('tag_sets'),
      account_groups: await count('account_groups'),
      videos: await count('videos'),
      creation_requests: await count('creation_requests'),
      refresh_tokens: await count('refresh_tokens'),
    }).toEqual({ accounts: 0, tag_sets: 0, account_groups: 0, videos: 0, creation_requests: 0, refresh_tokens: 0 });

    const { rows: videos } = await env().db.sql('SELECT id, user_id, account_id, status, url_youtube FROM videos ORDER BY id', []);
    expect(videos).toEqual([
      { id: adminsVideo, user_id: admin.id, account_id: null, status: 'success', url_youtube: 'https://youtu.be/x' },
      { id: stayersVideo, user_id: stayer.id, account_id: stayersAccount.id, status: 'success', url_youtube: 'https://youtu.be/x' },
    ]);
    expect(videos.map((video) => video.id)).not.toContain(leaversVideo);
    const group = (await env().app.inject({ url: `/api/accounts-group/${adminsGroup.json().id}`, headers: admin.headers })).json();
    expect(group.accounts.map((account: { id: number }) => account.id)).toEqual([stayersAccount.id]);
    expect((await env().app.inject({ url: '/api/auth/me', headers: leaver.headers })).statusCode).toBe(401);
  });

  it("removes the deleted user's image and video files, and keeps everyone else's", async () => {
    const admin = await adminOf();
    const leaver = await createUser(env(), 'leaver');
    const stayer = await createUser(env(), 'stayer');
    await insertVideo(env(), leaver.id, null);
    await insertVideo(env(), stayer.id, null);
    const { rows } = await env().db.sql('SELECT user_id, id_upload FROM creation_requests ORDER BY id', []);
    const [leaversRequest, stayersRequest] = rows.map((row) => row.id_upload as string);
    const place = async (key: string) => {
      const file = path.join(env().mediaDir, 'incoming.bin');
      await fs.writeFile(file, 'bytes');
      await env().media.storage.put(key, file);
    };
    await place(`photos/${leaver.id}/a.png`);
    await place(`photos/${stayer.id}/b.png`);
    await place(`requests/${leaversRequest}/0.mp4`);
    await place(`requests/${stayersRequest}/0.mp4`);

    const deleted = await env().app.inject({ method: 'DELETE', url: `/api/users/${leaver.id}`, headers: admin.headers });
    expect(deleted.statusCode).toBe(204);
    const sizes = async (...keys: string[]) => Promise.all(keys.map((key) => env().media.storage.size(key)));
    expect(await sizes(`photos/${leaver.id}/a.png`, `requests/${leaversRequest}/0.mp4`)).toEqual([null, null]);
    expect(await sizes(`photos/${stayer.id}/b.png`, `requests/${stayersRequest}/0.mp4`)).toEqual([5, 5]);
  });

  it("resets another user's password: their sessions end and their API tokens are revoked, no one else's", async () => {
    const admin = await adminOf();
    await env().app.inject({ method: 'POST', url: '/api/users', headers: admin.headers, payload: body('operator', 'first-pass') });
    const login = await env().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'operator', password: 'first-pass' },
    });
    const { user, accessToken, refreshToken } = login.json();
    const operator = { headers: { authorization: `Bearer ${accessToken}` } };
    const operatorTokens = [await createApiToken(env(), operator, 'read'), await createApiToken(env(), operator, 'publish')];
    const bystander = await createUser(env(), 'bystander');
    const bystanderToken = await createApiToken(env(), bystander, 'publish');
    const adminToken = await createApiToken(env(), admin, 'admin');

    const changed = await env().app.inject({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      headers: admin.headers,
      payload: body('operator', 'second-pass'),
    });
    expect(changed.statusCode).toBe(200);
    expect((await env().app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } })).statusCode).toBe(401);
    expect((await env().app.inject({ url: '/api/auth/me', headers: operator.headers })).statusCode).toBe(401);
    for (const token of operatorTokens) {
      const refused = await env().app.inject({ url: '/api/auth/me', headers: token.headers });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBe(t.server.apiTokenEnded);
    }
    for (const still of [bystander, bystanderToken, admin, adminToken]) {
      expect((await env().app.inject({ url: '/api/auth/me', headers: still.headers })).statusCode).toBe(200);
    }
    const again = await env().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'operator', password: 'second-pass' },
    });
    expect(again.statusCode).toBe(200);
    const listed = await env().app.inject({ url: '/api/tokens', headers: { authorization: `Bearer ${again.json().accessToken}` } });
    expect(listed.json().data).toEqual([]);
  });

  it("changes the admin's own password only through Settings with the current one, and their login here", async () => {
    const admin = await createUser(env(), 'chief', { role: 'admin', password: 'first-pass' });
    const patchOwn = (payload: object) =>
      env().app.inject({ method: 'PATCH', url: `/api/users/${admin.id}`, headers: admin.headers, payload });
    for (const payload of [
      body('chief', 'taken-over'),
      { login: 'chief', password: 'taken-over' },
      { login: 'chief', password_confirmation: 'x' },
    ]) {
      const refused = await patchOwn(payload);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(t.users.ownPasswordInSettings);
    }
    const signIn = (login: string, password: string) =>
      env().app.inject({ method: 'POST', url: '/api/auth/login', payload: { login, password } });
    expect((await signIn('chief', 'taken-over')).statusCode).toBe(401);
    expect((await signIn('chief', 'first-pass')).statusCode).toBe(200);

    expect((await patchOwn({ login: 'a' })).json().message).toEqual([t.validation.tooShort(2)]);
    const renamed = await patchOwn({ login: ' head ' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ id: admin.id, login: 'head', role: 'admin' });
    // A new login ends no session: the one it was made in goes on.
    expect((await env().app.inject({ url: '/api/auth/me', headers: admin.headers })).json().user.login).toBe('head');

    const change = (current: string) =>
      env().app.inject({
        method: 'POST',
        url: '/api/auth/password',
        headers: admin.headers,
        payload: { current_password: current, password: 'second-pass', password_confirmation: 'second-pass' },
      });
    expect((await change('wrong-pass')).json().message).toBe(t.settings.wrongCurrentPassword);
    expect((await change('first-pass')).statusCode).toBe(204);
    expect((await signIn('head', 'second-pass')).statusCode).toBe(200);
  });

  it('refuses every change of a user, and the password and tokens, to an API token of any scope, even the admin’s own', async () => {
    const admin = await createUser(env(), 'chief', { role: 'admin', password: 'first-pass' });
    const operator = await createUser(env(), 'operator');
    const adminToken = await createApiToken(env(), admin, 'admin');
    const before = (await env().db.sql('SELECT id, login, password_hash, role FROM users ORDER BY id', [])).rows;
    const newPassword = body('chief', 'taken-over');
    const attempts: [method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object][] = [
      ['PATCH', `/api/users/${admin.id}`, newPassword],
      ['PATCH', `/api/users/${admin.id}`, { login: 'taken' }],
      ['PATCH', `/api/users/${operator.id}`, body('operator', 'taken-over')],
      ['POST', '/api/users', body('intruder', 'taken-over')],
      ['DELETE', `/api/users/${operator.id}`],
      ['POST', '/api/auth/password', { current_password: 'first-pass', password: 'taken-over', password_confirmation: 'taken-over' }],
      ['POST', '/api/tokens', { name: 'successor', scope: 'admin', expiresInDays: 365 }],
      ['DELETE', `/api/tokens/${adminToken.id}`],
    ];
    for (const scope of ['admin', 'publish', 'read'] as const) {
      const token = scope === 'admin' ? adminToken : await createApiToken(env(), admin, scope);
      for (const [method, url, payload] of attempts) {
        const response = await env().app.inject({ method, url, headers: token.headers, ...(payload ? { payload } : {}) });
        expect({ scope, method, url, status: response.statusCode, message: response.json().message }).toEqual({
          scope,
          method,
          url,
          status: 403,
          message: t.server.apiTokenNeedsSession,
        });
      }
    }
    expect((await env().db.sql('SELECT id, login, password_hash, role FROM users ORDER BY id', [])).rows).toEqual(before);
    const { rows } = await env().db.sql('SELECT count(*)::int AS active FROM api_tokens WHERE revoked_at IS NULL', []);
    expect(rows[0].active).toBe(3);
    // Reading stays open to the admin token: only what changes a user needs a person.
    expect((await env().app.inject({ url: '/api/users', headers: adminToken.headers })).statusCode).toBe(200);
  });
});
