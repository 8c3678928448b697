import { useEffect, type RefObject } from 'react';

/** While `active`, calls `onOutside` for a mouse press anywhere outside `root`: how our popups close. */
export function useOutsideClick(root: RefObject<HTMLElement | null>, active: boolean, onOutside: () => void): void {
  useEffect(() => {
    if (!active) return;
    const closeOnOutsideClick = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) onOutside();
    };
    document.addEventListener('mousedown', closeOnOutsideClick);
    return () => document.removeEventListener('mousedown', closeOnOutsideClick);
  }, [root, active, onOutside]);
}
