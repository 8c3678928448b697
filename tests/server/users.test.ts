import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { t } from '../../server/messages';
import { createUser, describeEachDatabase } from './helpers';
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
    const rename = await env().app.inject({
      method: 'PATCH',
      url: `/api/users/${admin.id}`,
      headers: admin.headers,
      payload: body('operator'),
    });
    expect(rename.statusCode).toBe(409);
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

  it("ends the user's sessions when an admin sets a new password", async () => {
    const admin = await adminOf();
    const created = await env().app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin.headers,
      payload: body('operator', 'first-pass'),
    });
    const id = created.json().id;
    const login = await env().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'operator', password: 'first-pass' },
    });
    const { refreshToken } = login.json();
    const changed = await env().app.inject({
      method: 'PATCH',
      url: `/api/users/${id}`,
      headers: admin.headers,
      payload: body('operator', 'second-pass'),
    });
    expect(changed.statusCode).toBe(200);
    const refreshed = await env().app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
    expect(refreshed.statusCode).toBe(401);
    const again = await env().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'operator', password: 'second-pass' },
    });
    expect(again.statusCode).toBe(200);
  });
});
