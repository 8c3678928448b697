import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { NotificationList } from '../../src/lib/contract';
import { NotificationBell } from '../../src/components/notification-bell';
import { answerApi, renderScreen } from './render';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));

/** `count` unread render notices, as a morning of renders leaves them. */
function unreadList(count: number): NotificationList {
  return {
    unread: count,
    items: Array.from({ length: count }, (_, index) => ({
      id: index + 1,
      kind: 'render_done' as const,
      idUpload: '4f9c2b1e-8d3a-4b6c-9e1f-2a3b4c5d6e7f',
      account: null,
      title: `Випуск ${index + 1}`,
      platform: null,
      message: null,
      posts: null,
      failure: null,
      createdAt: '2026-12-04T08:00:00.000Z',
      read: false,
    })),
  };
}

// Issue 40: the bell showed '9+' while its name said '10 непрочитаних' (axe's label-content-name-mismatch, serious).
describe('the bell’s count', () => {
  it.each([
    [1, 'Сповіщення: 1 непрочитане'],
    [9, 'Сповіщення: 9 непрочитаних'],
    [10, 'Сповіщення: 10 непрочитаних'],
    [125, 'Сповіщення: 125 непрочитаних'],
  ])('shows %i unread as its name says them', async (count, name) => {
    answerApi({ 'GET /notifications': unreadList(count) });
    renderScreen(<NotificationBell />);
    const bell = await screen.findByRole('button', { name });
    expect(bell).toHaveTextContent(String(count));
    expect(bell.textContent?.trim()).toBe(String(count));
    expect(name).toContain(bell.textContent!.trim());
  });

  it('shows no figure while nothing is unread', async () => {
    answerApi({ 'GET /notifications': { items: [], unread: 0 } });
    renderScreen(<NotificationBell />);
    expect((await screen.findByRole('button', { name: 'Сповіщення' })).textContent).toBe('');
  });
});
