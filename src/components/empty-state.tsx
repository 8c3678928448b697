import { Link } from 'wouter';
import * as t from '../lib/i18n';
import styles from './empty-state.module.css';

/** What an empty list asks of the operator first, and where to do it. */
export interface EmptyHint {
  text: string;
  link: string;
  href: string;
}

/** SPEC's 'Нічого не знайдено', then the first thing to do, linked. */
export function EmptyState({ hint }: { hint?: EmptyHint }) {
  return (
    <div className={styles.empty}>
      <p className={styles.title}>{t.app.nothingFound}</p>
      {hint && (
        <p className={styles.hint}>
          {hint.text} <Link href={hint.href}>{hint.link}</Link>
        </p>
      )}
    </div>
  );
}
