import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { t } from '../../server/messages';
import { adminLogin, adminPassword, connectBrowser, logIn, sharedServer, snapshot } from './harness';

const server = sharedServer();
let browser: Browser;

beforeAll(async () => {
  browser = await connectBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/**
 * How an operator reads a delete the server refused because uploads are still in flight. The
 * refusal itself is the server's (tests/server/final-delete.test.ts makes a real one); here the
 * answer to the DELETE is replaced by one of that shape, as an upload cannot be held mid-flight
 * in a browser test.
 */
it('shows a refused user deletion as a toast naming what is still in flight, at 1440 and 390 px', async () => {
  const refusal = t.finalDelete.inFlight([
    t.finalDelete.item('Ранкова пробіжка біля річки', 1, 'TikTok', '#4 Канал Анни'),
    t.finalDelete.item('Ранкова пробіжка біля річки', 2, 'Instagram', '#5 Анна, другий акаунт'),
  ]);
  for (const width of [1440, 390]) {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page: Page = await context.newPage();
    await logIn(page, server.baseUrl, adminLogin, adminPassword, '/users/create');
    await expect.poll(() => page.getByRole('heading', { name: 'Створити користувача' }).isVisible()).toBe(true);
    const login = `leaver${width}`;
    await page.getByLabel('Логін').fill(login);
    await page.getByLabel('Новий пароль').fill('leaver-pass');
    await page.getByLabel('Повторіть пароль').fill('leaver-pass');
    await page.getByRole('button', { name: 'Створити' }).click();
    await expect.poll(() => page.url()).toMatch(/\/users\/\d+$/);

    await page.route('**/api/users/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({
            status: 409,
            contentType: 'application/json',
            body: JSON.stringify({ statusCode: 409, error: 'Conflict', message: refusal }),
          })
        : route.continue(),
    );
    await page.goto(`${server.baseUrl}/users`);
    await page.getByRole('button', { name: t.users.deleteLabel(login) }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Видалити' }).click();
    await expect.poll(() => page.getByText(refusal).isVisible()).toBe(true);
    await snapshot(page, `delete-refused-${width}`);
    expect(await page.getByText(login, { exact: true }).isVisible()).toBe(true);
    await context.close();
  }
});
