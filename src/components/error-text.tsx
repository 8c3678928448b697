import * as t from '../lib/i18n';
import { splitError } from '../lib/platform-error';
import styles from './error-text.module.css';

/**
 * An error as the operator reads it: the Ukrainian summary, and the platform's own answer (its code,
 * often English) behind 'Подробиці' for whoever needs it. `summaryOnly` where the text sits inside a
 * link, which may hold nothing else to press.
 */
export function ErrorText({ text, className, summaryOnly = false }: { text: string; className?: string; summaryOnly?: boolean }) {
  const { summary, detail } = splitError(text);
  return (
    <span className={className}>
      {summary}
      {detail && !summaryOnly && (
        <details className={styles.details}>
          <summary>{t.screens.errorDetails}</summary>
          <span className={styles.detail}>{t.screens.errorDetail(detail)}</span>
        </details>
      )}
    </span>
  );
}
