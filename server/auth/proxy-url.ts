import { t } from '../messages';

/**
 * Accepts `http://`, `https://` and `socks5://` URLs with optional credentials, and the common
 * `host:port` / `host:port:user:password` notation, read as an HTTP proxy.
 */
export function parseProxy(proxy: string): URL {
  const trimmed = proxy.trim();
  if (/^[a-z0-9]+:\/\//i.test(trimmed)) {
    const url = new URL(trimmed);
    if (!['http:', 'https:', 'socks5:', 'socks:'].includes(url.protocol)) {
      throw new Error(`${t.platform.proxyUnsupported}: ${url.protocol}`);
    }
    return url;
  }
  const [host, port, user, password] = trimmed.split(':');
  if (!host || !port) throw new Error(`${t.platform.proxyUnsupported}: ${trimmed}`);
  const url = new URL(`http://${host}:${port}`);
  if (user) url.username = encodeURIComponent(user);
  if (password) url.password = encodeURIComponent(password);
  return url;
}
