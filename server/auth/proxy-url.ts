import { t } from '../messages';
import { normaliseProxy } from '../../src/lib/proxy';

/**
 * A profile's proxy as the URL the platform calls go through (src/lib/proxy.ts reads the formats
 * the form takes); a proxy in none of them is refused in the operator's words, never guessed at.
 */
export function proxyUrl(proxy: string): URL {
  const normalised = normaliseProxy(proxy);
  if (normalised === null) throw new Error(t.accountForm.proxyInvalid);
  return new URL(normalised);
}
