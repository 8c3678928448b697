import { useEffect, useRef, useState, type MouseEvent } from 'react';
import * as t from '../lib/i18n';
import styles from './skip-link.module.css';

/**
 * The first Tab stop: past the menu to the element with `targetId`. Shown only while focused, as a
 * row of its own at the top of the page that moves the menu and the page down, so it never lies
 * over a control (it used to cover the bell and take its click).
 */
export function SkipLink({ targetId }: { targetId: string }) {
  const [shown, setShown] = useState(false);
  const pressed = useRef(false);

  useEffect(() => {
    if (!shown) return;
    const press = () => {
      pressed.current = true;
    };
    const release = () => {
      pressed.current = false;
    };
    document.addEventListener('pointerdown', press, true);
    document.addEventListener('pointerup', release, true);
    return () => {
      document.removeEventListener('pointerdown', press, true);
      document.removeEventListener('pointerup', release, true);
      pressed.current = false;
    };
  }, [shown]);

  // A press elsewhere takes the focus before its click: the row stays until the click has landed,
  // or the control under the pointer would move up before the release and the click be lost.
  const hide = () => {
    if (!pressed.current) {
      setShown(false);
      return;
    }
    // The click follows the release in the same task.
    document.addEventListener('pointerup', () => setTimeout(() => setShown(false)), { once: true });
  };

  // Moves the focus itself rather than setting the URL's hash, which the router would keep.
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    document.getElementById(targetId)?.focus();
  };
  return (
    <a
      href={`#${targetId}`}
      className={`${styles.skipLink} ${shown ? styles.shown : ''}`}
      onClick={skip}
      onFocus={() => setShown(true)}
      onBlur={hide}
    >
      {t.app.skipToContent}
    </a>
  );
}
