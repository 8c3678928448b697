import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { adminLogin, adminPassword, connectBrowser, logIn, sharedServer, snapshot } from './harness';

const server = sharedServer();
let browser: Browser;
let adminContext: BrowserContext;
let operatorContext: BrowserContext;
let admin: Page;
let operator: Page;
let accountId: string;

const viewport = { width: 1280, height: 800 };
const operatorLogin = 'operator1';
const operatorPassword = 'operator-pass';

beforeAll(async () => {
  browser = await connectBrowser();
  adminContext = await browser.newContext({ viewport });
  operatorContext = await browser.newContext({ viewport, permissions: ['clipboard-read', 'clipboard-write'] });
  admin = await adminContext.newPage();
  operator = await operatorContext.newPage();
});

afterAll(async () => {
  await browser?.close();
});

const visible = (page: Page, text: string) => page.getByText(text, { exact: true }).first().isVisible();

it('lets the admin create a user, checking the password confirmation', async () => {
  await logIn(admin, server.baseUrl, adminLogin, adminPassword, '/users');
  await expect.poll(() => admin.getByRole('heading', { name: 'Користувачі' }).isVisible()).toBe(true);
  await expect.poll(() => visible(admin, 'Адміністратор')).toBe(true);
  await snapshot(admin, 'users-list');

  await admin.getByRole('link', { name: 'Створити' }).click();
  await expect.poll(() => admin.getByRole('heading', { name: 'Створити користувача' }).isVisible()).toBe(true);
  await admin.getByLabel('Логін').fill(operatorLogin);
  await admin.getByLabel('Новий пароль').fill(operatorPassword);
  await admin.getByLabel('Повторіть пароль').fill('something-else');
  await admin.getByRole('button', { name: 'Створити' }).click();
  await expect.poll(() => visible(admin, 'Паролі не збігаються')).toBe(true);
  await snapshot(admin, 'user-create-errors');

  await admin.getByLabel('Повторіть пароль').fill(operatorPassword);
  await admin.getByRole('button', { name: 'Створити' }).click();
  await expect.poll(() => visible(admin, 'Користувача створено')).toBe(true);
  await expect.poll(() => admin.url()).toMatch(/\/users\/\d+$/);
  await expect.poll(() => admin.getByRole('heading', { name: `Користувач: ${operatorLogin}` }).isVisible()).toBe(true);
});

it('signs the new user in without the Users menu item, on an empty profile list', async () => {
  await logIn(operator, server.baseUrl, operatorLogin, operatorPassword, '/accounts/list');
  await expect.poll(() => operator.getByTestId('user-login').textContent()).toBe(operatorLogin);
  await expect.poll(() => operator.getByRole('heading', { name: 'Профілі' }).isVisible()).toBe(true);
  await expect.poll(() => visible(operator, 'Нічого не знайдено')).toBe(true);
  expect(await operator.getByRole('link', { name: 'Користувачі' }).count()).toBe(0);
  expect(await operator.getByRole('columnheader', { name: 'Користувач' }).count()).toBe(0);
  await snapshot(operator, 'accounts-empty');
});

it('creates a profile with YouTube on, asking for its client ID first', async () => {
  await operator.getByRole('link', { name: 'Створити' }).click();
  await expect.poll(() => operator.getByRole('heading', { name: 'Створити профіль' }).isVisible()).toBe(true);
  await operator.getByLabel('Проксі').fill('127.0.0.1:3128');
  await operator.getByRole('switch', { name: 'YouTube' }).check();
  await operator.getByRole('button', { name: 'Створити' }).click();
  await expect.poll(() => visible(operator, "ID клієнта обов'язковий")).toBe(true);
  await expect.poll(() => visible(operator, "Секрет клієнта обов'язковий")).toBe(true);
  await snapshot(operator, 'account-create-errors');

  await operator.getByLabel('ID клієнта').fill('operator-client.apps.googleusercontent.com');
  await operator.getByLabel('Секрет клієнта').fill('operator-client-secret');
  await operator.getByRole('button', { name: 'Створити' }).click();
  await expect.poll(() => visible(operator, 'Профіль створено')).toBe(true);
  await expect.poll(() => operator.url()).toMatch(/\/accounts\/\d+$/);
  accountId = operator.url().split('/').pop()!;
  await expect.poll(() => operator.getByRole('heading', { name: `Профіль #${accountId}` }).isVisible()).toBe(true);
  await expect.poll(() => visible(operator, 'Очікує підключення')).toBe(true);
});

it('edits the profile and its channel description', async () => {
  await operator.getByLabel('Коментар').fill('Main channel');
  await operator.getByRole('button', { name: 'Зберегти' }).first().click();
  await expect.poll(() => visible(operator, 'Профіль змінено')).toBe(true);

  await operator.getByRole('button', { name: 'Зберегти' }).nth(1).click();
  await expect.poll(() => visible(operator, "Опис обов'язковий")).toBe(true);
  await operator.getByLabel('Опис каналу').fill('Short videos every day');
  await operator.getByRole('button', { name: 'Зберегти' }).nth(1).click();
  await expect.poll(() => visible(operator, 'Опис змінено')).toBe(true);

  await operator.reload();
  await expect.poll(() => operator.getByLabel('Коментар').inputValue()).toBe('Main channel');
  await expect.poll(() => operator.getByLabel('Опис каналу').inputValue()).toBe('Short videos every day');
  // Secrets are write-only: the field stays empty and says the secret is stored.
  await expect.poll(() => operator.getByLabel('Секрет клієнта').getAttribute('placeholder')).toBe('збережено');
  expect(await operator.getByLabel('Секрет клієнта').inputValue()).toBe('');
  await snapshot(operator, 'account-detail');
});

it('copies the YouTube authorization link to the clipboard', async () => {
  await operator.getByRole('button', { name: 'Скопіювати посилання авторизації' }).click();
  await expect.poll(() => visible(operator, 'Посилання скопійоване в буфер обміну')).toBe(true);
  // The link leads through this server, which binds the browser that opens it, then to Google's page.
  const copied = new URL(await operator.evaluate(() => navigator.clipboard.readText()));
  expect(`${copied.origin}${copied.pathname}`).toBe(`${server.baseUrl}/api/oauth/youtube/start`);
  const consent = new URL((await fetch(copied, { redirect: 'manual' })).headers.get('location')!);
  expect(`${consent.origin}${consent.pathname}`).toBe(`${server.baseUrl}/sandbox/accounts.google.com/o/oauth2/v2/auth`);
  expect(consent.searchParams.get('client_id')).toBe('operator-client.apps.googleusercontent.com');
  expect(consent.searchParams.get('redirect_uri')).toBe(`${server.baseUrl}/api/oauth/youtube/callback`);
});

it("shows the admin each profile's owner", async () => {
  await admin.goto(`${server.baseUrl}/accounts/list`);
  await expect.poll(() => admin.getByRole('columnheader', { name: 'Користувач' }).isVisible()).toBe(true);
  const row = admin.getByRole('row').filter({ hasText: '127.0.0.1:3128' });
  await expect.poll(() => row.getByRole('cell', { name: operatorLogin, exact: true }).isVisible()).toBe(true);
  await snapshot(admin, 'accounts-admin');
});

it('keeps a tag set and a profile group', async () => {
  await operator.goto(`${server.baseUrl}/tags/create`);
  await expect.poll(() => operator.getByRole('heading', { name: 'Створити набір тегів' }).isVisible()).toBe(true);
  await operator.getByLabel('Назва').fill('Travel');
  const tags = operator.getByPlaceholder('Введіть тег');
  await tags.fill('Sea');
  await tags.press('Enter');
  await tags.fill('sun');
  await tags.press('Space');
  await tags.fill('SEA');
  await tags.press('Enter');
  await operator.getByRole('button', { name: 'Створити' }).click();
  await expect.poll(() => visible(operator, 'Набір тегів створено')).toBe(true);
  await expect.poll(() => operator.getByRole('heading', { name: 'Набір тегів: Travel' }).isVisible()).toBe(true);
  expect(operator.url()).toMatch(/\/tags\/\d+$/);
  await snapshot(operator, 'tag-form');
  await operator.goto(`${server.baseUrl}/tags`);
  await expect.poll(() => visible(operator, 'sea')).toBe(true);
  await expect.poll(() => visible(operator, 'sun')).toBe(true);
  await snapshot(operator, 'tags-list');

  await operator.goto(`${server.baseUrl}/accounts/group/create`);
  await expect.poll(() => operator.getByRole('heading', { name: 'Створити групу' }).isVisible()).toBe(true);
  await operator.getByLabel('Назва').fill('Ukraine');
  await operator.getByRole('combobox', { name: 'Профілі' }).click();
  await operator.getByRole('option', { name: `#${accountId} Main channel` }).click();
  await operator.getByRole('button', { name: 'Створити' }).click();
  await expect.poll(() => visible(operator, 'Групу створено')).toBe(true);
  await expect.poll(() => operator.getByRole('heading', { name: 'Група: Ukraine' }).isVisible()).toBe(true);
  await operator.getByRole('combobox', { name: 'Профілі' }).click();
  await expect.poll(() => visible(operator, 'Не знайдено')).toBe(true);
  await snapshot(operator, 'group-form');
  await operator.goto(`${server.baseUrl}/accounts/group/list`);
  await expect.poll(() => operator.getByRole('link', { name: 'Ukraine' }).isVisible()).toBe(true);
  await snapshot(operator, 'groups-list');
});

it('shows the admin the user with their profile', async () => {
  await admin.goto(`${server.baseUrl}/users`);
  await admin.getByRole('row').filter({ hasText: operatorLogin }).click();
  await expect.poll(() => admin.getByRole('heading', { name: `Користувач: ${operatorLogin}` }).isVisible()).toBe(true);
  await expect.poll(() => admin.getByRole('cell', { name: '127.0.0.1:3128' }).isVisible()).toBe(true);
  await snapshot(admin, 'user-detail');
});

it('asks before deleting the profile: Скасувати keeps it, Видалити deletes it', async () => {
  await operator.goto(`${server.baseUrl}/accounts/list`);
  const icon = operator.getByRole('button', { name: `Видалити профіль #${accountId} Main channel` });
  await icon.click();
  const dialog = operator.getByRole('alertdialog', { name: `Видалити профіль #${accountId} Main channel?` });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  await snapshot(operator, 'confirm-delete-profile');
  await dialog.getByRole('button', { name: 'Скасувати' }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  expect(operator.url()).toBe(`${server.baseUrl}/accounts/list`);
  await expect.poll(() => icon.isVisible()).toBe(true);

  await icon.click();
  await operator.keyboard.press('Escape');
  await expect.poll(() => dialog.count()).toBe(0);
  await expect.poll(() => icon.isVisible()).toBe(true);

  await icon.click();
  await dialog.getByRole('button', { name: 'Видалити' }).click();
  await expect.poll(() => visible(operator, 'Акаунт видалено')).toBe(true);
  await expect.poll(() => visible(operator, 'Нічого не знайдено')).toBe(true);
});

it('lets the admin delete the user after confirming', async () => {
  await admin.goto(`${server.baseUrl}/users`);
  await admin.getByRole('button', { name: `Видалити користувача ${operatorLogin}` }).click();
  const dialog = admin.getByRole('alertdialog', { name: `Видалити користувача ${operatorLogin}?` });
  await expect.poll(() => dialog.getByText('Разом з користувачем буде видалено').isVisible()).toBe(true);
  await dialog.getByRole('button', { name: 'Видалити' }).click();
  await expect.poll(() => visible(admin, 'Користувача видалено')).toBe(true);
  await expect.poll(() => admin.getByRole('row').filter({ hasText: operatorLogin }).count()).toBe(0);
});
