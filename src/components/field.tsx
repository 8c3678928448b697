import { useId, type ReactNode } from 'react';
import styles from './text-field.module.css';

/** The ids and ARIA wiring that tie a control to its label and its validation message. */
export function useFieldIds(id: string | undefined, error: string | undefined) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  return { inputId, errorId, aria: { 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined } };
}

interface FieldFrameProps {
  label: string;
  inputId: string;
  errorId: string;
  error?: string;
  children: ReactNode;
}

/** A label above its control, and the validation message underneath. */
export function FieldFrame({ label, inputId, errorId, error, children }: FieldFrameProps) {
  return (
    <div className={styles.field}>
      <label htmlFor={inputId} className={styles.label}>
        {label}
      </label>
      {children}
      {error && (
        <span id={errorId} className={styles.error} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
