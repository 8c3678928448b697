import { expect, it } from 'vitest';
import { t } from '../../server/messages';
import { answerSandboxConsent, openConsentLink, type ConsentFlow } from '../fixtures/sandbox-consent';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, withSandboxServer } from './helpers';

type LinkPlatform = 'youtube' | 'tiktok' | 'instagram';

/**
 * Issue 38.4: a consent flow ends only in the browser it is bound to (server/platforms/
 * consent-cookie.ts). Instagram's login takes no PKCE, so before this a code carried from one
 * user's consent into another's callback connected the second user's profile to the first user's
 * Instagram; now a callback whose state the browser holds no cookie for is refused, for every
 * platform, and the state is spent with it.
 */
describeEachDatabase('consent flows bound to their browser', (env) => {
  const network = withSandboxServer(env);

  async function profile(user: TestUser) {
    return createAccount(env(), user, {
      proxy: network().proxy.url,
      isActiveYouTube: true,
      YouTubeAuthClientId: 'browser-bound.apps.googleusercontent.com',
      YouTubeAuthClientSecret: 'browser-bound-secret',
    });
  }

  /** The link the profile's page asks for, opened in the browser that asked (for YouTube, whichever opens it). */
  async function started(user: TestUser, accountId: number, platform: LinkPlatform): Promise<ConsentFlow> {
    const answer = await fetch(`${network().baseUrl}/api/accounts/connect-${platform}/${accountId}`, {
      method: 'POST',
      headers: user.headers,
    });
    expect(answer.status).toBe(200);
    return openConsentLink(answer);
  }

  /** The callback's address the consent page sends the browser to, with the flow's code and state. */
  async function consented(flow: ConsentFlow, login: string) {
    const consent = await answerSandboxConsent(flow, 'allow', 'manual', { username: login });
    expect(consent.status).toBe(302);
    return new URL(consent.headers.get('location')!);
  }

  async function callback(url: URL, cookie: string) {
    const answer = await fetch(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
    expect(answer.status).toBe(302);
    return new URL(answer.headers.get('location')!, network().baseUrl);
  }

  async function connections(accountId: number) {
    return (await env().db.sql(`SELECT platform FROM account_connections WHERE account_id = $1`, [accountId])).rows;
  }

  for (const platform of ['youtube', 'tiktok', 'instagram'] as const) {
    it(`${platform}: a code carried into another browser's callback is refused with a Ukrainian page; in its own browser it connects`, async () => {
      const alice = await createUser(env(), `alice-${platform}`);
      const mallory = await createUser(env(), `mallory-${platform}`);
      const account = await profile(alice);
      const login = `browser-bound-${platform}-${env().kind}`;

      // Alice's callback opened in a browser with no cookie, in Mallory's (who holds a flow of his
      // own), and with a cookie of the right name but not signed by this server.
      const malloryFlow = await started(mallory, (await profile(mallory)).id, platform);
      const elsewhere = async (cookieOf: (own: ConsentFlow) => string) => {
        const flow = await started(alice, account.id, platform);
        return callback(await consented(flow, login), cookieOf(flow));
      };
      const forged = (own: ConsentFlow) => `${own.cookie.split('=')[0]}=${Buffer.alloc(32).toString('base64url')}`;
      for (const refused of [await elsewhere(() => ''), await elsewhere(() => malloryFlow.cookie), await elsewhere(forged)]) {
        expect(refused.pathname).toBe('/api/oauth/another-browser');
        expect(refused.search).toBe('');
      }
      const page = await fetch(new URL('/api/oauth/another-browser', network().baseUrl));
      expect(page.status).toBe(403);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).toContain('<html lang="uk">');
      expect(html).toContain(t.consentPage.anotherBrowser);
      expect(await connections(account.id)).toEqual([]);

      // The refusal spent the state: the code it came with cannot be brought back to its own browser.
      const flow = await started(alice, account.id, platform);
      const back = await consented(flow, login);
      const carried = await callback(back, '');
      expect(carried.pathname).toBe('/api/oauth/another-browser');
      const returned = await callback(back, flow.cookie);
      expect(Object.fromEntries(returned.searchParams)).toEqual({ [`${platform}Error`]: t.youtubeOauth.linkExpired });

      // The same flow in its own browser connects, and the browser's cookie is taken back.
      const own = await started(alice, account.id, platform);
      const answer = await fetch(await consented(own, login), { headers: { cookie: own.cookie }, redirect: 'manual' });
      expect(answer.headers.get('location')).toBe(`/accounts/${account.id}?${platform}=connected`);
      expect(answer.headers.get('set-cookie')).toBe(
        `${own.cookie.split('=')[0]}=; Max-Age=0; Path=/api/oauth/${platform}/callback; HttpOnly; SameSite=Lax`,
      );
      expect(await connections(account.id)).toEqual([{ platform }]);
    });
  }

  it("binds TikTok's and Instagram's flow to the browser that asked for the link, in a short-lived HttpOnly SameSite=Lax cookie sent only to the callback", async () => {
    const user = await createUser(env(), 'operator');
    const account = await profile(user);
    for (const platform of ['tiktok', 'instagram'] as const) {
      const answer = await fetch(`${network().baseUrl}/api/accounts/connect-${platform}/${account.id}`, {
        method: 'POST',
        headers: user.headers,
      });
      expect(answer.headers.getSetCookie()).toEqual([
        expect.stringMatching(
          new RegExp(`^consent_[\\w-]{16}=[\\w-]{43}; Max-Age=1800; Path=/api/oauth/${platform}/callback; HttpOnly; SameSite=Lax$`),
        ),
      ]);
    }
    // Two flows started side by side in one browser keep a cookie each.
    const first = await started(user, account.id, 'tiktok');
    const second = await started(user, account.id, 'tiktok');
    expect(first.cookie.split('=')[0]).not.toBe(second.cookie.split('=')[0]);
    const both = `${first.cookie}; ${second.cookie}`;
    const login = `side-by-side-${env().kind}`;
    expect((await callback(await consented(first, login), both)).search).toBe('?tiktok=connected');
    expect((await callback(await consented(second, login), both)).search).toBe('?tiktok=connected');
  });

  it("binds YouTube's copied link to the browser that opens it, which the link's signature alone can make", async () => {
    const operator = await createUser(env(), 'operator');
    const account = await profile(operator);
    const answer = await fetch(`${network().baseUrl}/api/accounts/connect-youtube/${account.id}`, {
      method: 'POST',
      headers: operator.headers,
    });
    expect(answer.headers.getSetCookie()).toEqual([]);
    const link = new URL(((await answer.json()) as { url: string }).url);
    expect(link.pathname).toBe('/api/oauth/youtube/start');

    // A state read from a callback's address, or any other, is not a link.
    for (const sig of ['', 'forged', link.searchParams.get('sig')!.replace(/^./, (first) => (first === 'A' ? 'B' : 'A'))]) {
      const forged = new URL(link);
      forged.searchParams.set('sig', sig);
      const page = await fetch(forged, { redirect: 'manual' });
      expect([400, page.headers.get('set-cookie')]).toEqual([400, null]);
      if (sig !== '') expect(await page.text()).toContain(t.youtubeOauth.linkExpired);
    }

    // The channel's owner opens the copied link in their own browser, and it connects there.
    const owners = await openConsentLink(link.toString());
    expect(owners.cookie).toMatch(/^consent_[\w-]{16}=[\w-]{43}$/);
    const back = await consented(owners, `owner-${env().kind}`);
    expect((await callback(back, owners.cookie)).search).toBe('?youtube=connected');

    // Spent, the link leads nowhere any more.
    const spent = await fetch(link, { redirect: 'manual' });
    expect(spent.status).toBe(400);
    expect(await spent.text()).toContain(t.youtubeOauth.linkExpired);
  });
});
