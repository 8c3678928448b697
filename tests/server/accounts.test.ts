import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accounts } from '../../server/db/schema';
import { decryptSecret, proxyOfAccount, sealPlainProxyPasswords } from '../../server/auth/secrets';
import type { AccountDetail } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { buildLiveApp, createUser, describeEachDatabase } from './helpers';
import { createAccount, emptyAccount, insertVideo, type TestUser } from './backoffice-fixtures';

describeEachDatabase(
  'profiles API',
  (env) => {
    const post = (user: TestUser, payload: object) =>
      env().app.inject({ method: 'POST', url: '/api/accounts', headers: user.headers, payload });

    it('requires the proxy', async () => {
      const user = await createUser(env(), 'operator');
      const response = await post(user, { ...emptyAccount, proxy: '  ' });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toEqual(["Проксі обов'язковий"]);
    });

    it('requires each switched-on platform its credentials, with the spec messages', async () => {
      const user = await createUser(env(), 'operator');
      const response = await post(user, { ...emptyAccount, isActiveYouTube: true, isActiveTikTok: true, isActiveInstagram: true });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toEqual([
        "ID клієнта обов'язковий",
        "Секрет клієнта обов'язковий",
        "Логін Instagram обов'язковий",
        "Пароль Instagram обов'язковий",
        "Рядок доступу TikTok обов'язковий",
      ]);
    });

    it('does not ask for credentials of platforms that are off', async () => {
      const user = await createUser(env(), 'operator');
      const response = await post(user, { proxy: '127.0.0.1:8080' });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ ipVersion: 'ipv4', comments: '', status: 'noactive', isActiveYouTube: false });
    });

    it('accepts only ipv4 and ipv6', async () => {
      const user = await createUser(env(), 'operator');
      const response = await post(user, { ...emptyAccount, ipVersion: 'ipv5' });
      expect(response.json().message).toEqual([t.accountForm.ipVersionInvalid]);
      expect((await post(user, { ...emptyAccount, ipVersion: 'ipv6' })).json().ipVersion).toBe('ipv6');
    });

    it('refuses a proxy that platform calls could not use', async () => {
      const user = await createUser(env(), 'operator');
      const response = await post(user, { ...emptyAccount, proxy: 'ftp://proxy.example:21' });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toEqual([t.accountForm.proxyInvalid]);
    });

    it('requires a channel description', async () => {
      const user = await createUser(env(), 'operator');
      const account = await createAccount(env(), user);
      const url = `/api/accounts/update-channel/${account.id}`;
      const empty = await env().app.inject({ method: 'PATCH', url, headers: user.headers, payload: { description: ' ' } });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toEqual(["Опис обов'язковий"]);
      const saved = await env().app.inject({ method: 'PATCH', url, headers: user.headers, payload: { description: 'About us' } });
      expect(saved.json().description).toBe('About us');
    });

    it('requires at least one of the Instagram name and description', async () => {
      const user = await createUser(env(), 'operator');
      const account = await createAccount(env(), user);
      const url = `/api/accounts/update-profile-inst/${account.id}`;
      const patch = (payload: object) => env().app.inject({ method: 'PATCH', url, headers: user.headers, payload });
      const empty = await patch({ profileName: '', profileDescription: '' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toEqual(["Назва обов'язкова", "Опис обов'язковий"]);
      expect((await patch({})).json().message).toEqual(["Назва обов'язкова", "Опис обов'язковий"]);

      const nameOnly = await patch({ profileName: 'Shop', profileDescription: '' });
      expect(nameOnly.json()).toMatchObject({ profileNameInstagram: 'Shop', profileDescriptionInstagram: '' });
      const descriptionOnly = await patch({ profileName: '', profileDescription: 'Best shop' });
      expect(descriptionOnly.json()).toMatchObject({ profileNameInstagram: '', profileDescriptionInstagram: 'Best shop' });
    });

    it('derives the status from the switched-on platforms and their connections', async () => {
      const user = await createUser(env(), 'operator');
      const none = await createAccount(env(), user);
      const youtube = await createAccount(env(), user, { isActiveYouTube: true, YouTubeAuthClientId: 'id', YouTubeAuthClientSecret: 's' });
      const tiktok = await createAccount(env(), user, { isActiveTikTok: true, TikTiokAuthStr: 'token' });
      const instagram = await createAccount(env(), user, { isActiveInstagram: true, InstagramLogin: 'shop', InstagramPassword: 'pw' });
      const failing = await createAccount(env(), user, { isActiveTikTok: true, TikTiokAuthStr: 'token' });
      await env().db.sql(
        `INSERT INTO connection_states (account_id, platform, state, kind, source, at) VALUES ($1, 'tiktok', 'down', 'refused', 'publish', now())
         ON CONFLICT (account_id, platform) DO UPDATE SET state = EXCLUDED.state, kind = EXCLUDED.kind`,
        [failing.id],
      );
      const connectedYoutube = await createAccount(env(), user, {
        isActiveYouTube: true,
        YouTubeAuthClientId: 'id',
        YouTubeAuthClientSecret: 's',
      });
      await env().db.sql(`UPDATE accounts SET in_youtube = true WHERE id = $1`, [connectedYoutube.id]);

      const list = (await env().app.inject({ url: '/api/accounts', headers: user.headers })).json();
      const statuses = Object.fromEntries(list.data.map((row: AccountDetail) => [row.id, row.status]));
      expect(statuses).toEqual({
        [none.id]: 'noactive',
        [youtube.id]: 'loading',
        [tiktok.id]: 'success',
        [instagram.id]: 'success',
        [failing.id]: 'error',
        [connectedYoutube.id]: 'success',
      });
      expect(list.data.find((row: AccountDetail) => row.id === tiktok.id)).toMatchObject({
        inTikTok: true,
        inInstagram: false,
        inYouTube: false,
      });
      const detail = (await env().app.inject({ url: `/api/accounts/${failing.id}`, headers: user.headers })).json();
      expect(detail.error).toBe(`TikTok: ${t.health.states.down}: ${t.health.kinds.refused}`);
    });

    it('never sends a secret back: the detail only says which are stored, and a blank field keeps them', async () => {
      const user = await createUser(env(), 'operator');
      const account = await createAccount(env(), user, {
        isActiveYouTube: true,
        YouTubeAuthClientId: 'client.apps.googleusercontent.com',
        YouTubeAuthClientSecret: 'yt-secret-1',
        YouTubePassword: 'yt-password-1',
        isActiveInstagram: true,
        InstagramLogin: 'shop',
        InstagramPassword: 'ig-password-1',
        isActiveTikTok: true,
        TikTiokAuthStr: 'tt-access-1',
      });
      const list = await env().app.inject({ url: '/api/accounts', headers: user.headers });
      for (const secret of ['yt-secret-1', 'yt-password-1', 'ig-password-1', 'tt-access-1', 'YouTubeAuthClientSecret', 'TikTiokAuthStr']) {
        expect(list.body).not.toContain(secret);
      }
      expect(list.json()).toMatchObject({ page: 1, totalPages: 1, total: 1 });
      expect(list.json().data[0]).toMatchObject({ id: account.id, user: { id: user.id, login: 'operator' }, group: null });

      const detail = await env().app.inject({ url: `/api/accounts/${account.id}`, headers: user.headers });
      for (const secret of ['yt-secret-1', 'yt-password-1', 'ig-password-1', 'tt-access-1']) expect(detail.body).not.toContain(secret);
      expect(detail.json()).toMatchObject({
        YouTubeAuthClientSecret: '',
        TikTiokAuthStr: '',
        savedSecrets: {
          proxyPassword: false,
          YouTubeAuthClientSecret: true,
          YouTubePassword: true,
          InstagramPassword: true,
          InstagramAccessToken: false,
          TikTiokAuthStr: true,
        },
        video: { data: [], page: 1, totalPages: 0, total: 0 },
      });

      // The form sends its fields back as the detail gave them, the secrets blank: the stored ones stay, and so do the platforms' rules.
      const formFields = Object.fromEntries(Object.keys(emptyAccount).map((field) => [field, detail.json()[field]]));
      const edited = await env().app.inject({
        method: 'PATCH',
        url: `/api/accounts/${account.id}`,
        headers: user.headers,
        payload: { ...formFields, comments: 'edited' },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().savedSecrets).toEqual(detail.json().savedSecrets);
      const [row] = (
        await env().db.sql(
          `SELECT access_token FROM account_connections WHERE account_id = $1 AND platform = 'tiktok' AND method = 'pasted'`,
          [account.id],
        )
      ).rows;
      expect(
        decryptSecret(
          env().tokenSettings.keys.secretsAtRest,
          { table: 'account_connections', rowId: account.id, column: 'tiktok_pasted_access_token' },
          row.access_token,
        ),
      ).toBe('tt-access-1');
    });

    it('keeps the proxy password apart, encrypted, and shows the proxy without it', async () => {
      const user = await createUser(env(), 'operator');
      const account = await createAccount(env(), user, { proxy: 'http://buyer:needle-proxy-pass@203.0.113.5:3128' });
      expect(account.proxy).toBe('http://buyer@203.0.113.5:3128');
      expect(account.savedSecrets.proxyPassword).toBe(true);
      const colon = await createAccount(env(), user, { proxy: '203.0.113.6:8000:buyer:needle-colon-pass' });
      expect(colon.proxy).toBe('http://buyer@203.0.113.6:8000');
      const { rows } = await env().db.sql('SELECT proxy, proxy_password FROM accounts ORDER BY id', []);
      expect(JSON.stringify(rows)).not.toContain('needle');
      const [row] = await env().db.orm.select().from(accounts).where(eq(accounts.id, account.id));
      expect(proxyOfAccount(env().tokenSettings.keys.secretsAtRest, row!)).toBe('http://buyer:needle-proxy-pass@203.0.113.5:3128');

      const patch = (proxy: string) =>
        env().app.inject({
          method: 'PATCH',
          url: `/api/accounts/${account.id}`,
          headers: user.headers,
          payload: { ...emptyAccount, proxy },
        });
      expect((await patch('http://buyer@203.0.113.5:3128')).json().savedSecrets.proxyPassword).toBe(true);
      expect((await patch('http://buyer@203.0.113.9:3128')).json().savedSecrets.proxyPassword).toBe(false);
    });

    it('encrypts the proxy passwords that rows from before migration 0007 keep in plain text', async () => {
      const user = await createUser(env(), 'operator');
      const account = await createAccount(env(), user);
      await env().db.sql(`UPDATE accounts SET proxy = 'socks5://u:needle-old-pass@198.51.100.7:1080' WHERE id = $1`, [account.id]);
      expect(await sealPlainProxyPasswords(env().db, env().tokenSettings.keys.secretsAtRest)).toBe(1);
      expect(await sealPlainProxyPasswords(env().db, env().tokenSettings.keys.secretsAtRest)).toBe(0);
      const [row] = await env().db.orm.select().from(accounts).where(eq(accounts.id, account.id));
      expect(row!.proxy).toBe('socks5://u@198.51.100.7:1080');
      expect(row!.proxyPassword).not.toContain('needle');
      expect(proxyOfAccount(env().tokenSettings.keys.secretsAtRest, row!)).toBe('socks5://u:needle-old-pass@198.51.100.7:1080');
    });

    it('edits a profile and drops the YouTube connection when the OAuth client changes', async () => {
      const user = await createUser(env(), 'operator');
      const fields = { isActiveYouTube: true, YouTubeAuthClientId: 'id-1', YouTubeAuthClientSecret: 'secret-1' };
      const account = await createAccount(env(), user, fields);
      // Connected as the consent link would leave it: the channel answered once, so a save does not ask again.
      await env().db.sql(`UPDATE accounts SET in_youtube = true WHERE id = $1`, [account.id]);
      await env().db.sql(
        `INSERT INTO account_connections (account_id, platform, method, refresh_token, checked_name) VALUES ($1, 'youtube', 'oauth', 'x', 'Канал')`,
        [account.id],
      );
      const patch = (payload: object) =>
        env().app.inject({
          method: 'PATCH',
          url: `/api/accounts/${account.id}`,
          headers: user.headers,
          payload: { ...emptyAccount, ...payload },
        });

      const sameClient = await patch({ ...fields, comments: 'main channel' });
      expect(sameClient.json()).toMatchObject({ comments: 'main channel', inYouTube: true, status: 'success' });
      const newSecret = await patch({ ...fields, YouTubeAuthClientSecret: 'secret-2' });
      expect(newSecret.json()).toMatchObject({ inYouTube: false, status: 'loading', YouTubeAuthClientSecret: '' });
      const { rows } = await env().db.sql('SELECT 1 FROM account_connections WHERE account_id = $1', [account.id]);
      expect(rows).toEqual([]);
    });

    it('saves a profile and its typed credentials in one transaction: a failure part-way leaves nothing of the save', async () => {
      const user = await createUser(env(), 'operator');
      const existing = await createAccount(env(), user, { comments: 'Як було' });
      // Storing a connection fails, after the profile's own row was written.
      await env().db.sql(`CREATE FUNCTION refuse_connection() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'connection refused by the test'; END $$`);
      await env().db.sql(`CREATE TRIGGER refuse_connection BEFORE INSERT OR UPDATE ON account_connections
      FOR EACH ROW EXECUTE FUNCTION refuse_connection()`);
      try {
        // Instagram stays off, so no platform is asked: the login and password are only stored.
        const typed = { InstagramLogin: 'failing.insta', InstagramPassword: 'secret' };
        const created = await post(user, { ...emptyAccount, comments: 'Новий', ...typed });
        expect(created.statusCode).toBe(500);
        const edited = await env().app.inject({
          method: 'PATCH',
          url: `/api/accounts/${existing.id}`,
          headers: user.headers,
          payload: { ...emptyAccount, comments: 'Змінено', ...typed },
        });
        expect(edited.statusCode).toBe(500);
      } finally {
        await env().db.sql(`DROP TRIGGER refuse_connection ON account_connections`);
        await env().db.sql(`DROP FUNCTION refuse_connection`);
      }
      const { rows } = await env().db.sql(`SELECT id, comments, instagram_login FROM accounts ORDER BY id`);
      expect(rows).toEqual([{ id: existing.id, comments: 'Як було', instagram_login: null }]);
      expect((await env().db.sql(`SELECT 1 FROM account_connections`)).rows).toEqual([]);
    });

    it('lists an admin every profile with its owner, and a user only their own', async () => {
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const anna = await createUser(env(), 'anna');
      const boris = await createUser(env(), 'boris');
      const annas = await createAccount(env(), anna);
      const boriss = await createAccount(env(), boris);
      const forAdmin = (await env().app.inject({ url: '/api/accounts', headers: admin.headers })).json();
      expect(forAdmin.data.map((row: AccountDetail) => [row.id, row.user.login])).toEqual([
        [boriss.id, 'boris'],
        [annas.id, 'anna'],
      ]);
      const forAnna = (await env().app.inject({ url: '/api/accounts', headers: anna.headers })).json();
      expect(forAnna.data.map((row: AccountDetail) => row.id)).toEqual([annas.id]);
    });

    it('pages the profile list', async () => {
      const user = await createUser(env(), 'operator');
      for (let index = 0; index < 21; index++) await createAccount(env(), user);
      const second = (await env().app.inject({ url: '/api/accounts?page=2', headers: user.headers })).json();
      expect(second).toMatchObject({ page: 2, totalPages: 2, total: 21 });
      expect(second.data).toHaveLength(1);
    });

    it("pages a profile's videos, and keeps them when the profile is deleted", async () => {
      const user = await createUser(env(), 'operator');
      const account = await createAccount(env(), user);
      const videoId = await insertVideo(env(), user.id, account.id);
      const videos = (await env().app.inject({ url: `/api/accounts/${account.id}/video?page=1`, headers: user.headers })).json();
      expect(videos).toMatchObject({ page: 1, totalPages: 1, total: 1 });
      expect(videos.data[0]).toMatchObject({
        id: videoId,
        status: 'success',
        urlYouTube: 'https://youtu.be/x',
        account: { id: account.id },
      });

      const deleted = await env().app.inject({ method: 'DELETE', url: `/api/accounts/${account.id}`, headers: user.headers });
      expect(deleted.statusCode).toBe(204);
      const { rows } = await env().db.sql('SELECT id, account_id, status FROM videos', []);
      expect(rows).toEqual([{ id: videoId, account_id: null, status: 'success' }]);
    });

    it("builds the YouTube consent link from the profile's client ID and this server's own address, never the Host header", async () => {
      const user = await createUser(env(), 'operator');
      const off = await createAccount(env(), user);
      const refused = await env().app.inject({ method: 'POST', url: `/api/accounts/connect-youtube/${off.id}`, headers: user.headers });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(t.youtubeOauth.notReady);

      const account = await createAccount(env(), user, {
        isActiveYouTube: true,
        YouTubeAuthClientId: 'my-client',
        YouTubeAuthClientSecret: 's',
      });
      const response = await env().app.inject({
        method: 'POST',
        url: `/api/accounts/connect-youtube/${account.id}`,
        headers: { ...user.headers, host: 'office.example:3000' },
      });
      // Not listening, the app knows no address of its own but loopback; the Host header never counts.
      const link = new URL(response.json().url);
      expect(`${link.origin}${link.pathname}`).toBe('http://127.0.0.1/api/oauth/youtube/start');
      const opened = await env().app.inject({ url: `${link.pathname}${link.search}`, headers: { host: 'office.example:3000' } });
      const url = new URL(opened.headers.location as string);
      expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1/sandbox/accounts.google.com/o/oauth2/v2/auth');
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        client_id: 'my-client',
        redirect_uri: 'http://127.0.0.1/api/oauth/youtube/callback',
        response_type: 'code',
        access_type: 'offline',
        prompt: 'consent',
        scope:
          'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl',
      });
      expect(url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    });

    it("asks a save made by one platform's 'Підключити' for that platform's credentials alone (issue 40.4)", async () => {
      const user = await createUser(env(), 'operator');
      const both = { ...emptyAccount, isActiveYouTube: true, isActiveTikTok: true, connectByConsent: ['tiktok', 'instagram'] };
      const plain = await post(user, both);
      expect(plain.statusCode).toBe(400);
      expect(plain.json().message).toEqual([t.accountForm.clientIdRequired, t.accountForm.clientSecretRequired]);

      const connectingTikTok = await post(user, { ...both, connecting: 'tiktok' });
      expect(connectingTikTok.statusCode).toBe(201);
      expect(connectingTikTok.json()).toMatchObject({ isActiveYouTube: true, isActiveTikTok: true, connections: [] });

      const connectingYouTube = await post(user, { ...both, connecting: 'youtube' });
      expect(connectingYouTube.statusCode).toBe(400);
      expect(connectingYouTube.json().message).toEqual([t.accountForm.clientIdRequired, t.accountForm.clientSecretRequired]);
      expect((await post(user, { ...both, connecting: 'vimeo' })).statusCode).toBe(400);
    });

    it("asks nothing typed of a platform the form connects through its consent page, and keeps SPEC's rule otherwise", async () => {
      const user = await createUser(env(), 'operator');
      const both = { ...emptyAccount, isActiveTikTok: true, isActiveInstagram: true };
      const created = await post(user, { ...both, connectByConsent: ['tiktok', 'instagram'] });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ isActiveTikTok: true, isActiveInstagram: true, status: 'loading', connections: [] });

      const instagramTyped = await post(user, { ...both, connectByConsent: ['tiktok'] });
      expect(instagramTyped.statusCode).toBe(400);
      expect(instagramTyped.json().message).toEqual([t.accountForm.instagramLoginRequired, t.accountForm.instagramPasswordRequired]);
      expect((await post(user, { ...both, connectByConsent: ['youtube'] })).statusCode).toBe(400);

      const url = `/api/accounts/${created.json().id}`;
      const spec = await env().app.inject({
        method: 'PATCH',
        url,
        headers: user.headers,
        payload: { ...emptyAccount, isActiveTikTok: true },
      });
      expect(spec.statusCode).toBe(400);
      expect(spec.json().message).toEqual([t.accountForm.tiktokRequired]);
      const kept = await env().app.inject({
        method: 'PATCH',
        url,
        headers: user.headers,
        payload: { ...both, comments: 'Ранковий', connectByConsent: ['tiktok', 'instagram'] },
      });
      expect(kept.json()).toMatchObject({ comments: 'Ранковий', isActiveTikTok: true, status: 'loading' });

      const link = await env().app.inject({
        method: 'POST',
        url: `/api/accounts/connect-tiktok/${created.json().id}`,
        headers: user.headers,
      });
      expect(new URL(link.json().url).pathname).toBe('/sandbox/www.tiktok.com/v2/auth/authorize/');
    });

    it('offers the profile form the sandbox proxy, and in live mode none', async () => {
      const user = await createUser(env(), 'operator');
      expect((await env().app.inject({ url: '/api/accounts/setup' })).statusCode).toBe(401);
      const sandbox = await env().app.inject({ url: '/api/accounts/setup', headers: user.headers });
      expect(sandbox.json()).toEqual({ mode: 'sandbox', sandboxProxy: 'http://127.0.0.1:3001' });
      const live = await buildLiveApp(env());
      try {
        expect((await live.inject({ url: '/api/accounts/setup', headers: user.headers })).json()).toEqual({
          mode: 'live',
          sandboxProxy: null,
        });
      } finally {
        await live.close();
      }
    });

    it('answers 404 for ids that cannot exist', async () => {
      const user = await createUser(env(), 'operator');
      for (const id of ['abc', '0', '-1', '99999999999']) {
        const response = await env().app.inject({ url: `/api/accounts/${id}`, headers: user.headers });
        expect(response.statusCode, id).toBe(404);
        expect(response.json().message).toBe(t.server.notFound);
      }
    });
  },
  { sandboxProxy: 'http://127.0.0.1:3001' },
);
