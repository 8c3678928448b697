import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import styles from './dialog.module.css';

interface DialogProps {
  title: string;
  /** A line under the title saying what the dialog does. */
  description?: string;
  onClose: () => void;
  children: ReactNode;
  /** For a dialog holding a table (an imported plan's preview): wider than a form's. */
  wide?: boolean;
}

const focusable = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])';

/**
 * A modal dialog holding a form: focus starts on its first field, stays inside, goes back to
 * what opened it, and Escape or a click outside closes it (the confirmation of a destructive
 * action is ConfirmDialog instead).
 */
export function Dialog({ title, description, onClose, children, wide = false }: DialogProps) {
  const titleId = useId();
  const textId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  // Read while rendering, before the first field takes the focus: where the focus goes back to.
  const [opener] = useState(() => document.activeElement as HTMLElement | null);
  useEffect(() => {
    dialog.current?.querySelector<HTMLElement>(focusable)?.focus();
    return () => opener?.focus();
  }, [opener]);

  const keepFocusInside = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !dialog.current) return;
    const controls = [...dialog.current.querySelectorAll<HTMLElement>(focusable)];
    const first = controls[0];
    const last = controls[controls.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  return createPortal(
    // A click on the backdrop closes, as Escape does from the keyboard.
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <div
      className={styles.backdrop}
      onKeyDown={keepFocusInside}
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? textId : undefined}
        className={wide ? `${styles.dialog} ${styles.wide}` : styles.dialog}
      >
        <h2 id={titleId} className={styles.title}>
          {title}
        </h2>
        {description && (
          <p id={textId} className={styles.text}>
            {description}
          </p>
        )}
        {children}
      </div>
    </div>,
    document.body,
  );
}
