import type { AccountStatus, VideoStatus } from '../lib/contract';
import { t } from '../lib/i18n';
import styles from './status-badge.module.css';

const tone: Record<VideoStatus | AccountStatus, string> = {
  loading: styles.warning,
  publication: styles.info,
  success: styles.success,
  error: styles.danger,
  noactive: styles.neutral,
};

interface StatusBadgeProps {
  status: VideoStatus | AccountStatus;
  /** Videos and profiles name `success` differently: 'Опубліковано' versus 'Активний'. */
  kind: 'video' | 'account';
}

export function StatusBadge({ status, kind }: StatusBadgeProps) {
  const labels = kind === 'video' ? t.videoStatus : t.accountStatus;
  return <span className={`${styles.badge} ${tone[status] ?? styles.neutral}`}>{labels[status] ?? status}</span>;
}
