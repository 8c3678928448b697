import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useOutsideClick } from './use-outside-click';
import styles from './dropdown.module.css';

interface DropdownProps {
  /** The trigger's content; the trigger toggles the panel. */
  trigger: ReactNode;
  triggerLabel: string;
  triggerClassName?: string;
  align?: 'left' | 'right' | 'up';
  /** Extra styles of the panel, e.g. its placement on a phone. */
  panelClassName?: string;
  children: (close: () => void) => ReactNode;
}

/** A button with a panel that closes on a click anywhere outside it. */
export function Dropdown({ trigger, triggerLabel, triggerClassName, align = 'left', panelClassName, children }: DropdownProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useOutsideClick(root, open, close);

  return (
    <div className={styles.root} ref={root}>
      <button
        type="button"
        className={triggerClassName}
        aria-label={triggerLabel}
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        {trigger}
      </button>
      {open && (
        <div className={`${styles.panel} ${styles[align]} ${panelClassName ?? ''}`} role="menu">
          {children(() => setOpen(false))}
        </div>
      )}
    </div>
  );
}
