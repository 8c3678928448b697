import type { ReactNode } from 'react';
import styles from './duplicates-consent.module.css';

interface DuplicatesConsentProps {
  /** What the server found: a note, or a title and the lines it named. */
  children: ReactNode;
  /** The checkbox's words: what ticking it saves. */
  label: string;
  allowed: boolean;
  disabled: boolean;
  onAllow: (allow: boolean) => void;
  /** The form's own placement of the box (the publish form's actions row gives it a whole line). */
  className?: string;
  role?: 'alert';
}

/**
 * Issue 43.5: possible duplicates are refused unless the operator saves them knowingly. The publish
 * form and the plan import ask the same question, so it reads as a warning in both, not a refusal.
 */
export function DuplicatesConsent({ children, label, allowed, disabled, onAllow, className, role }: DuplicatesConsentProps) {
  return (
    <div role={role} className={className ? `${styles.box} ${className}` : styles.box}>
      {children}
      <label className={styles.checkbox}>
        <input type="checkbox" checked={allowed} disabled={disabled} onChange={(event) => onAllow(event.target.checked)} />
        {label}
      </label>
    </div>
  );
}
