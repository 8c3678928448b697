import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { formatDate } from '../../src/lib/kyiv-time';
import { StatusBadge } from '../../src/components/status-badge';
import { toasterProps } from '../../src/lib/toasts';

describe('formatDate', () => {
  it('shows Europe/Kiev wall time on a 24-hour clock', () => {
    expect(formatDate('2026-07-01T18:30:00Z')).toBe('01.07.2026 21:30');
    expect(formatDate('2026-01-15T22:05:00Z')).toBe('16.01.2026 00:05');
  });

  it('shows nothing for a missing or invalid date', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('StatusBadge', () => {
  it.each([
    ['loading', 'Створюється'],
    ['publication', 'На публікації'],
    ['success', 'Опубліковано'],
    ['error', 'Помилка'],
  ] as const)('labels the video status %s as %s', (status, label) => {
    render(<StatusBadge kind="video" status={status} />);
    expect(screen.getByText(label)).toBeInTheDocument();
  });

  it.each([
    ['loading', 'Очікує підключення'],
    ['success', 'Активний'],
    ['error', 'Помилка'],
    ['noactive', 'Без платформ'],
  ] as const)('labels the profile status %s as %s', (status, label) => {
    render(<StatusBadge kind="account" status={status} />);
    expect(screen.getByText(label)).toBeInTheDocument();
  });
});

describe('toaster', () => {
  it('is configured as the spec says: top-center, dark gray, these durations', () => {
    expect(toasterProps.position).toBe('top-center');
    expect(toasterProps.toastOptions).toMatchObject({
      style: { background: '#333' },
      success: { duration: 2000 },
      error: { duration: 4000 },
      blank: { duration: 4000 },
      custom: { duration: 4000 },
      loading: { duration: Infinity },
    });
  });
});
