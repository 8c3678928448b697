import * as t from '../lib/i18n';
import styles from './spinner.module.css';

export function Spinner({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <div className={fullScreen ? styles.fullScreen : styles.inline} role="status" aria-label={t.app.loading}>
      <span className={styles.circle} />
    </div>
  );
}
