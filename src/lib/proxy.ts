/**
 * A profile's proxy, read in the formats proxy sellers print and written back as one URL. The
 * profile form checks it with this and the server reads it with the same code when it saves the
 * profile and at every platform call, so what the form takes is what the server takes.
 *
 * Taken: `scheme://[user[:password]@]host:port` (http, https, socks5, socks5h; user and password
 * percent-encoded, a trailing `/` at most), `user:password@host:port` and `host:port` (HTTP), and
 * `host:port:user:password` (HTTP, user and password as typed). The port is always written, 1 to
 * 65535; an IPv6 host is in brackets. Anything else is refused rather than read some other way.
 */

export const proxySchemes = ['http', 'https', 'socks5', 'socks5h'] as const;
export type ProxyScheme = (typeof proxySchemes)[number];

export interface ProxyParts {
  scheme: ProxyScheme;
  /** As the URL standard writes a host: a name in lower case (IDN as punycode), an IPv4 address, or an IPv6 one in brackets. */
  host: string;
  port: number;
  /** '' when the proxy takes no login. */
  user: string;
  /** '' when none; never without a user. */
  password: string;
}

const schemePrefix = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
const hostName = /^[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*$/u;
const ipv6Host = /^\[[0-9A-Fa-f:.]+\]$/;
const portText = /^[1-9]\d{0,4}$/;
/** Whitespace and control characters: no format has them, and a pasted line break is no password. */
const unprintable = /[\s\p{Cc}]/u;

const isScheme = (name: string): name is ProxyScheme => (proxySchemes as readonly string[]).includes(name);

/** The host as the URL standard writes it ('0x7f.1' is 127.0.0.1, 'Проксі.укр' is punycode), or null when it is none. */
function canonicalHost(host: string): string | null {
  if (!hostName.test(host) && !ipv6Host.test(host)) return null;
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}

function portOf(text: string): number | null {
  const port = Number(text);
  return portText.test(text) && port <= 65535 ? port : null;
}

/** `host:port`, the host an IPv6 address in brackets. */
function hostAndPort(text: string): { host: string; port: number } | null {
  const split = text.startsWith('[') ? text.indexOf(']') + 1 : text.indexOf(':');
  if (split <= 0 || text[split] !== ':') return null;
  const host = canonicalHost(text.slice(0, split));
  const port = portOf(text.slice(split + 1));
  return host === null || port === null ? null : { host, port };
}

/** A percent-encoded user or password as typed, or null when it is broken or hides a control character. */
function decoded(text: string): string | null {
  try {
    const value = decodeURIComponent(text);
    return /\p{Cc}/u.test(value) ? null : value;
  } catch {
    return null;
  }
}

/** `[user[:password]@]host:port` of a URL, the credentials percent-encoded. */
function fromAuthority(scheme: ProxyScheme, authority: string): ProxyParts | null {
  if (/[/?#\\]/.test(authority)) return null;
  const at = authority.lastIndexOf('@');
  const address = hostAndPort(authority.slice(at + 1));
  if (!address) return null;
  if (at < 0) return { scheme, ...address, user: '', password: '' };
  const credentials = authority.slice(0, at);
  const colon = credentials.indexOf(':');
  const user = decoded(colon < 0 ? credentials : credentials.slice(0, colon));
  const password = colon < 0 ? '' : decoded(credentials.slice(colon + 1));
  if (!user || password === null || (colon >= 0 && password === '')) return null;
  return { scheme, ...address, user, password };
}

/** `host:port` or `host:port:user:password`, read as an HTTP proxy. */
function fromColons(text: string): ProxyParts | null {
  const hostEnd = text.startsWith('[') ? text.indexOf(']') + 1 : text.indexOf(':');
  if (hostEnd <= 0) return null;
  const [port = '', ...credentials] = text.slice(hostEnd + 1).split(':');
  const address = hostAndPort(`${text.slice(0, hostEnd)}:${port}`);
  if (!address || text[hostEnd] !== ':') return null;
  if (credentials.length === 0) return { scheme: 'http', ...address, user: '', password: '' };
  const [user, password] = credentials;
  if (credentials.length !== 2 || !user || !password) return null;
  return { scheme: 'http', ...address, user, password };
}

/** The proxy's parts, or null when the text is in none of the formats above. */
export function parseProxy(text: string): ProxyParts | null {
  const typed = text.trim();
  if (typed === '' || unprintable.test(typed)) return null;
  const prefix = schemePrefix.exec(typed);
  if (prefix) {
    const scheme = prefix[1]!.toLowerCase();
    return isScheme(scheme) ? fromAuthority(scheme, typed.slice(prefix[0].length).replace(/\/$/, '')) : null;
  }
  return typed.includes('@') ? fromAuthority('http', typed) : fromColons(typed);
}

/** The one URL a proxy is kept and connected as: `scheme://user:password@host:port`, the credentials percent-encoded. */
export function formatProxy({ scheme, host, port, user, password }: ProxyParts): string {
  const login = user ? `${encodeURIComponent(user)}${password ? `:${encodeURIComponent(password)}` : ''}@` : '';
  return `${scheme}://${login}${host}:${port}`;
}

/** The proxy as a URL, or null when the text is in none of the formats. */
export function normaliseProxy(text: string): string | null {
  const parts = parseProxy(text);
  return parts && formatProxy(parts);
}
