import { Link } from 'wouter';
import { Eye, Plus, Send } from 'lucide-react';
import type { CreationRequestRow } from '../../lib/contract';
import { formatDate } from '../../lib/kyiv-time';
import * as t from '../../lib/i18n';
import { requestListPollMs } from '../../machines/polling-machine';
import { buttonClass } from '../../components/button';
import { DataTable, type Column } from '../../components/data-table';
import { DeleteButton } from '../../components/delete-button';
import { posterColumn } from '../../components/poster';
import { ListFilters } from '../../components/list-filters';
import { Page } from '../../components/page';
import { Pagination } from '../../components/pagination';
import { StatusBadge } from '../../components/status-badge';
import { useListPage } from '../../components/use-resource';
import styles from './request-list-screen.module.css';

/** The table of requests; `remove` deletes one by its id (DELETE /api/create-video/{id}). */
const columnsWith = (remove: (row: CreationRequestRow) => void): Column<CreationRequestRow>[] => [
  posterColumn(),
  {
    header: t.requests.id,
    // The file name and the number tell requests apart; the UUID (SPEC's idUpload) is the links' key only, never read.
    cell: (row) => (
      <span className={styles.request}>
        {row.sourceName && <span className={styles.name}>{row.sourceName}</span>}
        <span className={styles.id}>#{row.id}</span>
      </span>
    ),
  },
  { header: t.requests.created, width: '150px', cell: (row) => formatDate(row.createdAt) },
  { header: t.requests.videos, width: '80px', align: 'right', cell: (row) => row.countVideo },
  {
    header: t.requests.status,
    width: '160px',
    // A published request shows what its publication's status is, as the YouTube list does.
    cell: (row) =>
      row.status === 'published' ? (
        row.publicationStatus && <StatusBadge status={row.publicationStatus} kind="video" />
      ) : (
        <StatusBadge status={row.status} kind="request" />
      ),
  },
  {
    header: '',
    width: '170px',
    align: 'right',
    cell: (row) => {
      if (row.status === 'success')
        return (
          <Link href={`/video/request/${row.idUpload}`} className={buttonClass('primary')}>
            <Send size={14} aria-hidden />
            {t.requests.publish}
          </Link>
        );
      if (row.status === 'published')
        return (
          <Link href={`/video/youtube/${row.idUpload}`} className={buttonClass('secondary')}>
            <Eye size={14} aria-hidden />
            {t.requests.openPublished}
          </Link>
        );
      return null;
    },
  },
  {
    header: '',
    width: '56px',
    align: 'right',
    cell: (row) => (
      <DeleteButton
        label={t.requests.deleteLabel(row.sourceName ?? null, row.id)}
        consequence={t.requests.deleteConsequence(row.status === 'published')}
        onDelete={() => remove(row)}
      />
    ),
  },
];

const requestStatuses: [string, string][] = [
  ['loading', t.requestStatus.loading],
  ['success', t.requestStatus.success],
  ['error', t.requestStatus.error],
  ['published', t.filters.published],
];

export function RequestListScreen() {
  const { data, loading, remove } = useListPage<CreationRequestRow>('request-list', '/create-video', { pollMs: requestListPollMs });
  const columns = columnsWith((row) => remove(`/create-video/${row.id}`, t.requests.deleted));

  return (
    <Page
      title={t.requests.title}
      actions={
        <Link href="/video/create" className={buttonClass()}>
          <Plus size={16} aria-hidden />
          {t.requests.create}
        </Link>
      }
    >
      <ListFilters searchPlaceholder={t.filters.searchRequests} statuses={requestStatuses} />
      <DataTable columns={columns} rows={data?.data} rowKey={(row) => row.id} loading={loading} emptyHint={t.screens.empty.requests} />
      {data && <Pagination page={data.page} totalPages={data.totalPages} />}
    </Page>
  );
}
