import { Link } from 'wouter';
import type { UploadRow } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { DataTable, type Column } from '../../components/data-table';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { Pagination } from '../../components/pagination';
import { StatusBadge } from '../../components/status-badge';
import { useListPage } from '../../components/use-resource';
import styles from './upload-list-screen.module.css';

const hrefOf = (row: UploadRow) => `/video/youtube/${row.idUpload}`;

const columns: Column<UploadRow>[] = [
  { header: t.videoTable.columnId, cell: (row) => row.id, width: '80px' },
  {
    header: '',
    cell: (row) => (
      // The row navigates too; the link is there for a new tab and for keyboards.
      <Link href={hrefOf(row)} className={styles.id} onClick={(event) => event.stopPropagation()}>
        {row.idUpload}
      </Link>
    ),
  },
  { header: t.published.status, cell: (row) => <StatusBadge status={row.status} kind="video" />, width: '160px' },
];

/** The published sets ("YouTube" in the menu), each opening its detail. */
export function UploadListScreen() {
  const { page, data, error, loading } = useListPage<UploadRow>('upload-list', '/upload-video');
  return (
    <Page title={t.published.title}>
      {error ? (
        <LoadError error={error} />
      ) : (
        <>
          <DataTable columns={columns} rows={data?.data} rowKey={(row) => row.id} loading={loading} rowHref={hrefOf} />
          <Pagination page={page} totalPages={data?.totalPages ?? 0} />
        </>
      )}
    </Page>
  );
}
