import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { AccountSummary, Paged } from '../../src/lib/contract';
import { emptyAccountForm } from '../../src/lib/schemas';
import { t } from '../../server/messages';
import {
  accessToken,
  apiBodies,
  connectBrowser,
  createOperator,
  freePort,
  logIn,
  pageProblems,
  sandboxControl,
  sharedServer,
  snapshot,
} from './harness';

/**
 * The profile list's health column and its 'Проблемні' filter against `npm start` on the sandbox
 * platforms, at 1440 and 390 px with axe: a profile behind the sandbox's proxy checks 'Працює', one
 * behind a proxy nobody listens on 'Не працює', and the filter leaves that one alone.
 */

const server = sharedServer();
const widths = [1440, 390];
let browser: Browser;
const operator = { login: 'oksana', password: '', token: '' };
const profiles = { healthy: 0, failing: 0 };

const api = apiBodies(server.baseUrl, () => operator.token);

async function tiktokProfile(comments: string, proxy: string) {
  const account = await api<{ id: number }>('/api/accounts', {
    json: { ...emptyAccountForm, proxy, comments, isActiveTikTok: true, TikTiokAuthStr: `sandbox-tt-${comments}` },
  });
  return account.id;
}

beforeAll(async () => {
  operator.password = (await createOperator(server.baseUrl, operator.login)).password;
  operator.token = await accessToken(server.baseUrl, operator.login, operator.password);
  profiles.healthy = await tiktokProfile('health-ok', server.proxyUrl);
  profiles.failing = await tiktokProfile('health-down', `http://127.0.0.1:${await freePort()}`);

  // The checks the next planning would make, now (POST /sandbox/_check-health), run by the worker a moment later.
  const checked = await sandboxControl(server.baseUrl, '/sandbox/_check-health', { json: {} });
  expect(checked.status).toBe(202);
  await vi.waitFor(
    async () => {
      const { data } = await api<Paged<AccountSummary>>('/api/accounts?page=1');
      expect(data.map((row) => [row.id, row.health.tiktok?.state])).toEqual([
        [profiles.failing, 'down'],
        [profiles.healthy, 'connected'],
      ]);
    },
    { timeout: 30_000, interval: 500 },
  );
  browser = await connectBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Signed in as the operator, then the profile list at each width as loaded at it. */
async function eachWidth(path: string, check: (page: Page, width: number) => Promise<void>) {
  // axe is injected by the test, which the product's CSP would rightly refuse.
  const context = await browser.newContext({ bypassCSP: true, locale: 'en-US', timezoneId: 'America/New_York' });
  const page = await context.newPage();
  await logIn(page, server.baseUrl, operator.login, operator.password, path);
  await page.getByTestId('user-login').waitFor({ state: 'attached' });
  for (const width of widths) {
    await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    await page.reload();
    await page.getByRole('heading', { name: t.accounts.listTitle }).waitFor();
    await page.locator('tbody tr').first().waitFor();
    await check(page, width);
  }
  await context.close();
}

const rowOf = (page: Page, comments: string) => page.locator('tbody tr', { hasText: comments });

it("shows each profile's health in a 'Стан' column: working, and not working behind a dead proxy with the reason", async () => {
  await eachWidth('/accounts/list', async (page, width) => {
    expect(await page.getByRole('columnheader', { name: t.health.column }).count()).toBe(1);
    expect(await rowOf(page, 'health-ok').getByText('TikTok: Працює').isVisible()).toBe(true);
    expect(await rowOf(page, 'health-down').getByText('TikTok: Не працює: проксі не відповідає').isVisible()).toBe(true);
    expect(
      await rowOf(page, 'health-down')
        .getByText(/^перевірено \d\d\.\d\d\.\d{4} \d\d:\d\d$/)
        .isVisible(),
    ).toBe(true);
    expect(await pageProblems(page)).toEqual([]);
    await snapshot(page, `profile-health-${width}`);
  });
});

it("narrows the list to 'Проблемні', keeps it in the address, and resets it", async () => {
  await eachWidth('/accounts/list', async (page, width) => {
    await page.getByRole('combobox', { name: t.health.column }).selectOption({ label: t.health.filterProblem });
    await expect.poll(() => new URL(page.url()).search).toBe('?health=problem');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await rowOf(page, 'health-down').isVisible()).toBe(true);
    expect(await pageProblems(page)).toEqual([]);
    await snapshot(page, `profile-health-problem-${width}`);
    await page.getByRole('button', { name: t.filters.reset }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
  });
});

it("checks a profile at once with 'Перевірити зараз', shows the fresh state, and refuses a second check right after", async () => {
  const fresh = await tiktokProfile('health-now', `http://127.0.0.1:${await freePort()}`);
  const context = await browser.newContext({ bypassCSP: true, locale: 'en-US', timezoneId: 'America/New_York' });
  const page = await context.newPage();
  await logIn(page, server.baseUrl, operator.login, operator.password, `/accounts/${fresh}`);
  for (const width of widths) {
    await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    const check = page.getByRole('button', { name: t.health.checkNow });
    await check.waitFor();
    if (width === widths[0]) {
      expect(await page.getByText(`TikTok: ${t.health.notChecked}`).count()).toBeGreaterThan(0);
      await check.click();
      await expect.poll(() => page.getByText(t.health.checked, { exact: true }).isVisible()).toBe(true);
      await expect.poll(() => page.getByText('TikTok: Не працює: проксі не відповідає').first().isVisible()).toBe(true);
    } else {
      // The same profile again within the minute: refused, saying when it can be checked.
      await check.click();
      await expect.poll(() => page.getByText(/^Профіль щойно перевірено/).isVisible()).toBe(true);
    }
    expect(await pageProblems(page)).toEqual([]);
    await snapshot(page, `profile-health-check-now-${width}`);
  }
  await context.close();
});
