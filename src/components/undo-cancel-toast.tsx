import { useEffect, useRef } from 'react';
import toast from 'react-hot-toast';
import { Undo2 } from 'lucide-react';
import * as t from '../lib/i18n';
import styles from './undo-cancel-toast.module.css';

const undoToastId = 'undo-cancel';
const undoButtonId = 'undo-cancel-button';

/** The undo toast's words and button; it takes the focus, as the control that cancelled had it. */
function UndoCancel({ videoId, platform, onUndo }: { videoId: number; platform: string | null; onUndo: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <span className={styles.undo}>
      {platform ? t.calendarPosts.cancelledPost(videoId, platform) : t.postTruth.cancelledVideo(videoId)}
      {/* Never disabled while the undo is sent: a disabled button would drop the focus; the machine takes one undo. */}
      <button
        ref={button}
        id={undoButtonId}
        type="button"
        className={styles.undoButton}
        aria-label={platform ? t.calendarPosts.undoPostOf(videoId, platform) : t.postTruth.undoCancelOf(videoId)}
        onClick={onUndo}
      >
        <Undo2 size={14} aria-hidden />
        {t.postTruth.undoCancel}
      </button>
    </span>
  );
}

/**
 * The toast that puts back a cancelled publication: it lasts as long as the machine offers the undo
 * (`videoId`, null once it does not) and goes with the page. When it goes holding the keyboard, the
 * keyboard goes to `focusAfterId` rather than to the page. `platform` (its name) says that the
 * video's post on that platform alone was cancelled.
 */
export function useUndoCancelToast(videoId: number | null, onUndo: () => void, focusAfterId: string, platform: string | null = null) {
  const undo = useRef(onUndo);
  useEffect(() => {
    undo.current = onUndo;
  });
  useEffect(() => {
    if (videoId === null) return;
    toast(<UndoCancel videoId={videoId} platform={platform} onUndo={() => undo.current()} />, { id: undoToastId, duration: Infinity });
    return () => {
      const hadFocus = document.activeElement?.id === undoButtonId;
      // At once, not faded out: a button being faded out could still take a click or hold the focus.
      toast.remove(undoToastId);
      if (hadFocus) document.getElementById(focusAfterId)?.focus();
    };
  }, [videoId, platform, focusAfterId]);
}
