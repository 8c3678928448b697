import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import toast from 'react-hot-toast';
import * as t from '../../lib/i18n';
import { platformIds } from '../../lib/platforms';
import { connectionParams } from '../../lib/youtube-connection';

/** Tells the operator how a connection (YouTube, TikTok, Instagram) ended when its OAuth callback lands here, then tidies the URL. */
export function useYouTubeResult(onConnected?: () => void) {
  const search = useSearch();
  const [path, navigate] = useLocation();
  useEffect(() => {
    const params = new URLSearchParams(search);
    for (const platform of platformIds) {
      const error = params.get(connectionParams[platform].error);
      const connected = params.get(connectionParams[platform].connected) === 'connected';
      if (!error && !connected) continue;
      // One id, so a repeated effect updates the toast instead of showing it twice.
      const success = t.connections.platformConnected(t.platform.names[platform]);
      if (error) toast.error(error, { id: `${platform}-connection` });
      else toast.success(success, { id: `${platform}-connection` });
      if (connected) onConnected?.();
      navigate(path, { replace: true });
      return;
    }
  }, [search, path, navigate, onConnected]);
}
