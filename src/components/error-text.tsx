import { t } from '../lib/i18n';
import { splitError } from '../lib/platform-error';
import styles from './error-text.module.css';

/** An error as the operator reads it: the Ukrainian summary, the platform's code in a smaller line under it. */
export function ErrorText({ text, className }: { text: string; className?: string }) {
  const { summary, detail } = splitError(text);
  return (
    <span className={className}>
      {summary}
      {detail && <span className={styles.detail}>{t.screens.errorDetail(detail)}</span>}
    </span>
  );
}
