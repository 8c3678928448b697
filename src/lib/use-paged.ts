import { useState } from 'react';
import type { Paged } from './contract';
import { useApi } from './use-api';

/**
 * A paged list whose first page came with a detail response: page 1 is shown from `first`,
 * other pages are fetched from `pathOf(page)` when chosen.
 */
export function usePaged<T>(first: Paged<T>, pathOf: (page: number) => string) {
  const [page, setPage] = useState(1);
  const other = useApi<Paged<T>>(page === 1 ? null : pathOf(page));
  return {
    page,
    setPage,
    data: page === 1 ? first : other.data,
    loading: page !== 1 && other.loading,
    error: page === 1 ? undefined : other.error,
  };
}
