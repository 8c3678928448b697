import type { Paged, VideoSummary } from '../lib/contract';
import { formatDate } from '../lib/kyiv-time';
import * as t from '../lib/i18n';
import { videoErrorText } from '../lib/publishing';
import { DataTable, type Column } from './data-table';
import { ErrorText } from './error-text';
import { Pagination } from './pagination';
import { PostBadges } from './post-badges';
import { ProfileLink } from './profile-link';
import { StatusBadge } from './status-badge';
import { VideoLinks } from './video-links';
import { VideoStats } from './video-stats';
import styles from './video-table.module.css';

interface VideoTableProps {
  data: Paged<VideoSummary> | undefined;
  loading: boolean;
  onPageChange: (page: number) => void;
  /** Adds a column linking each video to the profile it was published through. */
  showAccount?: boolean;
}

/** The status label, each platform's post under it, and what went wrong when one failed. */
export function VideoStatus({ video }: { video: Pick<VideoSummary, 'status' | 'error' | 'errorInstagram' | 'posts'> }) {
  return (
    <span className={styles.status}>
      <StatusBadge status={video.status} kind="video" />
      <PostBadges posts={video.posts} />
      {video.status === 'error' && <ErrorText className={styles.error} text={videoErrorText(video)} />}
    </span>
  );
}

/** Video rows: id, date, the platforms' links when present, the figures once published, and the status. */
export function VideoTable({ data, loading, onPageChange, showAccount = false }: VideoTableProps) {
  const columns: Column<VideoSummary>[] = [
    { header: t.videoTable.columnId, cell: (video) => video.id, width: '80px' },
    { header: t.videoTable.columnDate, cell: (video) => formatDate(video.date), width: '160px' },
    ...(showAccount
      ? [
          {
            header: t.videoTable.columnAccount,
            cell: (video: VideoSummary) => <ProfileLink account={video.account} />,
            width: '160px',
          },
        ]
      : []),
    {
      header: t.videoTable.columnLinks,
      cell: (video) => <VideoLinks video={video} />,
    },
    { header: t.videoTable.columnStats, cell: (video) => (video.status === 'success' ? <VideoStats video={video} /> : null) },
    { header: t.videoTable.columnStatus, cell: (video) => <VideoStatus video={video} />, width: '180px' },
  ];
  return (
    <>
      <DataTable columns={columns} rows={data?.data} rowKey={(video) => video.id} loading={loading} />
      {data && <Pagination page={data.page} totalPages={data.totalPages} onPageChange={onPageChange} />}
    </>
  );
}
