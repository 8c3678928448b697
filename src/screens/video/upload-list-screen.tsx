import { Link } from 'wouter';
import type { UploadRow } from '../../lib/contract';
import { formatDate, formatSpan } from '../../lib/kyiv-time';
import * as t from '../../lib/i18n';
import { DataTable, type Column } from '../../components/data-table';
import { posterColumn } from '../../components/poster';
import { ListFilters } from '../../components/list-filters';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { Pagination } from '../../components/pagination';
import { SetCounts } from '../../components/post-badges';
import { StatusBadge } from '../../components/status-badge';
import { useListPage } from '../../components/use-resource';
import styles from './upload-list-screen.module.css';

const hrefOf = (row: UploadRow) => `/video/youtube/${row.idUpload}`;

const columns: Column<UploadRow>[] = [
  { header: t.videoTable.columnId, cell: (row) => row.id, width: '80px' },
  posterColumn(),
  {
    header: t.publish.name,
    // The title and the file name tell sets apart; the UUID (SPEC's idUpload) is the link's key only, never read.
    cell: (row) => (
      <span className={styles.set}>
        {/* The row navigates too; the link is there for a new tab and for keyboards. */}
        <Link href={hrefOf(row)} className={styles.title} onClick={(event) => event.stopPropagation()}>
          {row.title || t.screens.untitledSet}
        </Link>
        {row.sourceName && <span className={styles.file}>{row.sourceName}</span>}
      </span>
    ),
  },
  {
    // The posts' own dates: a set sent on the 1st may go out on the 2nd to the 4th.
    header: t.postBadges.column,
    cell: (row) => (
      <span className={styles.dates}>
        {formatSpan(row.postsFrom, row.postsTo)}
        <span className={styles.file}>{t.postBadges.sentAt(formatDate(row.publishedAt))}</span>
      </span>
    ),
    width: '190px',
  },
  { header: t.requests.videos, cell: (row) => row.countVideo, width: '80px', align: 'right' },
  {
    header: t.published.status,
    cell: (row) => (
      <span className={styles.status}>
        <StatusBadge status={row.status} kind="video" />
        <SetCounts posts={row.posts} />
      </span>
    ),
    width: '200px',
  },
];

const setStatuses: [string, string][] = [
  ['publication', t.videoStatus.publication],
  ['success', t.videoStatus.success],
  ['error', t.videoStatus.error],
  ['cancelled', t.videoStatus.cancelled],
];

/** The published sets ("YouTube" in the menu), each opening its detail. */
export function UploadListScreen() {
  const { page, data, error, loading } = useListPage<UploadRow>('upload-list', '/upload-video');
  return (
    <Page title={t.published.title}>
      <ListFilters searchPlaceholder={t.filters.searchSets} statuses={setStatuses} platforms />
      {error ? (
        <LoadError error={error} />
      ) : (
        <>
          <DataTable
            columns={columns}
            rows={data?.data}
            rowKey={(row) => row.id}
            loading={loading}
            rowHref={hrefOf}
            emptyHint={t.screens.empty.published}
          />
          <Pagination page={page} totalPages={data?.totalPages ?? 0} />
        </>
      )}
    </Page>
  );
}
