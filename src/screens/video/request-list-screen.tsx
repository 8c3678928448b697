import { Link } from 'wouter';
import { Plus, Send } from 'lucide-react';
import type { CreationRequestRow } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { requestListPollMs } from '../../machines/polling-machine';
import { buttonClass } from '../../components/button';
import { DataTable, type Column } from '../../components/data-table';
import { Page } from '../../components/page';
import { Pagination } from '../../components/pagination';
import { StatusBadge } from '../../components/status-badge';
import { useListPage } from '../../components/use-resource';
import styles from './request-list-screen.module.css';

const columns: Column<CreationRequestRow>[] = [
  { header: t.requests.id, cell: (row) => <span className={styles.id}>{row.idUpload}</span> },
  { header: t.requests.status, width: '160px', cell: (row) => <StatusBadge status={row.status} kind="request" /> },
  {
    header: '',
    width: '170px',
    align: 'right',
    cell: (row) =>
      row.status === 'success' ? (
        <Link href={`/video/request/${row.idUpload}`} className={buttonClass('primary')}>
          <Send size={14} aria-hidden />
          {t.requests.publish}
        </Link>
      ) : null,
  },
];

export function RequestListScreen() {
  const { data, loading } = useListPage<CreationRequestRow>('request-list', '/create-video', { pollMs: requestListPollMs });

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
      <DataTable columns={columns} rows={data?.data} rowKey={(row) => row.id} loading={loading} />
      {data && <Pagination page={data.page} totalPages={data.totalPages} />}
    </Page>
  );
}
