import { expect, it } from 'vitest';
import { t } from '../../server/messages';
import { maxLength } from '../../src/lib/contract/limits';
import { createUser, describeEachDatabase } from './helpers';
import { createAccount, emptyAccount } from './backoffice-fixtures';

/** Each column's CHECK constraint of migrations 0007 and 0039, and the limit of the route schemas it must equal. */
const columnLimits: Record<string, number> = {
  users_login_length: maxLength.login,
  accounts_proxy_length: maxLength.proxy,
  accounts_comments_length: maxLength.comments,
  accounts_youtube_client_id_length: maxLength.clientId,
  accounts_youtube_login_length: maxLength.platformLogin,
  accounts_instagram_login_length: maxLength.platformLogin,
  accounts_instagram_user_id_length: maxLength.instagramUserId,
  accounts_description_length: maxLength.channelDescription,
  accounts_profile_name_instagram_length: maxLength.profileName,
  accounts_profile_description_instagram_length: maxLength.profileDescription,
  account_groups_name_length: maxLength.name,
  tag_sets_name_length: maxLength.name,
  creation_requests_title_length: maxLength.title,
  creation_requests_description_length: maxLength.description,
  api_tokens_name_length: maxLength.tokenName,
  webhooks_url_length: maxLength.webhookUrl,
};

describeEachDatabase('route contracts', (env) => {
  it('has the same maximum lengths in the route schemas and in the database', async () => {
    const { rows } = await env().db.sql(
      `SELECT conname, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname LIKE '%\\_length'`,
      [],
    );
    const inDatabase = Object.fromEntries(rows.map((row) => [row.conname, Number(/<= (\d+)/.exec(row.definition)![1])]));
    expect(inDatabase).toEqual(columnLimits);
  });

  it('answers input outside a schema with 400 and Ukrainian messages, and a path that names no row with 404', async () => {
    const user = await createUser(env(), 'operator');
    const post = (payload: object) => env().app.inject({ method: 'POST', url: '/api/accounts', headers: user.headers, payload });
    const nul = await post({ ...emptyAccount, comments: 'a\u0000b' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().message).toEqual([t.validation.controlCharacters('comments')]);
    const long = await post({ ...emptyAccount, comments: 'x'.repeat(maxLength.comments + 1) });
    expect(long.json().message).toEqual([t.validation.tooLong(maxLength.comments)]);
    const wrongType = await post({ ...emptyAccount, isActiveYouTube: { yes: true } });
    expect(wrongType.json().message).toEqual([t.validation.wrongType('isActiveYouTube', t.validation.types.boolean!)]);

    const page = await env().app.inject({ url: '/api/accounts?page=1e20', headers: user.headers });
    expect(page.statusCode).toBe(400);
    expect(page.json().message).toEqual([t.validation.invalidValue('page')]);
    for (const id of ['2147483648', '-1', 'abc', '1.5']) {
      const response = await env().app.inject({ url: `/api/accounts/${id}`, headers: user.headers });
      expect(response.statusCode, id).toBe(404);
      expect(response.json().message).toBe(t.server.notFound);
    }
    const bodyId = await env().app.inject({
      method: 'POST',
      url: '/api/accounts-group',
      headers: user.headers,
      payload: { name: 'g', accounts: [{ id: 2 ** 31 }] },
    });
    expect(bodyId.statusCode).toBe(400);
    expect(bodyId.json().message).toEqual([t.validation.invalidValue('accounts.0.id')]);
    const retry = await env().app.inject({
      method: 'POST',
      url: '/api/upload-video/upload',
      headers: user.headers,
      payload: { videoId: 1e20, youTubeId: 'x' },
    });
    expect(retry.statusCode).toBe(400);
    const publish = await env().app.inject({
      method: 'POST',
      url: '/api/upload-video/00000000-0000-4000-8000-000000000000',
      headers: user.headers,
      payload: { title: 't', tags: ['a'], accounts: [{ id: 1 }], video: [{ id: 1 }] },
    });
    expect(publish.statusCode).toBe(400);
    expect(publish.json().message).toEqual([t.validation.required]);
    const broken = await env().app.inject({
      method: 'POST',
      url: '/api/accounts',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: '{',
    });
    expect(broken.json()).toEqual({ statusCode: 400, error: t.server.statusNames[400], message: t.server.invalidJson });
  });

  it('sends only the declared fields, so nothing undeclared can leak', async () => {
    const user = await createUser(env(), 'operator');
    const account = await createAccount(env(), user, { isActiveTikTok: true, TikTiokAuthStr: 'needle-token' });
    const detail = (await env().app.inject({ url: `/api/accounts/${account.id}`, headers: user.headers })).json();
    expect(Object.keys(detail)).not.toContain('youtubeRefreshToken');
    expect(detail.TikTiokAuthStr).toBe('');
    // The serializer itself refuses to carry a secret, even if a handler put one there.
    const serialize = env().app.routeTable.find((route) => route.url === '/api/accounts/:id' && route.method === 'GET')!;
    expect(
      (serialize.schema as { response: Record<number, { properties: Record<string, unknown> }> }).response[200].properties.TikTiokAuthStr,
    ).toMatchObject({ const: '' });
  });

  it('serves the OpenAPI document of every route to any signed-in user', async () => {
    const user = await createUser(env(), 'operator');
    expect((await env().app.inject({ url: '/api/docs' })).statusCode).toBe(401);
    const docs = await env().app.inject({ url: '/api/docs', headers: user.headers });
    expect(docs.statusCode).toBe(200);
    const openapi = docs.json();
    expect(openapi.openapi).toMatch(/^3\./);
    const listed = new Set(
      Object.entries(openapi.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const apiRoutes = env().app.routeTable.filter((route) => route.url.startsWith('/api/') && route.url !== '/api/docs');
    expect(apiRoutes.length).toBeGreaterThan(35);
    for (const route of apiRoutes) {
      const asOpenApi = route.url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{path}');
      // A prefix's `/` route answers with and without the trailing slash; the document lists one of them.
      const path =
        [asOpenApi, asOpenApi.replace(/(.)\/$/, '$1'), `${asOpenApi}/`].find((candidate) => candidate in openapi.paths) ?? asOpenApi;
      for (const method of [route.method].flat().filter((method) => method !== 'HEAD')) {
        expect(listed.has(`${method} ${path}`), `${method} ${path}`).toBe(true);
        const operation = openapi.paths[path][method.toLowerCase()];
        expect(operation.responses, `${method} ${path}`).toBeDefined();
        if ((route.schema as { body?: unknown } | undefined)?.body) expect(operation.requestBody, `${method} ${path}`).toBeDefined();
      }
    }
  });
});
