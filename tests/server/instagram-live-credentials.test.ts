import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { t } from '../../server/messages';
import { accounts } from '../../server/db/schema';
import { PermanentPlatformError } from '../../server/platforms/errors';
import { memoryProgressStore } from '../../server/platforms/progress';
import { profileContext } from '../../server/platforms/profile-context';
import { createAccount } from './backoffice-fixtures';
import { createUser, describeEachDatabase, type TestEnv } from './helpers';
import { testNetwork } from './helpers';
import { systemClock } from '../../server/clock';

const instagramOn = { isActiveInstagram: true, InstagramLogin: 'shop', InstagramPassword: 'ig-password' };
const liveSettings = {
  mode: 'live' as const,
  sandboxOrigin: 'http://127.0.0.1:1',
  network: testNetwork({ mode: 'live', allowPrivate: false }),
  clock: systemClock,
};

async function liveInstagramContext(env: TestEnv, accountId: number) {
  const [row] = await env.db.orm.select().from(accounts).where(eq(accounts.id, accountId));
  return profileContext(row!, 'instagram', {
    db: env.db,
    secretsKey: env.tokenSettings.keys.secretsAtRest,
    settings: liveSettings,
    progress: memoryProgressStore(),
  });
}

describeEachDatabase('live Instagram credentials on the profile', (env) => {
  it('keeps the token encrypted, never returns it, and hands it to the connector in live mode', async () => {
    const user = await createUser(env(), 'operator');
    const account = await createAccount(env(), user, {
      ...instagramOn,
      InstagramAccessToken: 'needle-ig-long-lived-token',
      InstagramUserId: '17841400000000001',
    });
    const { rows } = await env().db.sql(
      `SELECT access_token, remote_id FROM account_connections WHERE account_id = $1 AND platform = 'instagram' AND method = 'pasted'`,
      [account.id],
    );
    expect(rows[0].access_token).not.toContain('needle');
    expect(rows[0].remote_id).toBe('17841400000000001');

    const list = await env().app.inject({ url: '/api/accounts', headers: user.headers });
    expect(list.body).not.toContain('needle-ig-long-lived-token');
    const detail = (await env().app.inject({ url: `/api/accounts/${account.id}`, headers: user.headers })).json();
    expect(detail).toMatchObject({ InstagramAccessToken: '', InstagramUserId: '17841400000000001' });
    expect(detail.savedSecrets.InstagramAccessToken).toBe(true);

    const context = await liveInstagramContext(env(), account.id);
    expect(context.credentials).toEqual({ accessToken: 'needle-ig-long-lived-token', igUserId: '17841400000000001' });
  });

  it('fails a live Instagram post with a clear message while the token or the id is missing', async () => {
    const user = await createUser(env(), 'operator');
    const account = await createAccount(env(), user, { ...instagramOn, InstagramUserId: '17841400000000001' });
    const failure = await liveInstagramContext(env(), account.id).catch((error) => error);
    expect(failure).toBeInstanceOf(PermanentPlatformError);
    expect(failure.message).toContain(t.platform.instagramTokenMissing);
  });
});
