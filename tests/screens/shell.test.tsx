import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../src/app';
import { renderWithSession } from './render-with-session';

// The menu is a chunk of its own (src/app.tsx): loaded once here, so no test waits on its first load.
beforeAll(() => import('../../src/components/sidebar'));

const admin = { id: 1, login: 'chief', role: 'admin' as const };
const operator = { id: 2, login: 'operator', role: 'user' as const };

describe('login screen', () => {
  it('shows the spec messages for empty and short fields', async () => {
    renderWithSession(<App />, { user: null });
    await userEvent.click(screen.getByRole('button', { name: 'Увійти' }));
    expect(await screen.findAllByText('Обовʼязкове до заповнення')).toHaveLength(2);
    await userEvent.type(screen.getByLabelText('Логін'), 'a');
    await userEvent.type(screen.getByLabelText('Пароль'), '1234');
    await userEvent.click(screen.getByRole('button', { name: 'Увійти' }));
    // Each says its own minimum: 2 characters for the login, 5 for the password.
    expect(await screen.findByText('Занадто коротко: щонайменше 2 символи')).toBeInTheDocument();
    expect(screen.getByText('Занадто коротко: щонайменше 5 символів')).toBeInTheDocument();
  });

  it('shows too-long messages past 50 characters', async () => {
    renderWithSession(<App />, { user: null });
    await userEvent.type(screen.getByLabelText('Логін'), 'x'.repeat(51));
    await userEvent.type(screen.getByLabelText('Пароль'), 'y'.repeat(51));
    await userEvent.click(screen.getByRole('button', { name: 'Увійти' }));
    expect(await screen.findAllByText('Занадто довго: щонайбільше 50 символів')).toHaveLength(2);
  });
});

describe('layout', () => {
  it('shows the Users menu item to an admin only', async () => {
    renderWithSession(<App />, { user: admin });
    expect(await screen.findByRole('link', { name: 'Користувачі' })).toBeInTheDocument();
  });

  it('hides the Users menu item from an operator', async () => {
    renderWithSession(<App />, { user: operator });
    await screen.findByText('operator');
    expect(screen.queryByRole('link', { name: 'Користувачі' })).toBeNull();
  });

  it('opens a menu group by itself when the path is inside it, and toggles it on click', async () => {
    renderWithSession(<App />, { user: operator, path: '/accounts/list' });
    const group = await screen.findByRole('button', { name: 'Профілі' });
    expect(group).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'Групи профілів' })).toBeInTheDocument();
    const videoGroup = screen.getByRole('button', { name: 'Відео' });
    expect(videoGroup).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(videoGroup);
    expect(screen.getByRole('link', { name: 'Запити на створення' })).toBeInTheDocument();
  });

  it('closes the notifications dropdown on a click outside it', async () => {
    renderWithSession(<App />, { user: operator });
    await userEvent.click(await screen.findByRole('button', { name: 'Сповіщення' }));
    expect(screen.getByText('Немає повідомлень')).toBeInTheDocument();
    await userEvent.click(document.body);
    await waitFor(() => expect(screen.queryByText('Немає повідомлень')).toBeNull());
  });

  it('shows 404 for an unknown path', async () => {
    renderWithSession(<App />, { user: operator, path: '/nowhere' });
    expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
  });

  it('offers settings, API tokens and logout in the user menu', async () => {
    const { actor } = renderWithSession(<App />, { user: operator });
    await userEvent.click(await screen.findByRole('button', { name: 'operator' }));
    expect(screen.getByRole('menuitem', { name: 'Налаштування' })).toHaveAttribute('href', '/setting');
    expect(screen.getByRole('menuitem', { name: 'API-токени' })).toHaveAttribute('href', '/setting/tokens');
    await userEvent.click(screen.getByRole('menuitem', { name: 'Вийти' }));
    await waitFor(() => expect(actor.getSnapshot().matches('signedOut')).toBe(true));
  });

  it("offers 'Перейти до вмісту' as the first Tab stop, which moves the focus to the main content", async () => {
    renderWithSession(<App />, { user: operator });
    await screen.findByTestId('user-login');
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Перейти до вмісту' });
    expect(skip).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('walks the user menu with the keyboard: arrows, Home, End, type-ahead, Escape back to its button', async () => {
    renderWithSession(<App />, { user: operator });
    const button = await screen.findByRole('button', { name: 'operator' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    button.focus();
    await userEvent.keyboard('{ArrowDown}');
    const menu = screen.getByRole('menu', { name: 'operator' });
    const [settings, tokens, logout] = within(menu).getAllByRole('menuitem');
    expect(settings).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(tokens).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(logout).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(settings).toHaveFocus();
    await userEvent.keyboard('{End}');
    expect(logout).toHaveFocus();
    await userEvent.keyboard('{Home}');
    expect(settings).toHaveFocus();
    await userEvent.keyboard('в');
    expect(logout).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Вийти' })).toHaveFocus();
    await userEvent.tab();
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('opens the notifications as a dialog that takes the focus and gives it back on Escape', async () => {
    renderWithSession(<App />, { user: operator });
    const bell = await screen.findByRole('button', { name: 'Сповіщення' });
    await userEvent.click(bell);
    const dialog = screen.getByRole('dialog', { name: 'Сповіщення' });
    expect(dialog).toHaveFocus();
    expect(within(dialog).getByText('Немає повідомлень')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(bell).toHaveFocus();
  });
});
