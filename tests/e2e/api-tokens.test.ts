import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { connectBrowser, createOperator, logIn, pageProblems, sharedServer, snapshot } from './harness';

/** Issue 32.4: an operator makes an API token for a script, sees it once, uses it, and revokes it. */

const server = sharedServer();
let browser: Browser;
let page: Page;
let secret = '';

const viewports = [
  [1440, 900],
  [390, 844],
] as const;

async function checkedAtBothWidths(name: string) {
  for (const [width, height] of viewports) {
    await page.setViewportSize({ width, height });
    expect(await pageProblems(page), `${name} at ${width} px`).toEqual([]);
    await snapshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

const withToken = (path: string, init: RequestInit = {}) =>
  fetch(`${server.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' } });

beforeAll(async () => {
  const operator = await createOperator(server.baseUrl, 'tokens-operator');
  browser = await connectBrowser();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  page = await context.newPage();
  await logIn(page, server.baseUrl, operator.login, operator.password, '/setting');
});

afterAll(async () => {
  await browser?.close();
});

it('reaches the tokens page from the settings, axe clean at 1440 and 390 px', async () => {
  await expect.poll(() => page.getByRole('link', { name: 'API-токени для скриптів' }).isVisible()).toBe(true);
  await checkedAtBothWidths('settings-tokens-link');
  await page.getByRole('link', { name: 'API-токени для скриптів' }).click();
  await expect.poll(() => page.getByRole('heading', { level: 1, name: 'API-токени' }).isVisible()).toBe(true);
  await expect.poll(() => page.getByText('Нічого не знайдено').isVisible()).toBe(true);
  // An operator is offered no admin token.
  expect(await page.getByRole('radio').count()).toBe(2);
  await checkedAtBothWidths('api-tokens-empty');
});

it('makes a token, shows it once with a copy button, and the token reads but does not publish', async () => {
  await page.getByLabel('Назва').fill('звіти щоранку');
  await page.getByLabel('Строк дії').selectOption({ label: '90 днів' });
  await page.getByRole('button', { name: 'Створити токен' }).click();

  const field = page.getByLabel('Новий токен');
  await expect.poll(() => field.isVisible()).toBe(true);
  secret = await field.inputValue();
  expect(secret).toMatch(/^sho_[\w-]{43}$/);
  expect(await page.getByText('його показано лише один раз').isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Копіювати' }).click();
  await expect.poll(() => page.getByText('Токен скопійовано').isVisible()).toBe(true);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await checkedAtBothWidths('api-tokens-created');

  expect((await withToken('/api/accounts?page=1')).status).toBe(200);
  const publish = await withToken('/api/accounts', { method: 'POST', body: JSON.stringify({ proxy: server.proxyUrl }) });
  expect(publish.status).toBe(403);
  expect((await publish.json()).message).toBe('API-токен дозволяє лише читання: створіть токен з правом публікації');
});

it('never shows the token again, and lists its last use', async () => {
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: 'звіти щоранку' });
  await expect.poll(() => row.isVisible()).toBe(true);
  expect(await page.content()).not.toContain(secret);
  expect(await page.getByLabel('Новий токен').count()).toBe(0);
  expect(await row.getByText('Читання').isVisible()).toBe(true);
  expect(await row.getByText('Ще не використовувався').count()).toBe(0);
  await checkedAtBothWidths('api-tokens-list');
});

it('revokes the token after asking, and the script is refused at once', async () => {
  await page.getByRole('button', { name: 'Відкликати токен «звіти щоранку»' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect.poll(() => dialog.getByText('Скрипти з цим токеном одразу втратять доступ.', { exact: false }).isVisible()).toBe(true);
  expect(await pageProblems(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Відкликати' }).click();
  await expect.poll(() => page.getByText('Токен відкликано').isVisible()).toBe(true);
  await expect.poll(() => page.getByRole('row').filter({ hasText: 'звіти щоранку' }).count()).toBe(0);

  const refused = await withToken('/api/accounts?page=1');
  expect(refused.status).toBe(401);
  expect((await refused.json()).message).toBe('API-токен відкликано або строк його дії минув');
  await snapshot(page, 'api-tokens-revoked-1440');
});
