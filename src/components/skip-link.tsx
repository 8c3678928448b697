import type { MouseEvent } from 'react';
import { t } from '../lib/i18n';
import styles from './skip-link.module.css';

/** The first Tab stop: past the menu to the element with `targetId`, shown only while focused. */
export function SkipLink({ targetId }: { targetId: string }) {
  // Moves the focus itself rather than setting the URL's hash, which the router would keep.
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    document.getElementById(targetId)?.focus();
  };
  return (
    <a href={`#${targetId}`} className={styles.skipLink} onClick={skip}>
      {t.app.skipToContent}
    </a>
  );
}
