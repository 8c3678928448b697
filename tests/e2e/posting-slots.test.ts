import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiBodies, connectBrowser, createOperator, logIn, pageProblems, sharedServer, snapshot } from './harness';

/** Issue 31.2: the profile form's 'Слоти публікацій', as an operator sees and saves it. */

const server = sharedServer();
let browser: Browser;
let page: Page;
let accountId: number;

beforeAll(async () => {
  const operator = await createOperator(server.baseUrl, 'slots-operator');
  const login = await fetch(`${server.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(operator),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const api = apiBodies(server.baseUrl, () => accessToken);
  accountId = (await api<{ id: number }>('/api/accounts', { json: { proxy: server.proxyUrl, comments: 'Ранковий' } })).id;
  const group = await api<{ id: number }>('/api/accounts-group', {
    json: { name: 'Будні', accounts: [{ id: accountId, title: '', value: accountId }] },
  });
  await api(`/api/accounts-group/${group.id}/slots`, {
    method: 'PUT',
    json: { from: '10:00', to: '20:00', minGapMinutes: 120, days: [1, 2, 3, 4, 5] },
  });

  browser = await connectBrowser();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  page = await context.newPage();
  await logIn(page, server.baseUrl, operator.login, operator.password, `/accounts/${accountId}`);
});

afterAll(async () => {
  await browser?.close();
});

const section = () => page.getByRole('form', { name: 'Слоти публікацій' });

it('shows the slots a profile takes from its group, axe clean at 1440 and 390 px', async () => {
  await expect.poll(() => section().getByText('З групи «Будні»').isVisible()).toBe(true);
  expect(await section().getByLabel('Публікувати з').inputValue()).toBe('10:00');
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    expect(await pageProblems(page), `${width} px`).toEqual([]);
    await snapshot(page, `posting-slots-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
});

it('puts the focus on the first wrong field, then saves the slots as the profile’s own', async () => {
  await section().getByLabel('Публікувати до').fill('09:00');
  await section().getByRole('button', { name: 'Зберегти слоти' }).click();
  await expect.poll(() => section().getByText('Кінець має бути пізніше за початок').isVisible()).toBe(true);
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('to');
  await snapshot(page, 'posting-slots-errors-1440');

  await section().getByLabel('Публікувати до').fill('21:30');
  await section().getByRole('checkbox', { name: 'Субота' }).check();
  await section().getByRole('button', { name: 'Зберегти слоти' }).click();
  await expect.poll(() => page.getByText('Слоти збережено').isVisible()).toBe(true);
  await expect.poll(() => section().getByText('Власні слоти профілю').isVisible()).toBe(true);
  expect(await section().getByLabel('Публікувати до').inputValue()).toBe('21:30');
  expect(await section().getByRole('checkbox', { name: 'Субота' }).isChecked()).toBe(true);
  expect(await pageProblems(page)).toEqual([]);
});
