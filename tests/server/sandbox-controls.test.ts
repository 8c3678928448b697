import { expect, it } from 'vitest';
import { t } from '../../server/messages';
import { isSandboxControl, issueSandboxToken } from '../../server/sandbox/index';
import { sandboxBotToken } from '../../server/alerts/telegram-bot';
import { createApiToken, createUser, describeEachDatabase } from './helpers';

/** One call each control route takes, so an admin's call shows what the route does once past the guard. */
const controlCalls: Record<string, { payload?: object; answers: number }> = {
  'GET /sandbox/_posts': { answers: 200 },
  'GET /sandbox/_calls': { answers: 200 },
  'DELETE /sandbox/_calls': { answers: 200 },
  'GET /sandbox/_faults': { answers: 200 },
  'POST /sandbox/_faults': { payload: { platform: 'youtube', step: 'init', kind: 'quota', times: 1 }, answers: 201 },
  'DELETE /sandbox/_faults': { answers: 200 },
  'POST /sandbox/_revoke': { payload: { platform: 'tiktok', account: Buffer.from('controls').toString('base64url') }, answers: 204 },
  'GET /sandbox/_telegram': { answers: 200 },
  'POST /sandbox/_telegram/send': { payload: { text: '/start', chatId: 990_001 }, answers: 201 },
  'POST /sandbox/_telegram/block': { payload: { chatId: 990_001 }, answers: 204 },
  'DELETE /sandbox/_telegram': { answers: 200 },
  'POST /sandbox/_sync-stats': { payload: {}, answers: 202 },
  'POST /sandbox/_check-health': { payload: {}, answers: 202 },
};

/**
 * Issue 38.3: the sandbox's controls list every user's posts and alert texts and write as any
 * Telegram user, so they are an admin's, by a session or an admin-scope token; what stands in for
 * a platform stays as open as the platform.
 */
describeEachDatabase(
  "the sandbox's controls are the admin's",
  (env) => {
    const controls = () =>
      env()
        .app.routeTable.filter((route) => isSandboxControl(route.url))
        .flatMap((route) =>
          [route.method]
            .flat()
            .filter((method) => method !== 'HEAD')
            .map((method) => `${method} ${route.url}`),
        );

    const call = (key: string, headers: Record<string, string>) => {
      const [method, url] = key.split(' ') as ['GET', string];
      const { payload } = controlCalls[key]!;
      return env().app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    };

    it('refuses every control route without an admin: 401 anonymous, 403 for an operator and for a token without the admin scope', async () => {
      expect(controls().sort()).toEqual(Object.keys(controlCalls).sort());
      const operator = await createUser(env(), 'olena');
      const admin = await createUser(env(), 'boss', { role: 'admin' });
      const operatorToken = await createApiToken(env(), operator, 'publish');
      const adminPublishToken = await createApiToken(env(), admin, 'publish');
      for (const key of Object.keys(controlCalls)) {
        const anonymous = await call(key, {});
        expect(anonymous.statusCode, key).toBe(401);
        expect(anonymous.json().message).toBe(t.server.unauthorized);
        expect((await call(key, operator.headers)).statusCode, key).toBe(403);
        expect((await call(key, operatorToken.headers)).statusCode, key).toBe(403);
        expect((await call(key, adminPublishToken.headers)).statusCode, key).toBe(403);
      }
      // The route matched decides, however the path is spelled.
      expect((await env().app.inject({ url: '/sandbox/%5Ftelegram' })).statusCode).toBe(401);
      expect((await env().app.inject({ url: '/sandbox/%5fposts' })).statusCode).toBe(401);
    });

    for (const credential of ['session', 'admin-scope token'] as const) {
      it(`does what each control route does for an admin's ${credential}`, async () => {
        const admin = await createUser(env(), 'boss', { role: 'admin' });
        const headers = credential === 'session' ? admin.headers : (await createApiToken(env(), admin, 'admin')).headers;
        // The sandbox meets the TikTok account that _revoke names when its token is first used.
        await env().app.inject({
          method: 'POST',
          url: '/sandbox/open.tiktokapis.com/v2/post/publish/creator_info/query/',
          headers: { authorization: `Bearer ${issueSandboxToken('tiktok', 'controls')}`, 'content-type': 'application/json' },
          payload: {},
        });
        for (const [key, { answers }] of Object.entries(controlCalls)) {
          const answer = await call(key, headers);
          expect(answer.statusCode, `${key} ${answer.body}`).toBe(answers);
        }
      });
    }

    it('leaves what stands in for a platform as open as the platform: its APIs, consent pages, Instagram login and the Bot API', async () => {
      const login = await env().app.inject({
        method: 'POST',
        url: '/sandbox/_instagram/login',
        payload: { login: 'open', password: 'pw' },
      });
      expect(login.statusCode).toBe(200);
      const getMe = await env().app.inject({ url: `/sandbox/api.telegram.org/bot${sandboxBotToken}/getMe` });
      expect(getMe.json()).toMatchObject({ ok: true });
      const consent = await env().app.inject({
        url: `/sandbox/www.instagram.com/oauth/authorize?${new URLSearchParams({
          client_id: 'app',
          redirect_uri: 'http://127.0.0.1:9/cb',
          response_type: 'code',
          scope: 'instagram_business_basic',
          state: 's',
        })}`,
      });
      expect(consent.statusCode).toBe(200);
      expect(consent.headers['content-type']).toContain('text/html');
      const channels = await env().app.inject({
        url: '/sandbox/www.googleapis.com/youtube/v3/channels?part=snippet&mine=true',
        headers: { authorization: `Bearer ${issueSandboxToken('youtube', 'open')}` },
      });
      expect(channels.statusCode).toBe(200);
    });
  },
  { queue: 'send' },
);
