import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import toast from 'react-hot-toast';
import type { CreationRequestRow, Paged } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { RequestListScreen } from '../../src/screens/video/request-list-screen';
import { renderScreen } from './render';
import { errorBody, serverDouble, type ServerDouble } from './server-double';

const request = (id: number, overrides: Partial<CreationRequestRow> = {}): CreationRequestRow => ({
  id,
  idUpload: `00000000-0000-4000-8000-00000000000${id}`,
  status: 'success',
  countVideo: 2,
  createdAt: '2026-11-21T10:00:00.000Z',
  sourceName: `clip-${id}.mp4`,
  posterUrl: null,
  ...overrides,
});
const pageOf = (...data: CreationRequestRow[]): Paged<CreationRequestRow> => ({ data, page: 1, totalPages: 1, total: data.length });
const published = request(1, { status: 'published', publicationStatus: 'success' });
const ready = request(2);
const listPath = '/create-video?page=1';

let server: ServerDouble;
let user: UserEvent;

beforeEach(() => {
  server = serverDouble();
  user = userEvent.setup();
});

afterEach(() => {
  toast.remove();
});

async function openList() {
  renderScreen(<RequestListScreen />, { path: '/video/request-create' });
  await server.answer('GET', listPath, 200, pageOf(published, ready));
  await screen.findByText('clip-1.mp4');
}

/** The row's delete icon, then the dialog it opens, which says what goes and what stays. */
async function askToDelete(name: string, consequence: string) {
  await user.click(screen.getByRole('button', { name: `Видалити запит «${name}»` }));
  const dialog = screen.getByRole('alertdialog', { name: `Видалити запит «${name}»?` });
  expect(dialog).toHaveAccessibleDescription(consequence);
  return within(dialog);
}

describe('deleting a request from the request list', () => {
  it('asks first, saying that published videos stay on the platforms, then deletes it by its id and reads the list again', async () => {
    await openList();
    const dialog = await askToDelete('clip-1.mp4', t.requests.deleteConsequence(true));
    expect(server.pending()).toEqual([]);
    await user.click(dialog.getByRole('button', { name: 'Видалити' }));
    await server.answer('DELETE', '/create-video/1', 204);
    expect(await screen.findByText('Запит видалено')).toBeInTheDocument();
    await server.answer('GET', listPath, 200, pageOf(ready));
    await waitFor(() => expect(screen.queryByText('clip-1.mp4')).toBeNull());
    expect(screen.getByText('clip-2.mp4')).toBeInTheDocument();
  });

  it('says a request not yet published goes with its videos and files, and sends nothing when the operator keeps it', async () => {
    await openList();
    const dialog = await askToDelete('clip-2.mp4', t.requests.deleteConsequence(false));
    await user.click(dialog.getByRole('button', { name: 'Скасувати' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Видалити запит «clip-2.mp4»' })).toHaveFocus();
    expect(server.calls.filter((call) => call.method === 'DELETE')).toEqual([]);
  });

  it("shows the server's own reason when it refuses (uploads that could not be stopped), and keeps the row", async () => {
    await openList();
    const reason = t.finalDelete.inFlight([t.finalDelete.item('Випуск', 1, 'TikTok', '#4 Канал Анни')]);
    const dialog = await askToDelete('clip-1.mp4', t.requests.deleteConsequence(true));
    await user.click(dialog.getByRole('button', { name: 'Видалити' }));
    await server.answer('DELETE', '/create-video/1', 409, errorBody(409, reason));
    expect(await screen.findByText(reason)).toBeInTheDocument();
    await server.answer('GET', listPath, 200, pageOf(published, ready));
    expect(await screen.findByText('clip-1.mp4')).toBeInTheDocument();
  });

  it('names a request without a file name by its number', async () => {
    renderScreen(<RequestListScreen />, { path: '/video/request-create' });
    await server.answer('GET', listPath, 200, pageOf(request(7, { sourceName: null })));
    expect(await screen.findByRole('button', { name: 'Видалити запит #7' })).toBeInTheDocument();
  });
});
