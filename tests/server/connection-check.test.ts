import { expect, it } from 'vitest';
import type { AccountDetail, Paged, AccountSummary } from '../../src/lib/contract';
import { issueSandboxToken } from '../../server/sandbox/index';
import { emptyAccount } from './backoffice-fixtures';
import { createUser, describeEachDatabase, sandboxControl, withSandboxServer } from './helpers';

/**
 * Saving a profile asks each platform it switches on, through the profile's own proxy, which
 * account the credentials reach: a refusal keeps the profile unsaved with the platform's words, an
 * answer becomes "підключено як …", a proxy that does not answer leaves the save to stand.
 */
describeEachDatabase('Credentials checked on save', (env) => {
  const network = withSandboxServer(env);

  const creatorInfoCalls = () => network().proxy.traffic.filter(({ url }) => url.includes('/post/publish/creator_info/query/')).length;

  async function save(headers: Record<string, string>, fields: object, id?: number) {
    return env().app.inject({
      method: id ? 'PATCH' : 'POST',
      url: id ? `/api/accounts/${id}` : '/api/accounts',
      headers,
      payload: { ...emptyAccount, proxy: network().proxy.url, ...fields },
    });
  }

  it("refuses a wrong TikTok string with TikTok's own words and stores nothing", async () => {
    const user = await createUser(env(), 'operator');
    const before = creatorInfoCalls();
    const response = await save(user.headers, { comments: 'Вечірній', isActiveTikTok: true, TikTiokAuthStr: 'not-a-tiktok-token' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('TikTok');
    expect(response.json().message).toContain('The access token is invalid or not found in the request.');
    // Asked through the profile's proxy, not from the server's own address.
    expect(creatorInfoCalls()).toBe(before + 1);
    const { rows } = await env().db.sql('SELECT count(*)::int AS count FROM accounts', []);
    expect(rows[0].count).toBe(0);
  });

  it('names the TikTok creator a valid string reaches, on the profile and in the list', async () => {
    const user = await createUser(env(), 'operator');
    const response = await save(user.headers, { isActiveTikTok: true, TikTiokAuthStr: issueSandboxToken('tiktok', 'olena') });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<AccountDetail>();
    expect(created.connectedAs).toEqual({ tiktok: 'olena (@sandbox_olena)' });
    expect(created.status).toBe('success');

    const list = await env().app.inject({ url: '/api/accounts', headers: user.headers });
    expect(list.json<Paged<AccountSummary>>().data[0]!.connectedAs).toEqual({ tiktok: 'olena (@sandbox_olena)' });
  });

  it('keeps the stored string when a wrong one is typed over it, and ends a standing failure once a good one answers', async () => {
    const user = await createUser(env(), 'operator');
    const created = (
      await save(user.headers, { isActiveTikTok: true, TikTiokAuthStr: issueSandboxToken('tiktok', 'first') })
    ).json<AccountDetail>();
    // A publish that TikTok refused left the profile in 'error'.
    await env().db.sql(
      `INSERT INTO connection_states (account_id, platform, state, kind, source, at) VALUES ($1, 'tiktok', 'down', 'refused', 'publish', now())
         ON CONFLICT (account_id, platform) DO UPDATE SET state = EXCLUDED.state, kind = EXCLUDED.kind`,
      [created.id],
    );

    const wrong = await save(user.headers, { isActiveTikTok: true, TikTiokAuthStr: 'expired' }, created.id);
    expect(wrong.statusCode).toBe(400);
    const kept = await env().app.inject({ url: `/api/accounts/${created.id}`, headers: user.headers });
    // A platform 'down' is connected as nobody: the page's header and its TikTok section agree.
    expect(kept.json<AccountDetail>()).toMatchObject({
      status: 'error',
      connectedAs: {},
      connections: [{ platform: 'tiktok', state: 'down', kind: 'refused', name: 'first (@sandbox_first)' }],
    });

    const fixed = await save(user.headers, { isActiveTikTok: true, TikTiokAuthStr: issueSandboxToken('tiktok', 'second') }, created.id);
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json<AccountDetail>()).toMatchObject({
      status: 'success',
      error: null,
      connectedAs: { tiktok: 'second (@sandbox_second)' },
    });
  });

  it('saves an edit of the rest of a profile whose grant was revoked meanwhile, marking the profile with the reason', async () => {
    const user = await createUser(env(), 'operator');
    const token = issueSandboxToken('tiktok', 'revoked');
    const created = (await save(user.headers, { isActiveTikTok: true, TikTiokAuthStr: token })).json<AccountDetail>();
    await env().db.sql(
      `INSERT INTO connection_states (account_id, platform, state, kind, source, at) VALUES ($1, 'tiktok', 'down', 'refused', 'publish', now())
         ON CONFLICT (account_id, platform) DO UPDATE SET state = EXCLUDED.state, kind = EXCLUDED.kind`,
      [created.id],
    );
    const revoke = await sandboxControl(env().app, {
      method: 'POST',
      url: '/sandbox/_revoke',
      payload: { platform: 'tiktok', account: Buffer.from('revoked').toString('base64url') },
    });
    expect(revoke.statusCode).toBeLessThan(300);

    const edited = await save(user.headers, { comments: 'Інша примітка', isActiveTikTok: true }, created.id);
    expect(edited.statusCode, edited.body).toBe(200);
    const detail = edited.json<AccountDetail>();
    expect(detail).toMatchObject({ comments: 'Інша примітка', status: 'error' });
    expect(detail.connectedAs).toEqual({});
    expect(detail.error).toContain('TikTok');
  });

  it('does not ask the platform again when a save leaves the credentials and the proxy as they are', async () => {
    const user = await createUser(env(), 'operator');
    const created = (
      await save(user.headers, { isActiveTikTok: true, TikTiokAuthStr: issueSandboxToken('tiktok', 'quiet') })
    ).json<AccountDetail>();
    const before = creatorInfoCalls();
    const renamed = await save(user.headers, { comments: 'Нова назва', isActiveTikTok: true }, created.id);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<AccountDetail>().connectedAs).toEqual({ tiktok: 'quiet (@sandbox_quiet)' });
    expect(creatorInfoCalls()).toBe(before);
  });

  it('saves a profile whose proxy does not answer, unconfirmed, and names the Instagram account once it does', async () => {
    const user = await createUser(env(), 'operator');
    const down = await save(user.headers, {
      proxy: '127.0.0.1:9',
      isActiveInstagram: true,
      InstagramLogin: 'morning.shop',
      InstagramPassword: 'secret',
    });
    expect(down.statusCode, down.body).toBe(201);
    const created = down.json<AccountDetail>();
    expect(created.connectedAs).toEqual({});
    expect(created.status).toBe('success');

    const up = await save(user.headers, { isActiveInstagram: true, InstagramLogin: 'morning.shop' }, created.id);
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json<AccountDetail>().connectedAs.instagram).toBeTruthy();
  });
});
