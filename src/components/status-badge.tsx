import type { AccountStatus, VideoStatus } from '../lib/contract';
import * as t from '../lib/i18n';
import tones from './badge-tones.module.css';
import styles from './status-badge.module.css';

const tone: Record<VideoStatus | AccountStatus, string> = {
  loading: tones.warning,
  publication: tones.info,
  success: tones.success,
  error: tones.danger,
  noactive: tones.neutral,
  cancelled: tones.neutral,
};

interface StatusBadgeProps {
  status: VideoStatus | AccountStatus;
  /**
   * Videos, profiles and creation requests name `success` differently: 'Опубліковано', 'Активний',
   * and 'Готово' (rendered, ready to publish).
   */
  kind: 'video' | 'account' | 'request';
  /** Its words may take two lines, where a table's column is narrow ('Очікує підключення'). */
  wraps?: boolean;
}

const labelSets: Record<StatusBadgeProps['kind'], Partial<Record<VideoStatus | AccountStatus, string>>> = {
  video: t.videoStatus,
  account: t.accountStatus,
  request: t.requestStatus,
};

export function StatusBadge({ status, kind, wraps = false }: StatusBadgeProps) {
  return (
    <span className={`${styles.badge} ${tone[status] ?? tones.neutral} ${wraps ? styles.wraps : ''}`}>
      {labelSets[kind][status] ?? status}
    </span>
  );
}
