import { forwardRef, type InputHTMLAttributes } from 'react';
import { FieldFrame, useFieldIds } from './field';
import styles from './text-field.module.css';

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
}

/** A labelled input with its validation message underneath. */
export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField({ label, error, id, ...props }, ref) {
  const { inputId, errorId, aria } = useFieldIds(id, error);
  return (
    <FieldFrame label={label} inputId={inputId} errorId={errorId} error={error}>
      <input ref={ref} id={inputId} className={`${styles.input} ${error ? styles.invalid : ''}`} {...aria} {...props} />
    </FieldFrame>
  );
});
