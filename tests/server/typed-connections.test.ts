import { expect, it, vi } from 'vitest';
import type { AccountDetail } from '../../src/lib/contract';
import { decryptSecret, secretsOfRow } from '../../server/auth/secrets';
import { connectionSecrets, moveTypedCredentials } from '../../server/platforms/connections';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import { createAccount } from './backoffice-fixtures';
import { createUser, describeEachDatabase, withSandboxServer } from './helpers';
import { publishPayload, renderedRequest } from './publishing-fixtures';

const sandbox = new SandboxState({});

describeEachDatabase(
  'SPEC’s typed credentials as connections',
  (env) => {
    const network = withSandboxServer(env);

    it(
      'a profile saved the old way, its credentials in its own columns, is moved once at startup and publishes on TikTok and Instagram',
      { timeout: 60_000 },
      async () => {
        const user = await createUser(env(), 'operator');
        const label = `typed-${env().kind}`;
        const tiktokString = issueSandboxToken('tiktok', `${label}@tiktok`);
        const account = await createAccount(env(), user, {
          proxy: network().proxy.url,
          comments: label,
          isActiveTikTok: true,
          TikTiokAuthStr: tiktokString,
          isActiveInstagram: true,
          InstagramLogin: `${label}.insta`,
          InstagramPassword: 'instagram-password',
        });
        const key = env().tokenSettings.keys.secretsAtRest;
        const read = async () =>
          (await env().app.inject({ url: `/api/accounts/${account.id}`, headers: user.headers })).json<AccountDetail>();
        const before = await read();

        // What a save before migration 0028 left: the secrets sealed in the profile's row, no typed connection.
        const columns = secretsOfRow(key, 'accounts', account.id);
        await env().db.sql(`DELETE FROM account_connections WHERE account_id = $1`, [account.id]);
        await env().db.sql(
          `UPDATE accounts SET tiktok_auth_str = $2, instagram_password = $3, instagram_access_token = $4, instagram_user_id = '17841400000000001'
            WHERE id = $1`,
          [
            account.id,
            columns.seal('tiktok_auth_str', tiktokString),
            columns.seal('instagram_password', 'instagram-password'),
            columns.seal('instagram_access_token', 'ig-long-lived-token'),
          ],
        );

        // Several processes starting at once move each secret once.
        const runs = await Promise.all([moveTypedCredentials(env().db, key), moveTypedCredentials(env().db, key)]);
        expect(runs.reduce((sum, run) => sum + run.moved, 0)).toBe(3);
        expect(await moveTypedCredentials(env().db, key)).toEqual({ moved: 0, unreadable: 0 });
        const { rows: profile } = await env().db.sql(
          `SELECT tiktok_auth_str, instagram_password, instagram_access_token FROM accounts WHERE id = $1`,
          [account.id],
        );
        expect(profile[0]).toEqual({ tiktok_auth_str: null, instagram_password: null, instagram_access_token: null });
        const { rows: moved } = await env().db.sql(
          `SELECT platform, method, access_token, remote_id, remote_name FROM account_connections WHERE account_id = $1 ORDER BY platform, method`,
          [account.id],
        );
        expect(moved.map(({ access_token: _token, ...rest }) => rest)).toEqual([
          { platform: 'instagram', method: 'login', remote_id: null, remote_name: `${label}.insta` },
          { platform: 'instagram', method: 'pasted', remote_id: '17841400000000001', remote_name: null },
          { platform: 'tiktok', method: 'pasted', remote_id: null, remote_name: null },
        ]);
        expect(connectionSecrets(key, account.id, 'instagram', 'pasted').open('access_token', moved[1].access_token)).toBe(
          'ig-long-lived-token',
        );
        // Sealed for its own connection: the consent link's slot does not open it.
        expect(() =>
          decryptSecret(key, { table: 'account_connections', rowId: account.id, column: 'tiktok_access_token' }, moved[2].access_token),
        ).toThrow();

        const after = await read();
        expect(after.savedSecrets).toEqual({ ...before.savedSecrets, InstagramAccessToken: true });
        expect(after).toMatchObject({
          status: before.status,
          inTikTok: true,
          inInstagram: true,
          TikTiokAuthStr: '',
          InstagramPassword: '',
        });

        const request = await renderedRequest(env(), user.id, 1);
        const response = await env().app.inject({
          method: 'POST',
          url: `/api/upload-video/${request.idUpload}`,
          headers: user.headers,
          payload: publishPayload(request, [account.id], { inYouTube: false, inTikTok: true, inInstagram: true }),
        });
        expect(response.statusCode, response.body).toBe(200);
        await vi.waitFor(
          async () => {
            const { rows } = await env().db.sql(`SELECT platform, status FROM video_posts WHERE video_id = $1 ORDER BY platform`, [
              request.videos[0]!.id,
            ]);
            expect(rows).toEqual([
              { platform: 'instagram', status: 'done' },
              { platform: 'tiktok', status: 'done' },
            ]);
          },
          { timeout: 30_000, interval: 250 },
        );
      },
    );
  },
  { queue: 'work', sandbox },
);
