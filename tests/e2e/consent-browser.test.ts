import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { emptyAccountForm } from '../../src/lib/schemas';
import { t } from '../../server/messages';
import { accessToken, apiBodies, axeFindings, connectBrowser, createOperator, logIn, sharedServer, snapshot } from './harness';

/**
 * Issue 38.4 in two browsers: Alice consents to TikTok and to Instagram from her profile's page, and
 * the address the consent page sends her browser to, code and state, is carried to Mallory's
 * browser instead. His browser did not start the flow, so the callback refuses it with a Ukrainian
 * page and connects nothing; the same flow left in Alice's browser connects her profile.
 */

const server = sharedServer();
let browser: Browser;
const people = {
  alice: { login: 'consent-alice', token: '', context: undefined as BrowserContext | undefined, page: undefined as Page | undefined },
  mallory: { login: 'consent-mallory', token: '', context: undefined as BrowserContext | undefined, page: undefined as Page | undefined },
};
let aliceProfile: number;

beforeAll(async () => {
  browser = await connectBrowser();
  for (const person of Object.values(people)) {
    const { password } = await createOperator(server.baseUrl, person.login);
    person.token = await accessToken(server.baseUrl, person.login, password);
    // axe is injected by the test, which the product's CSP would rightly refuse.
    person.context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
    person.page = await person.context.newPage();
    await logIn(person.page, server.baseUrl, person.login, password);
    await person.page.getByTestId('user-login').waitFor({ state: 'attached' });
  }
  const api = apiBodies(server.baseUrl, () => people.alice.token);
  const profile = await api<{ id: number }>('/api/accounts', {
    json: {
      ...emptyAccountForm,
      proxy: server.proxyUrl,
      comments: 'Профіль Аліси',
      isActiveTikTok: true,
      isActiveInstagram: true,
      connectByConsent: ['tiktok', 'instagram'],
    },
  });
  aliceProfile = profile.id;
});

afterAll(async () => {
  for (const person of Object.values(people)) await person.context?.close();
  await browser?.close();
});

const names = { tiktok: 'TikTok', instagram: 'Instagram' } as const;

/** Alice on her profile's page presses 'Підключити …' and names the sandbox account, up to 'Дозволити'. */
async function consentPage(platform: 'tiktok' | 'instagram') {
  const page = people.alice.page!;
  await page.goto(`${server.baseUrl}/accounts/${aliceProfile}`);
  await page
    .getByRole('region', { name: names[platform] })
    .getByRole('button', { name: `Підключити ${names[platform]}` })
    .click();
  await page.getByLabel('Обліковий запис пісочниці').fill(`alice-${platform}@consent`);
  return page.getByRole('button', { name: 'Дозволити' });
}

/** Alice gives her consent; the address her browser is then sent to, code and state, is kept and not followed. */
async function consentedAddress(platform: 'tiktok' | 'instagram'): Promise<string> {
  const page = people.alice.page!;
  let carried = '';
  // The consent form's answer is a redirect to the callback: it is read here and the browser stays where it is.
  const consentForm = (url: URL) => url.pathname.startsWith(`/sandbox/${platform === 'tiktok' ? 'www.tiktok.com' : 'www.instagram.com'}/`);
  await page.route(consentForm, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const answer = await route.fetch({ maxRedirects: 0 });
    carried = answer.headers().location ?? '';
    await route.fulfill({ status: 204 });
  });
  await (await consentPage(platform)).click();
  await expect.poll(() => carried).toMatch(new RegExp(`^${server.baseUrl}/api/oauth/${platform}/callback\\?.*code=`));
  await page.unroute(consentForm);
  return carried;
}

async function connectedPlatforms() {
  const api = apiBodies(server.baseUrl, () => people.alice.token);
  const profile = await api<{ connections: { platform: string }[] }>(`/api/accounts/${aliceProfile}`);
  return profile.connections.map((connection) => connection.platform).sort();
}

for (const platform of ['tiktok', 'instagram'] as const) {
  it(`refuses ${names[platform]}'s code in another browser's callback with a Ukrainian page, and connects in its own`, async () => {
    const carried = await consentedAddress(platform);

    const mallory = people.mallory.page!;
    await mallory.goto(carried);
    await expect.poll(() => new URL(mallory.url()).pathname).toBe('/api/oauth/another-browser');
    expect(new URL(mallory.url()).search).toBe('');
    await mallory.getByRole('heading', { name: t.consentPage.title }).waitFor();
    await mallory.getByText(t.consentPage.anotherBrowser).waitFor();
    expect(await mallory.evaluate(() => document.documentElement.lang)).toBe('uk');
    expect(await axeFindings(mallory)).toEqual([]);
    await snapshot(mallory, `consent-another-browser-${platform}`);
    expect(await connectedPlatforms()).not.toContain(platform);

    // The same flow in Alice's own browser: she presses 'Дозволити' and her profile is connected.
    await (await consentPage(platform)).click();
    const alice = people.alice.page!;
    await expect.poll(() => alice.getByText(t.connections.platformConnected(names[platform])).first().isVisible()).toBe(true);
    expect(new URL(alice.url()).pathname).toBe(`/accounts/${aliceProfile}`);
    await expect
      .poll(() => alice.getByRole('region', { name: names[platform] }).getByRole('status').textContent())
      .toMatch(/^Підключено як /);
    expect(await connectedPlatforms()).toContain(platform);
  });
}
