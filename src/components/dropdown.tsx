import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
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
  /**
   * 'menu': a menu of actions, its items marked role="menuitem" (arrow keys, Home, End, type-ahead);
   * 'dialog' (the default): a panel of any content, named by the trigger's label.
   */
  kind?: 'menu' | 'dialog';
  children: (close: () => void) => ReactNode;
}

const dialogFocusables = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])';

/**
 * A button with a popup: the WAI-ARIA menu button pattern for a menu, a non-modal dialog for a
 * panel. The focus moves into the popup as it opens; Escape closes it and gives the focus back to
 * the button; a click outside it or the focus leaving it closes it too.
 *
 * Hand-written on purpose: the sidebar, which holds the two dropdowns, is fetched with the first
 * signed-in screen, and a menu library would weigh on every first load.
 */
export function Dropdown({
  trigger,
  triggerLabel,
  triggerClassName,
  align = 'left',
  panelClassName,
  kind = 'dialog',
  children,
}: DropdownProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  // Which item takes the focus as the menu opens: ArrowUp on the button opens it on the last one.
  const focusOnOpen = useRef<'first' | 'last'>('first');
  const panelId = useId();

  const close = useCallback(() => setOpen(false), []);
  useOutsideClick(root, open, close);

  const items = () => [...(panel.current?.querySelectorAll<HTMLElement>(kind === 'menu' ? '[role="menuitem"]' : dialogFocusables) ?? [])];

  useEffect(() => {
    if (!open) return;
    const all = items();
    const target = (focusOnOpen.current === 'last' ? all.at(-1) : all[0]) ?? panel.current;
    target?.focus();
    // Only the opening moves the focus; `items` reads the panel as it is then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const openWith = (focus: 'first' | 'last') => {
    focusOnOpen.current = focus;
    setOpen(true);
  };

  const closeToButton = () => {
    setOpen(false);
    button.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (kind !== 'menu' || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp')) return;
    event.preventDefault();
    openWith(event.key === 'ArrowUp' ? 'last' : 'first');
  };

  const onPanelKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      closeToButton();
      return;
    }
    if (kind !== 'menu') return;
    if (event.key === 'Tab') {
      // From the button, the Tab goes on to what follows the menu (or, with Shift, precedes it).
      button.current?.focus();
      setOpen(false);
      return;
    }
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const next = (() => {
      switch (event.key) {
        case 'ArrowDown':
          return all[(at + 1) % all.length];
        case 'ArrowUp':
          return all[(at - 1 + all.length) % all.length];
        case 'Home':
          return all[0];
        case 'End':
          return all.at(-1);
        default: {
          // Type-ahead: the next item whose text starts with the letter typed.
          if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return undefined;
          const letter = event.key.toLocaleLowerCase('uk');
          const after = [...all.slice(at + 1), ...all.slice(0, at + 1)];
          return after.find((item) => item.textContent?.trim().toLocaleLowerCase('uk').startsWith(letter));
        }
      }
    })();
    if (next) {
      event.preventDefault();
      next.focus();
    }
  };

  return (
    <div
      className={styles.root}
      ref={root}
      onBlur={(event) => {
        // Only a focus that lands elsewhere: a removed button (say, after its action) leaves none.
        const to = event.relatedTarget as Node | null;
        if (open && to && !root.current?.contains(to)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className={triggerClassName}
        aria-label={triggerLabel}
        aria-haspopup={kind}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => (open ? setOpen(false) : openWith('first'))}
        onKeyDown={onButtonKeyDown}
      >
        {trigger}
      </button>
      {open && (
        <div
          ref={panel}
          id={panelId}
          className={`${styles.panel} ${styles[align]} ${panelClassName ?? ''}`}
          role={kind}
          aria-label={triggerLabel}
          tabIndex={-1}
          onKeyDown={onPanelKeyDown}
        >
          {children(() => setOpen(false))}
        </div>
      )}
    </div>
  );
}
