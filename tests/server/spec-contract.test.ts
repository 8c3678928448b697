import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeMediaFixtures, multipart, testTools, type MediaFixtures, type MultipartPart } from '../fixtures/media';
import { createUser, describeEachDatabase } from './helpers';
import { rememberChoices } from './backoffice-fixtures';
import { renderedRequest } from './publishing-fixtures';

/**
 * SPEC.md section 7 ("The calls it makes") sent as SPEC writes them: SPEC's field names from
 * sections 3 and 7, nothing we added, and where SPEC says "not shown" the shape ARCHITECTURE.md
 * ("API decisions") defines. Every valid one must answer 2xx: what the API adds to a request is
 * optional, so SPEC's shapes stay valid whatever is added later.
 */

let fixtures: MediaFixtures;
beforeAll(async () => {
  fixtures = await makeMediaFixtures(testTools());
});
afterAll(() => fixtures.remove());

/** SPEC section 3, Profile (Account): the fields of the profile form, nothing else. */
const profileForm = {
  proxy: '127.0.0.1:8080',
  ipVersion: 'ipv4',
  comments: 'Основний',
  isActiveYouTube: true,
  isActiveTikTok: true,
  isActiveInstagram: true,
  YouTubeAuthClientId: 'client-id-123.apps.googleusercontent.com',
  YouTubeAuthClientSecret: 'client-secret-123',
  YouTubeLogin: 'channel@example.com',
  YouTubePassword: 'secret-password',
  InstagramLogin: 'insta.login',
  InstagramPassword: 'insta-password',
  TikTiokAuthStr: 'tiktok-access-string',
};

interface Sent {
  call: string;
  status: number;
  body: string;
}

describeEachDatabase(
  "SPEC's requests in SPEC's shapes",
  (env) => {
    it('answers 2xx to every call of SPEC section 7, in the order an operator and an admin make them', { timeout: 120_000 }, async () => {
      const sent: Sent[] = [];
      const admin = await createUser(env(), 'boss', { role: 'admin' });
      await createUser(env(), 'operator', { password: 'operator-password' });

      async function call(headers: Record<string, string>, method: string, url: string, body?: object) {
        const response = await env().app.inject({ method: method as 'GET', url, headers, ...(body ? { payload: body } : {}) });
        sent.push({ call: `${method} ${url}`, status: response.statusCode, body: response.body.slice(0, 300) });
        return response;
      }
      async function upload(headers: Record<string, string>, url: string, parts: MultipartPart[]) {
        const form = await multipart(parts);
        return call({ ...headers, ...form.headers }, 'POST', url, form.payload as unknown as object);
      }
      const json = <T>(response: { json: () => unknown }) => response.json() as T;

      // Auth
      const login = json<{ accessToken: string; refreshToken: string }>(
        await call({}, 'POST', '/api/auth/login', { login: 'operator', password: 'operator-password' }),
      );
      const refreshed = json<{ accessToken: string; refreshToken: string }>(
        await call({}, 'POST', '/api/auth/refresh', { refreshToken: login.refreshToken }),
      );
      const user = { authorization: `Bearer ${refreshed.accessToken}` };
      await call(user, 'GET', '/api/auth/me');

      // Profiles
      const profile = json<{ id: number }>(await call(user, 'POST', '/api/accounts', profileForm));
      // Not SPEC's call: the choices TikTok and YouTube require, remembered for the profile (as
      // PUT /api/posting-rules/{id} stores them), so SPEC's publish shape without `options` goes out.
      await rememberChoices(env(), profile.id);
      await call(user, 'GET', '/api/accounts?page=1');
      await call(user, 'GET', `/api/accounts/${profile.id}`);
      await call(user, 'PATCH', `/api/accounts/${profile.id}`, { ...profileForm, comments: 'Змінений' });
      await call(user, 'PATCH', `/api/accounts/update-channel/${profile.id}`, { description: 'Опис каналу' });
      await call(user, 'PATCH', `/api/accounts/update-profile-inst/${profile.id}`, {
        profileName: 'Профіль',
        profileDescription: 'Опис профілю',
      });
      await call(user, 'GET', `/api/accounts/${profile.id}/video?page=1`);
      await call(user, 'GET', '/api/accounts/search?groupId=0');
      await call(user, 'POST', `/api/accounts/connect-youtube/${profile.id}`);

      // Profile groups (SPEC section 3: accounts are objects id, title, value)
      const chosen = [{ id: profile.id, title: 'Основний', value: profile.id }];
      const group = json<{ id: number }>(await call(user, 'POST', '/api/accounts-group', { name: 'Група', accounts: chosen }));
      await call(user, 'GET', '/api/accounts-group');
      await call(user, 'GET', `/api/accounts-group/${group.id}`);
      await call(user, 'GET', `/api/accounts/search?groupId=${group.id}`);
      await call(user, 'PATCH', `/api/accounts-group/${group.id}`, { name: 'Група 2', accounts: chosen });

      // Tags
      const tagSet = json<{ id: number }>(await call(user, 'POST', '/api/tags', { name: 'Набір', tags: ['біг', 'ранок'] }));
      await call(user, 'GET', '/api/tags');
      await call(user, 'GET', `/api/tags/${tagSet.id}`);
      await call(user, 'PATCH', `/api/tags/${tagSet.id}`, { name: 'Набір 2', tags: ['вечір'] });

      // Photos
      const photos = json<{ data: { id: number; url: string }[] }>(
        await upload(user, '/api/photo-bg', [
          { name: 'files', file: { path: fixtures.png, filename: 'one.png', contentType: 'image/png' } },
          { name: 'files', file: { path: fixtures.jpeg, filename: 'two.jpg', contentType: 'image/jpeg' } },
        ]),
      );
      await call(user, 'GET', '/api/photo-bg?page=1');
      await call(user, 'GET', photos.data[0]!.url);

      // Creation requests
      const created = json<{ id: number; idUpload: string }>(
        await upload(user, '/api/create-video/create', [
          { name: 'file', file: { path: fixtures.clip, filename: 'clip.mp4', contentType: 'video/mp4' } },
          { name: 'countVideo', value: '2' },
        ]),
      );
      await call(user, 'GET', '/api/create-video?page=1');
      await call(user, 'GET', `/api/create-video/request/${created.idUpload}`);

      // Publishing a finished request (ARCHITECTURE: POST /api/upload-video/{idUpload} with SPEC's publish payload)
      const userId = (await env().db.sql(`SELECT id FROM users WHERE login = 'operator'`, [])).rows[0].id as number;
      const finished = await renderedRequest(env(), userId);
      // SPEC section 3, Video item in a request: the items as the detail gave them, in SPEC's fields.
      const detail = json<{ id: number; video: Record<string, unknown>[] }>(
        await call(user, 'GET', `/api/create-video/request/${finished.idUpload}`),
      );
      const specVideoItem = [
        'id',
        'url',
        'idUpload',
        'createdAt',
        'account',
        'date',
        'status',
        'error',
        'errorInstagram',
        'urlInstagram',
        'urlYouTube',
      ];
      await call(user, 'POST', `/api/upload-video/${finished.idUpload}`, {
        id: detail.id,
        title: 'Ранкова пробіжка',
        description: 'Опис для платформ',
        tags: ['біг', 'ранок'],
        accounts: chosen,
        video: detail.video.map((item) => Object.fromEntries(specVideoItem.map((field) => [field, item[field]]))),
        inYouTube: true,
        inTikTok: true,
        inInstagram: true,
        date: null,
      });
      await call(user, 'GET', '/api/upload-video?page=1');
      await call(user, 'GET', `/api/upload-video/${finished.idUpload}`);
      await call(user, 'PATCH', `/api/upload-video/${finished.idUpload}`, {
        title: 'Нова назва',
        description: 'Новий опис',
        tags: ['вечір'],
      });
      const failed = finished.videos[0]!.id;
      await env().db.sql(`UPDATE video_posts SET status = 'error', failure = 'rejected', failure_detail = '{}' WHERE video_id = $1`, [
        failed,
      ]);
      await call(user, 'POST', '/api/upload-video/upload', { videoId: failed, youTubeId: finished.idUpload });

      // Users (admin)
      const managed = json<{ id: number }>(await call(admin.headers, 'POST', '/api/users', { login: 'newcomer', password: 'secret1' }));
      await call(admin.headers, 'GET', '/api/users');
      await call(admin.headers, 'GET', `/api/users/${managed.id}`);
      await call(admin.headers, 'PATCH', `/api/users/${managed.id}`, { login: 'newcomer2', password: 'secret2' });
      await call(admin.headers, 'GET', `/api/users/${userId}/account?page=1`);
      await call(admin.headers, 'GET', `/api/users/${userId}/video?page=1`);

      // Deletes last, as an operator tidies up
      await call(user, 'DELETE', `/api/create-video/${created.id}`);
      await call(user, 'DELETE', `/api/photo-bg/${photos.data[1]!.id}`);
      await call(user, 'DELETE', `/api/tags/${tagSet.id}`);
      await call(user, 'DELETE', `/api/accounts-group/${group.id}`);
      await call(user, 'DELETE', `/api/accounts/${profile.id}`);
      await call(admin.headers, 'DELETE', `/api/users/${managed.id}`);
      await call({}, 'POST', '/api/auth/logout', { refreshToken: refreshed.refreshToken });

      expect(sent.filter((response) => response.status < 200 || response.status > 299)).toEqual([]);
      expect(sent).toHaveLength(46);
    });
  },
  { queue: 'send' },
);
