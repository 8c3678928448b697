import type { ReactNode } from 'react';
import type { Paged } from '../lib/contract';
import { DataTable, type Column } from './data-table';
import type { EmptyHint } from './empty-state';
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

interface PagedTableProps<Row> {
  /** What `useListPage` hands a list screen. */
  list: { page: number; data: Paged<Row> | undefined; error: unknown; loading: boolean };
  columns: Column<Row>[];
  rowHref?: (row: Row) => string;
  emptyHint?: EmptyHint;
}

/** A list of records by id: the current page's table with its pagination, or the load error. */
export function PagedTable<Row extends { id: number }>({ list, columns, rowHref, emptyHint }: PagedTableProps<Row>) {
  return (
    <PagedList error={list.error} page={list.page} totalPages={list.data?.totalPages}>
      <DataTable
        rows={list.data?.data}
        loading={list.loading}
        rowKey={(row) => row.id}
        rowHref={rowHref}
        columns={columns}
        emptyHint={emptyHint}
      />
    </PagedList>
  );
}
