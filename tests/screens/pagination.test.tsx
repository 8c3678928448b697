import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { Pagination } from '../../src/components/pagination';

/** What the operator reads, left to right, with the current page in brackets. */
function renderedPages(page: number, totalPages: number) {
  const { hook } = memoryLocation({ path: '/accounts/list' });
  render(
    <Router hook={hook}>
      <Pagination page={page} totalPages={totalPages} />
    </Router>,
  );
  return screen
    .queryAllByRole('link')
    .map((link) => (link.getAttribute('aria-current') === 'page' ? `[${link.textContent}]` : link.textContent));
}

describe('Pagination', () => {
  it.each([
    [1, 50, ['[1]', '2', '3', '...', '50']],
    [2, 50, ['1', '[2]', '3', '4', '...', '50']],
    [5, 50, ['1', '...', '3', '4', '[5]', '6', '7', '...', '50']],
    [50, 50, ['1', '...', '48', '49', '[50]']],
    [4, 7, ['1', '2', '3', '[4]', '5', '6', '7']],
  ])('page %i of %i shows %j', (page, totalPages, expected) => {
    expect(renderedPages(page, totalPages)).toEqual(expected);
  });

  it('is hidden at one page or fewer', () => {
    expect(renderedPages(1, 1)).toEqual([]);
    expect(renderedPages(1, 0)).toEqual([]);
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('links to ?page=N on the current path, and jump points land in the middle of the gap', () => {
    const { hook } = memoryLocation({ path: '/accounts/list' });
    render(
      <Router hook={hook}>
        <Pagination page={5} totalPages={50} />
      </Router>,
    );
    const links = screen.getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/accounts/list?page=1',
      '/accounts/list?page=2',
      '/accounts/list?page=3',
      '/accounts/list?page=4',
      '/accounts/list?page=5',
      '/accounts/list?page=6',
      '/accounts/list?page=7',
      '/accounts/list?page=29',
      '/accounts/list?page=50',
    ]);
  });

  it('calls back with the page when given a callback instead of links', async () => {
    const onPageChange = vi.fn();
    render(<Pagination page={1} totalPages={3} onPageChange={onPageChange} />);
    await userEvent.click(screen.getByRole('button', { name: '3' }));
    expect(onPageChange).toHaveBeenCalledWith(3);
  });
});
