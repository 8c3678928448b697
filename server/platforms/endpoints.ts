import type { Endpoints, PlatformsMode } from './types';

type LiveHost = 'www.googleapis.com' | 'open.tiktokapis.com' | 'graph.facebook.com';

/**
 * Live mode talks to the real hosts; sandbox mode to their mirrors under `/sandbox/<host>` of
 * this server. Nothing else differs between the modes.
 */
export function platformEndpoints(mode: PlatformsMode, sandboxOrigin: string): Endpoints {
  const sandbox = `${sandboxOrigin.replace(/\/$/, '')}/sandbox`;
  const base = (host: LiveHost) => (mode === 'live' ? `https://${host}` : `${sandbox}/${host}`);
  return {
    'www.googleapis.com': base('www.googleapis.com'),
    'open.tiktokapis.com': base('open.tiktokapis.com'),
    'graph.facebook.com': base('graph.facebook.com'),
    sandbox: mode === 'sandbox' ? sandbox : null,
  };
}
