import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { Route } from 'wouter';
import type { PublicationRequestDetail } from '../../src/lib/contract';
import { menuStore } from '../../src/machines/menu-store';
import { Sidebar } from '../../src/components/sidebar';
import { PublishScreen } from '../../src/screens/video/publish-screen';
import { renderScreen } from './render';
import { renderWithSession } from './render-with-session';
import { serverDouble } from './server-double';

const operator = { id: 2, login: 'operator', role: 'user' as const };

afterEach(() => {
  if (menuStore.getSnapshot().context.collapsed) menuStore.trigger.toggleCollapsed();
  for (const [id, open] of Object.entries(menuStore.getSnapshot().context.open)) menuStore.trigger.toggleGroup({ id, wasOpen: open });
  toast.remove();
});

describe('remembered menu', () => {
  it('stays collapsed across screens and visits', async () => {
    const first = renderWithSession(<Sidebar />, { user: operator, path: '/tags' });
    const toggle = screen.getByRole('button', { name: 'Згорнути або розгорнути меню' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(toggle);
    first.unmount();
    renderWithSession(<Sidebar />, { user: operator, path: '/photos/list' });
    expect(screen.getByRole('button', { name: 'Згорнути або розгорнути меню' })).toHaveAttribute('aria-pressed', 'true');
    expect(JSON.parse(localStorage.getItem('shorts-office.menu') ?? '{}')).toMatchObject({ context: { collapsed: true } });
  });

  it('opens the group of the current screen, and keeps a group the operator closed closed', async () => {
    const first = renderWithSession(<Sidebar />, { user: operator, path: '/video/list' });
    const video = screen.getByRole('button', { name: 'Відео' });
    expect(video).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: 'Профілі' })).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(video);
    expect(video).toHaveAttribute('aria-expanded', 'false');
    first.unmount();
    renderWithSession(<Sidebar />, { user: operator, path: '/video/request-create' });
    expect(screen.getByRole('button', { name: 'Відео' })).toHaveAttribute('aria-expanded', 'false');
  });
});

const idUpload = 'draft-1';
const request: PublicationRequestDetail = {
  id: 5,
  idUpload,
  status: 'success',
  countVideo: 2,
  createdAt: '2026-11-20T10:00:00.000Z',
  error: null,
  video: [21, 22].map(
    (id) =>
      ({ id, url: `/api/media/${id}.mp4`, posterUrl: null, idUpload, createdAt: '2026-11-20T10:00:00.000Z', status: 'success' }) as never,
  ),
  accounts: [{ id: 1, title: '#1 anna', value: 1, platforms: ['youtube'] }],
  tagProfile: [],
  group: [],
};

function openPublish() {
  return renderScreen(
    <Route path="/video/request/:idUpload">
      <PublishScreen />
    </Route>,
    { path: `/video/request/${idUpload}` },
  );
}

describe('publish draft', () => {
  it('keeps a half-filled publish form for the operator who leaves and comes back, and forgets it once sent', async () => {
    const server = serverDouble();
    const user = userEvent.setup();
    const first = openPublish();
    await server.answer('GET', `/create-video/request/${idUpload}`, 200, request);
    await user.type(await screen.findByLabelText('Назва'), 'Чернетка');
    await user.click(screen.getByRole('combobox', { name: 'Профілі' }));
    await user.click(screen.getByRole('option', { name: '#1 anna' }));
    await user.click(screen.getByRole('button', { name: 'Прибрати відео 2' }));
    first.unmount();

    openPublish();
    await server.answer('GET', `/create-video/request/${idUpload}`, 200, request);
    expect(await screen.findByLabelText('Назва')).toHaveValue('Чернетка');
    // The rest of the form is drawn a render after its texts (publish-screen.tsx).
    await screen.findByRole('button', { name: 'Зберегти' });
    expect(screen.getByRole('button', { name: 'Прибрати #1 anna' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Переглянути відео 2' })).toBeNull();
    expect(screen.getByLabelText('Профіль відео 1')).toHaveValue('1');

    await user.type(screen.getByLabelText('Теги'), 'shorts ');
    await user.click(screen.getByRole('button', { name: 'Зберегти' }));
    await server.answer('POST', `/upload-video/${idUpload}`, 200, { ok: true });
    await waitFor(() => expect(screen.queryByLabelText('Назва')).toBeNull());

    openPublish();
    await server.answer('GET', `/create-video/request/${idUpload}`, 200, request);
    expect(await screen.findByLabelText('Назва')).toHaveValue('');
    expect(await screen.findByRole('link', { name: 'Переглянути відео 2' })).toBeInTheDocument();
  });
});
