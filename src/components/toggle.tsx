import { forwardRef, useId, type InputHTMLAttributes } from 'react';
import styles from './toggle.module.css';

interface ToggleProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: string;
}

/** An on/off switch: a checkbox underneath, so forms and screen readers treat it as one. */
export const Toggle = forwardRef<HTMLInputElement, ToggleProps>(function Toggle({ label, id, ...props }, ref) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  return (
    <label htmlFor={inputId} className={styles.toggle}>
      <span className={styles.switch}>
        <input ref={ref} id={inputId} type="checkbox" role="switch" className={styles.input} {...props} />
        <span className={styles.track} aria-hidden>
          <span className={styles.thumb} />
        </span>
      </span>
      <span className={styles.label}>{label}</span>
    </label>
  );
});
