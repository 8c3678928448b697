import { useEffect, useRef, useState, type ReactNode } from 'react';
import styles from './dropdown.module.css';

interface DropdownProps {
  /** The trigger's content; the trigger toggles the panel. */
  trigger: ReactNode;
  triggerLabel: string;
  triggerClassName?: string;
  align?: 'left' | 'right' | 'up';
  children: (close: () => void) => ReactNode;
}

/** A button with a panel that closes on a click anywhere outside it. */
export function Dropdown({ trigger, triggerLabel, triggerClassName, align = 'left', children }: DropdownProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const closeOnOutsideClick = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', closeOnOutsideClick);
    return () => document.removeEventListener('mousedown', closeOnOutsideClick);
  }, [open]);

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
        <div className={`${styles.panel} ${styles[align]}`} role="menu">
          {children(() => setOpen(false))}
        </div>
      )}
    </div>
  );
}
