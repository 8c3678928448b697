import { useId, type ReactNode } from 'react';
import styles from './text-field.module.css';

/** The ids and ARIA wiring that tie a control to its label, its hint and its validation message. */
export function useFieldIds(id: string | undefined, error: string | undefined, hasHint = false) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [hasHint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return { inputId, errorId, hintId, aria: { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy } };
}

interface FieldFrameProps {
  label: string;
  inputId: string;
  errorId: string;
  error?: string;
  /** What the field expects, under it; `hintId` names it for the control's aria-describedby. */
  hint?: ReactNode;
  hintId?: string;
  children: ReactNode;
}

/** A label above its control, then its hint and the validation message underneath. */
export function FieldFrame({ label, inputId, errorId, error, hint, hintId, children }: FieldFrameProps) {
  return (
    <div className={styles.field}>
      <label htmlFor={inputId} className={styles.label}>
        {label}
      </label>
      {children}
      {hint && (
        <span id={hintId} className={styles.hint}>
          {hint}
        </span>
      )}
      {error && (
        <span id={errorId} className={styles.error} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
