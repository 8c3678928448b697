import { useEffect } from 'react';
import * as t from '../lib/i18n';

/**
 * Asks before unsaved input is lost: the browser's own prompt on reload or closing the tab
 * (beforeunload), and a confirm on a click of an in-app link. The click is caught on the document
 * in the capture phase, before the link's router handler; the browser's Back button is not asked.
 */
export function useLeavePrompt(unsaved: boolean) {
  useEffect(() => {
    if (!unsaved) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || link.target === '_blank' || link.origin !== window.location.origin) return;
      if (link.pathname === window.location.pathname || window.confirm(t.screens.leaveUnsaved)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [unsaved]);
}
