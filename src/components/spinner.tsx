import * as t from '../lib/i18n';
import styles from './spinner.module.css';

export function Spinner({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <div className={fullScreen ? styles.fullScreen : styles.inline} role="status" aria-label={t.app.loading}>
      {/* While a signed-in page's chunks arrive, a phone on a slow line sees the app's name rather than a blank screen. */}
      {fullScreen && <span className={styles.name}>{t.app.logo}</span>}
      <span className={styles.circle} />
    </div>
  );
}
