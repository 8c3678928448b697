import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { adminLogin, adminPassword, launchBrowser, logIn, snapshot, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let page: Page;
/** What the browser reports refusing under the server's Content-Security-Policy. */
const cspViolations: string[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('shows a toast for a wrong password', async () => {
  await page.goto(server.baseUrl);
  await snapshot(page, 'login');
  await logIn(page, server.baseUrl, adminLogin, 'wrong-password');
  await expect.poll(() => page.getByText('Невірний логін або пароль').isVisible()).toBe(true);
  await snapshot(page, 'login-wrong-password');
});

it('shows the validation messages under the fields', async () => {
  await page.goto(server.baseUrl);
  await page.getByLabel('Логін').fill('a');
  await page.getByRole('button', { name: 'Увійти' }).click();
  await expect.poll(() => page.getByText('Занадто коротко: щонайменше 2 символи').isVisible()).toBe(true);
  await expect.poll(() => page.getByText('Обовʼязкове до заповнення').isVisible()).toBe(true);
});

it('logs in and shows the sidebar with the login', async () => {
  await logIn(page, server.baseUrl, adminLogin, adminPassword);
  await expect.poll(() => page.getByTestId('user-login').textContent()).toBe(adminLogin);
  await expect.poll(() => page.getByText('Ви увійшли').isVisible()).toBe(true);
  await expect.poll(() => page.getByRole('link', { name: 'Користувачі' }).isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Відео' }).click();
  await page.getByRole('button', { name: 'Сповіщення' }).click();
  await expect.poll(() => page.getByText('Немає повідомлень').isVisible()).toBe(true);
  await snapshot(page, 'home-with-notifications');
  await page.mouse.click(900, 600);
  await expect.poll(() => page.getByText('Немає повідомлень').isVisible()).toBe(false);
});

it('keeps the session across a reload', async () => {
  await page.reload();
  await expect.poll(() => page.getByTestId('user-login').textContent()).toBe(adminLogin);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('authStore') ?? 'null'));
  expect(stored.version).toBe(1);
  expect(stored.state.isAuthenticated).toBe(true);
});

it('shows the 404 page for an unknown path, inside the layout', async () => {
  await page.goto(`${server.baseUrl}/no/such/page`);
  await expect.poll(() => page.getByRole('heading', { name: '404' }).isVisible()).toBe(true);
  await expect.poll(() => page.getByTestId('user-login').isVisible()).toBe(true);
  await snapshot(page, 'not-found');
});

it('opens the settings from the user menu', async () => {
  await page.getByRole('button', { name: adminLogin }).click();
  await page.getByRole('menuitem', { name: 'Налаштування' }).click();
  await expect.poll(() => page.url()).toBe(`${server.baseUrl}/setting`);
  await expect.poll(() => page.getByRole('heading', { name: 'Налаштування' }).isVisible()).toBe(true);
  await snapshot(page, 'settings');
});

it('says the session ended when the server no longer takes it, and signs back in on the same page', async () => {
  await page.goto(`${server.baseUrl}/tags`);
  await expect.poll(() => page.getByRole('heading', { name: 'Набори тегів' }).isVisible()).toBe(true);
  // The session is revoked elsewhere (another tab's logout, an admin's password change) while the
  // tab is closed. With the tab open, its own polling could meet the revoked token first and clear
  // the stored session, so the reload below would find no session at all rather than an ended one.
  const { refreshToken } = await page.evaluate(() => JSON.parse(localStorage.getItem('authStore')!).state);
  await page.goto('about:blank');
  const revoked = await page.request.post(`${server.baseUrl}/api/auth/logout`, { data: { refreshToken } });
  expect(revoked.status()).toBeLessThan(300);
  await page.goto(`${server.baseUrl}/tags`);
  // A whole page load, then the session check and the refused refresh: more than the poll's 1 s default on a busy CI machine.
  await expect
    .poll(() => page.getByRole('alert').filter({ hasText: 'Сесію завершено, увійдіть знову' }).isVisible(), { timeout: 10_000 })
    .toBe(true);
  expect(new URL(page.url()).pathname).toBe('/tags');
  await snapshot(page, 'login-session-ended');

  await page.getByLabel('Логін').fill(adminLogin);
  await page.getByLabel('Пароль').fill(adminPassword);
  await page.getByRole('button', { name: 'Увійти' }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Набори тегів' }).isVisible()).toBe(true);
  expect(new URL(page.url()).pathname).toBe('/tags');
});

it('logs out back to the login screen', async () => {
  await page.getByRole('button', { name: adminLogin }).click();
  await page.getByRole('menuitem', { name: 'Вийти' }).click();
  await expect.poll(() => page.getByRole('button', { name: 'Увійти' }).isVisible()).toBe(true);
  await expect.poll(() => page.getByText('Ви вийшли із системи').isVisible()).toBe(true);
  // A logout of one's own is no session that ended by surprise.
  expect(await page.getByText('Сесію завершено, увійдіть знову').count()).toBe(0);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('authStore') ?? 'null'));
  expect(stored.state).toMatchObject({ isAuthenticated: false, accessToken: null, refreshToken: null });
});

it('runs the whole journey above under the strict Content-Security-Policy without a violation', async () => {
  const response = await page.goto(server.baseUrl);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(cspViolations).toEqual([]);
});
