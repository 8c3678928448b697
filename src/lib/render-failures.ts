import * as t from './i18n';

/**
 * Why a render failed, as creation_requests and videos store it (render_failure and
 * render_failure_detail, migration 0035): a kind the code decides on, and for 'failed' the words
 * of whatever failed (ffmpeg's last line, the store's error). The sentence is made only where the
 * API answers, so rewording the catalog changes no stored state.
 */
export type RenderFailure = 'disk_full' | 'failed' | 'interrupted' | 'backgrounds_gone';

/** The sentence the API gives a request's or a video's render failure; null when it has none. */
export function renderFailureText(failure: RenderFailure | null, detail: string | null): string | null {
  switch (failure) {
    case null:
      return null;
    case 'disk_full':
      return t.media.diskFull;
    case 'interrupted':
      return t.media.renderInterrupted;
    case 'backgrounds_gone':
      return t.media.backgroundsGone;
    case 'failed':
      return detail === null ? t.media.renderFailed : `${t.media.renderFailed}: ${detail}`;
  }
}
