import { forwardRef, type InputHTMLAttributes, type ReactNode } from 'react';
import { FieldFrame, useFieldIds } from './field';
import styles from './text-field.module.css';

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
}

/** A labelled input with its hint and its validation message underneath. */
export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField({ label, error, hint, id, ...props }, ref) {
  const { inputId, errorId, hintId, aria } = useFieldIds(id, error, hint !== undefined);
  return (
    <FieldFrame label={label} inputId={inputId} errorId={errorId} error={error} hint={hint} hintId={hintId}>
      <input ref={ref} id={inputId} className={`${styles.input} ${error ? styles.invalid : ''}`} {...aria} {...props} />
    </FieldFrame>
  );
});
