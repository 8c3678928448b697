import { Link } from 'wouter';
import type { Paged, VideoSummary } from '../lib/contract';
import { formatDate } from '../lib/dates';
import { t } from '../lib/i18n';
import { DataTable, type Column } from './data-table';
import { Pagination } from './pagination';
import { StatusBadge } from './status-badge';
import styles from './video-table.module.css';

interface VideoTableProps {
  data: Paged<VideoSummary> | undefined;
  loading: boolean;
  onPageChange: (page: number) => void;
  /** Adds a column linking each video to the profile it was published through. */
  showAccount?: boolean;
}

/** Video rows: id, date, the YouTube and Instagram links when present, and the status. */
export function VideoTable({ data, loading, onPageChange, showAccount = false }: VideoTableProps) {
  const columns: Column<VideoSummary>[] = [
    { header: t.videoTable.columnId, cell: (video) => video.id, width: '80px' },
    { header: t.videoTable.columnDate, cell: (video) => formatDate(video.date), width: '160px' },
    ...(showAccount
      ? [
          {
            header: t.videoTable.columnAccount,
            cell: (video: VideoSummary) => (video.account ? <Link href={`/accounts/${video.account.id}`}>#{video.account.id}</Link> : '—'),
            width: '110px',
          },
        ]
      : []),
    {
      header: t.videoTable.columnLinks,
      cell: (video) =>
        video.urlYouTube || video.urlInstagram ? (
          <span className={styles.links}>
            {video.urlYouTube && (
              <a href={video.urlYouTube} target="_blank" rel="noreferrer">
                {t.videoTable.youtube}
              </a>
            )}
            {video.urlInstagram && (
              <a href={video.urlInstagram} target="_blank" rel="noreferrer">
                {t.videoTable.instagram}
              </a>
            )}
          </span>
        ) : (
          '—'
        ),
    },
    { header: t.videoTable.columnStatus, cell: (video) => <StatusBadge status={video.status} kind="video" />, width: '150px' },
  ];
  return (
    <>
      <DataTable columns={columns} rows={data?.data} rowKey={(video) => video.id} loading={loading} />
      {data && <Pagination page={data.page} totalPages={data.totalPages} onPageChange={onPageChange} />}
    </>
  );
}
