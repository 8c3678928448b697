import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { adminLogin, adminPassword, launchBrowser, logIn, snapshot, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let known: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  known = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await known.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const signedInAs = (target: Page) => target.getByTestId('user-login');

it('signs a browser that signed in before in at once after a spray from its address, while a new browser waits', async () => {
  await logIn(page, server.baseUrl, adminLogin, adminPassword);
  await expect.poll(() => signedInAs(page).textContent()).toBe(adminLogin);
  await page.getByRole('button', { name: adminLogin }).click();
  await page.getByRole('menuitem', { name: 'Вийти' }).click();
  await expect.poll(() => page.getByRole('button', { name: 'Увійти' }).isVisible()).toBe(true);

  // The attacker of the issue: random logins from the address every operator shares (127.0.0.1 here).
  const answers = new Set<number>();
  for (let attempt = 0; attempt < 200; attempt++) {
    const response = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: `guess-${crypto.randomBytes(6).toString('hex')}`, password: 'wrong-pass' }),
    });
    answers.add(response.status);
  }
  expect(answers).toEqual(new Set([401, 429]));

  const fresh = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const stranger = await fresh.newPage();
  await logIn(stranger, server.baseUrl, adminLogin, adminPassword);
  await expect.poll(() => stranger.getByText(/^Забагато спроб входу\. Спробуйте знову через \d+ (с|хв)\.$/).isVisible()).toBe(true);
  await fresh.close();

  await logIn(page, server.baseUrl, adminLogin, adminPassword);
  await expect.poll(() => signedInAs(page).textContent()).toBe(adminLogin);
});

it('changes the own password in Settings and stays signed in', async () => {
  const phone = await known.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  for (const [shown, width] of [
    [phone, 390],
    [page, 1440],
  ] as const) {
    await shown.goto(`${server.baseUrl}/setting`);
    await expect.poll(() => shown.getByRole('heading', { name: 'Зміна пароля' }).isVisible()).toBe(true);
    await shown.getByLabel('Новий пароль').fill('12345');
    await shown.getByLabel('Повторіть пароль').fill('123456');
    await shown.getByRole('button', { name: 'Змінити пароль' }).click();
    await expect.poll(() => shown.getByText('Паролі не збігаються').isVisible()).toBe(true);
    await expect.poll(() => shown.getByText('Обовʼязкове до заповнення').isVisible()).toBe(true);
    await snapshot(shown, `settings-password-${width}`);
  }
  await phone.close();

  await page.getByLabel('Поточний пароль').fill(adminPassword);
  await page.getByLabel('Новий пароль').fill('admin-new-password');
  await page.getByLabel('Повторіть пароль').fill('admin-new-password');
  await page.getByRole('button', { name: 'Змінити пароль' }).click();
  await expect.poll(() => page.getByText('Пароль змінено. Інші сесії завершено.').isVisible()).toBe(true);
  expect(await page.getByLabel('Поточний пароль').inputValue()).toBe('');

  await page.reload();
  await expect.poll(() => signedInAs(page).textContent()).toBe(adminLogin);
  // The browser's own device cookie lets it past the sprayed address: the old password is simply wrong now.
  const oldPassword = await page.request.post(`${server.baseUrl}/api/auth/login`, { data: { login: adminLogin, password: adminPassword } });
  expect(oldPassword.status()).toBe(401);
});
