import type { ReactNode } from 'react';
import { LoadError } from './load-error';
import { Pagination } from './pagination';

interface PagedListProps {
  error: unknown;
  page: number;
  totalPages: number | undefined;
  /** The table of the current page. */
  children: ReactNode;
}

/** A list page's body: the load error, or the table with `?page=N` pagination under it. */
export function PagedList({ error, page, totalPages, children }: PagedListProps) {
  if (error) return <LoadError error={error} />;
  return (
    <>
      {children}
      <Pagination page={page} totalPages={totalPages ?? 0} />
    </>
  );
}
