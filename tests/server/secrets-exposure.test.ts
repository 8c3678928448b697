import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AccountDetail, UploadDetail } from '../../src/lib/contract';
import { buildApp, logRedactions, logSerializers } from '../../server/app';
import { connectDatabase, type Database } from '../../server/db/connect';
import { migrate } from '../../server/db/migrate';
import { decryptSecret } from '../../server/auth/secrets';
import { connectionSecrets, loadConnections } from '../../server/platforms/connections';
import { startQueue, type Queue } from '../../server/jobs/queue';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import { startLoopbackProxy, type LoopbackProxy } from '../../server/sandbox/loopback-proxy';
import { makeClip, makeMediaFixtures, multipart, type MediaFixtures } from '../fixtures/media';
import {
  createUser,
  databaseKinds,
  freshDatabase,
  testMedia,
  testPlatformSettings,
  testTokenSettings,
  uploadImages,
  type TestEnv,
} from './helpers';
import { emptyAccount } from './backoffice-fixtures';
import { answerSandboxConsent, openConsentLink } from '../fixtures/sandbox-consent';
import { engineSettings } from '../../server/config';
import { systemClock } from '../../server/clock';

/**
 * The whole life of a profile's secrets, at the most talkative log level: stored, edited, used
 * for a YouTube connection, an upload, a render and a publication to the three platforms. Then
 * every answer of the profile and user routes, every row of every table (pg-boss's included),
 * PGlite's files and the log are searched for each secret and token: none may appear.
 */
for (const kind of databaseKinds()) {
  describe(`no secret leaves the server [${kind}]`, () => {
    const secrets = {
      YouTubeAuthClientSecret: 'needle-client-secret-41fc',
      YouTubePassword: 'needle-youtube-password-92ae',
      InstagramPassword: 'needle-instagram-password-7b3d',
      InstagramAccessToken: 'needle-instagram-token-5e1a',
      TikTiokAuthStr: issueSandboxToken('tiktok', `exposure-${kind}@tiktok`),
    };
    const proxyPassword = 'needle-proxy-password-c0de';
    let dataDir: string;
    let db: Database;
    let drop: () => Promise<void> = async () => undefined;
    let env: TestEnv;
    let queue: Queue;
    let proxy: LoopbackProxy;
    let fixtures: MediaFixtures;
    let logs = '';
    const sandbox = new SandboxState();

    beforeAll(async () => {
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'secrets-exposure-'));
      if (kind === 'pglite') {
        db = await connectDatabase({ dataDir });
        await migrate(db);
        drop = () => db.close();
      } else {
        ({ db, drop } = await freshDatabase('postgres'));
      }
      const logStream = new Writable({
        write(chunk, _encoding, done) {
          logs += chunk;
          done();
        },
      });
      const logger = pino({ level: 'trace', redact: logRedactions, serializers: logSerializers }, logStream);
      const tokenSettings = testTokenSettings();
      const media = testMedia(path.join(dataDir, 'media'));
      const platforms = testPlatformSettings();
      queue = await startQueue({
        db,
        log: logger,
        work: true,
        context: { db, media, keys: tokenSettings.keys, platforms },
        engine: engineSettings(),
      });
      const app = await buildApp({
        clock: systemClock,
        db,
        keys: tokenSettings.keys,
        tokenSettings,
        queue,
        media,
        logger,
        sandbox: { state: sandbox },
      });
      env = { kind, db, app, tokenSettings, media, mediaDir: path.join(dataDir, 'media'), queue, platforms };
      platforms.sandboxOrigin = await app.listen({ port: 0, host: '127.0.0.1' });
      proxy = await startLoopbackProxy({ username: 'buyer', password: proxyPassword });
      fixtures = await makeMediaFixtures(media.tools);
      // Instagram takes Reels of 3 s and more (issue 22.3's pre-queue check).
      await makeClip(media.tools, path.join(fixtures.dir, 'reel.mp4'), { seconds: 4 });
    });

    afterAll(async () => {
      await proxy?.close();
      await fixtures?.remove();
      await fs.rm(dataDir, { recursive: true, force: true });
    });

    it('finds no secret in any answer, any table, any database file or the trace log of a full cycle', { timeout: 120_000 }, async () => {
      const { app } = env;
      const baseUrl = env.platforms.sandboxOrigin;
      await createUser(env, 'operator', { password: 'operator-password' });
      const admin = await createUser(env, 'chief', { role: 'admin' });
      const login = (
        await app.inject({ method: 'POST', url: '/api/auth/login', payload: { login: 'operator', password: 'operator-password' } })
      ).json();
      const headers = { authorization: `Bearer ${login.accessToken}` };
      const answers: string[] = [JSON.stringify(login.user)];
      const call = async (method: string, url: string, payload?: object, as = headers) => {
        const response = await app.inject({ method: method as 'GET', url, headers: as, ...(payload ? { payload } : {}) });
        expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
        answers.push(response.body);
        return response;
      };

      const fields = {
        ...emptyAccount,
        ...secrets,
        proxy: `http://buyer:${proxyPassword}@127.0.0.1:${proxy.port}`,
        isActiveYouTube: true,
        YouTubeAuthClientId: `exposure-${kind}.apps.googleusercontent.com`,
        isActiveInstagram: true,
        InstagramLogin: `exposure-${kind}.insta`,
        isActiveTikTok: true,
      };
      const account = (await call('POST', '/api/accounts', fields)).json<AccountDetail>();
      await call('PATCH', `/api/accounts/${account.id}`, { ...fields, comments: 'edited' });
      await call('PATCH', `/api/accounts/${account.id}`, {
        ...fields,
        ...Object.fromEntries(Object.keys(secrets).map((key) => [key, ''])),
        comments: 'blank secrets keep theirs',
      });

      const connect = await fetch(`${baseUrl}/api/accounts/connect-youtube/${account.id}`, { method: 'POST', headers });
      const flow = await openConsentLink(connect);
      const consent = await answerSandboxConsent(flow, 'allow', 'manual');
      const callbackUrl = new URL(consent.headers.get('location')!);
      const landed = await fetch(callbackUrl, { headers: { cookie: flow.cookie }, redirect: 'manual' });
      expect(landed.headers.get('location')).toBe(`/accounts/${account.id}?youtube=connected`);

      const photoIds = await uploadImages(app, headers, [fixtures.png]);
      const upload = await multipart([
        { name: 'countVideo', value: '1' },
        { name: 'photoIds', value: JSON.stringify(photoIds) },
        { name: 'file', file: { path: path.join(fixtures.dir, 'reel.mp4'), filename: 'clip.mp4', contentType: 'video/mp4' } },
      ]);
      const created = await app.inject({
        method: 'POST',
        url: '/api/create-video/create',
        headers: { ...headers, ...upload.headers },
        payload: upload.payload,
      });
      expect(created.statusCode, created.body).toBe(201);
      const { idUpload } = created.json();
      let detail = await call('GET', `/api/create-video/request/${idUpload}`);
      await vi.waitFor(
        async () => {
          detail = await app.inject({ url: `/api/create-video/request/${idUpload}`, headers });
          expect(detail.json().status).toBe('success');
        },
        { timeout: 60_000, interval: 250 },
      );
      const video = detail.json().video[0];
      // TikTok's privacy and YouTube's made-for-kids have no default: the operator's remembered choices.
      await call('PUT', `/api/posting-rules/${account.id}`, {
        tiktok: { privacyLevel: 'SELF_ONLY' },
        youtube: { selfDeclaredMadeForKids: false },
      });
      await call('POST', `/api/upload-video/${idUpload}`, {
        title: 'Заголовок',
        description: 'Опис',
        tags: ['тег'],
        accounts: [{ id: account.id, title: 'p', value: account.id }],
        video: [{ id: video.id, url: video.url, idUpload, createdAt: video.createdAt, account: null, date: null }],
        inYouTube: true,
        inTikTok: true,
        inInstagram: true,
        date: null,
      });
      await vi.waitFor(
        async () => {
          const published = (await app.inject({ url: `/api/upload-video/${idUpload}`, headers })).json<UploadDetail>();
          expect(published.video.map((item) => [item.status, item.error, item.errorTiktok, item.errorInstagram])).toEqual([
            ['success', null, null, null],
          ]);
        },
        { timeout: 60_000, interval: 250 },
      );

      // Every answer of the profile and user routes.
      for (const url of [
        '/api/accounts',
        `/api/accounts/${account.id}`,
        `/api/accounts/${account.id}/video`,
        '/api/accounts/search',
        '/api/auth/me',
      ])
        await call('GET', url);
      for (const url of [
        '/api/users',
        `/api/users/${account.user.id}`,
        `/api/users/${account.user.id}/account`,
        `/api/users/${account.user.id}/video`,
      ]) {
        await call('GET', url, undefined, admin.headers);
      }
      await call('PATCH', `/api/accounts/update-profile-inst/${account.id}`, { profileName: 'name', profileDescription: '' });

      // Every row of every table, as a dump would hold them.
      const { rows: tables } = await db.sql(
        `SELECT schemaname, tablename FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
        [],
      );
      let dump = '';
      for (const { schemaname, tablename } of tables) {
        const { rows } = await db.sql(`SELECT row_to_json(t)::text AS row FROM "${schemaname}"."${tablename}" t`, []);
        dump += rows.map((row) => row.row).join('\n');
      }
      expect(dump).toContain(`exposure-${kind}.apps.googleusercontent.com`);

      const [stored] = (
        await db.sql(`SELECT refresh_token, access_token FROM account_connections WHERE account_id = $1 AND platform = 'youtube'`, [
          account.id,
        ])
      ).rows;
      const openStored = (column: 'refresh_token' | 'access_token') =>
        decryptSecret(
          env.tokenSettings.keys.secretsAtRest,
          { table: 'account_connections', rowId: account.id, column: `youtube_${column}` },
          stored[column],
        );
      const needles: Record<string, string> = {
        ...secrets,
        proxyPassword,
        youtubeRefreshToken: openStored('refresh_token'),
        youtubeAccessToken: openStored('access_token'),
        authorizationCode: callbackUrl.searchParams.get('code')!,
        oauthState: callbackUrl.searchParams.get('state')!,
        accessToken: login.accessToken,
        refreshToken: login.refreshToken,
        adminAccessToken: admin.token,
      };
      // The platforms' own tokens, as every connection of the profile keeps them.
      for (const connection of await loadConnections(db, [account.id])) {
        const sealed = connectionSecrets(env.tokenSettings.keys.secretsAtRest, account.id, connection.platform, connection.method);
        for (const column of ['access_token', 'refresh_token'] as const) {
          const token = sealed.open(column, column === 'access_token' ? connection.accessToken : connection.refreshToken);
          if (token) needles[`${connection.platform} ${connection.method} ${column}`] = token;
        }
      }
      // What the sandbox and the proxy record of each call keeps no token of the URL's either
      // (TikTok's upload_token, any parameter named like a token): only its name.
      const recorded = [...sandbox.requests, ...proxy.traffic].map(({ url }) => url);
      expect(recorded.some((url) => url.includes('upload_token=[Redacted]'))).toBe(true);
      expect([...recorded, ...logs.split('\n')].filter((line) => /[?&][^&=\s"]*token[^&=\s"]*=(?!\[Redacted\])/i.test(line))).toEqual([]);
      expect(logs).toContain('Providing options to busboy');
      expect(logs).toContain('/api/oauth/youtube/callback?code=[Redacted]&state=[Redacted]');
      expect(logs).toContain('/sandbox/');

      await queue.stop({ graceful: false, wait: true });
      await app.close();
      await drop();
      const files = kind === 'pglite' ? await filesUnder(path.join(dataDir, 'pglite')) : [];

      const found: string[] = [];
      for (const [name, needle] of Object.entries(needles)) {
        if (answers.some((answer) => answer.includes(needle))) found.push(`${name} in an answer`);
        if (dump.includes(needle)) found.push(`${name} in the database`);
        if (logs.includes(needle)) found.push(`${name} in the log`);
        if (recorded.some((url) => url.includes(needle))) found.push(`${name} in the sandbox's records`);
        for (const { file, bytes } of files) if (bytes.includes(needle)) found.push(`${name} in ${file}`);
      }
      expect(found).toEqual([]);
    });
  });
}

async function filesUnder(dir: string): Promise<{ file: string; bytes: Buffer }[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return { file, bytes: await fs.readFile(file) };
      }),
  );
}
