import type { DownloadedFile } from './api';

/** How long the browser may take to start reading a saved file before its object URL is let go. */
const objectUrlLifeMs = 60_000;

/** Hands a fetched file to the browser's downloads, as a link with `download` would. */
export function saveFile({ blob, name }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Firefox reads the file after the click returns: revoking the URL at once could cut it off.
  setTimeout(() => URL.revokeObjectURL(url), objectUrlLifeMs);
}
