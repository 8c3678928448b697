import { forwardRef, type TextareaHTMLAttributes } from 'react';
import { FieldFrame, useFieldIds } from './field';
import fieldStyles from './text-field.module.css';
import styles from './text-area-field.module.css';

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
}

/** TextField's multi-line twin, for descriptions. */
export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(function TextAreaField(
  { label, error, id, rows = 4, ...props },
  ref,
) {
  const { inputId, errorId, aria } = useFieldIds(id, error);
  return (
    <FieldFrame label={label} inputId={inputId} errorId={errorId} error={error}>
      <textarea
        ref={ref}
        id={inputId}
        rows={rows}
        className={`${fieldStyles.input} ${styles.textarea} ${error ? fieldStyles.invalid : ''}`}
        {...aria}
        {...props}
      />
    </FieldFrame>
  );
});
