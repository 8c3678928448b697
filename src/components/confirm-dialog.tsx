import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import * as t from '../lib/i18n';
import { Button } from './button';
import styles from './confirm-dialog.module.css';

interface ConfirmDialogProps {
  /** The question, naming what goes: 'Видалити профіль #3?'. */
  question: string;
  /** Exactly what goes, shown above the consequence (the calendar's post: its video, platform, profile and time). */
  details?: ReactNode;
  /** What goes with it, or what stays. */
  consequence: string;
  /** The confirm button's words, naming the action. */
  action: string;
  /** The other button's words, where 'Скасувати' would read as the action itself (cancelling a publication). */
  dismiss?: string;
  /** A second, wider action beside the confirm button, named by its own words ('Скасувати всі платформи відео'). */
  alternative?: { action: string; onPick: () => void };
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The one confirmation of every destructive action. Focus starts on 'Скасувати' (or `dismiss`) so Enter never
 * deletes by accident, stays inside the dialog, and Escape or a click outside cancels.
 */
export function ConfirmDialog({
  question,
  details,
  consequence,
  action,
  dismiss = t.confirm.cancel,
  alternative,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const titleId = useId();
  const textId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  // Read while rendering, before 'Скасувати' takes the focus: where the focus goes back to.
  const [opener] = useState(() => document.activeElement as HTMLElement | null);
  useEffect(() => {
    dialog.current?.querySelector('button')?.focus();
    return () => opener?.focus();
  }, [opener]);

  const keepFocusInside = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.key === 'Escape') {
      onCancel();
      return;
    }
    if (event.key !== 'Tab' || !dialog.current) return;
    const buttons = [...dialog.current.querySelectorAll('button')];
    const first = buttons[0]!;
    const last = buttons[buttons.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    // A click on the backdrop cancels, as Escape does from the keyboard.
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions, jsx-a11y/click-events-have-key-events
    <div
      className={styles.backdrop}
      onKeyDown={keepFocusInside}
      onClick={(event) => {
        // React passes a portal's clicks up to the row that holds the delete icon, which would open the row.
        event.stopPropagation();
        if (event.target === event.currentTarget) onCancel();
      }}
    >
      <div ref={dialog} role="alertdialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={textId} className={styles.dialog}>
        <h2 id={titleId} className={styles.title}>
          {question}
        </h2>
        <div id={textId}>
          {details}
          <p className={styles.text}>{consequence}</p>
        </div>
        <div className={styles.buttons}>
          <Button variant="secondary" onClick={onCancel}>
            {dismiss}
          </Button>
          {alternative && (
            <Button variant="secondary" onClick={alternative.onPick}>
              {alternative.action}
            </Button>
          )}
          <Button variant="danger" onClick={onConfirm}>
            {action}
          </Button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
