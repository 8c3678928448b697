import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import toast from 'react-hot-toast';
import { t } from '../../lib/i18n';
import { youtubeConnectionParams } from '../../lib/youtube-connection';

/** Tells the operator how a YouTube connection ended when the OAuth callback lands here, then tidies the URL. */
export function useYouTubeResult(onConnected?: () => void) {
  const search = useSearch();
  const [path, navigate] = useLocation();
  useEffect(() => {
    const params = new URLSearchParams(search);
    const error = params.get(youtubeConnectionParams.error);
    const connected = params.get(youtubeConnectionParams.connected) === 'connected';
    if (!error && !connected) return;
    // One id, so a repeated effect updates the toast instead of showing it twice.
    if (error) toast.error(error, { id: 'youtube-connection' });
    else toast.success(t.accountForm.youtubeConnected, { id: 'youtube-connection' });
    if (connected) onConnected?.();
    navigate(path, { replace: true });
  }, [search, path, navigate, onConnected]);
}
