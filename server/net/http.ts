import type { Duplex } from 'node:stream';
import { Client, fetch, Pool, ProxyAgent, type Dispatcher, type RequestInit, type Response } from 'undici';
import { socksConnector, socksDispatcher } from 'fetch-socks';
import { t } from '../messages';
import { proxyUrl } from '../auth/proxy-url';
import { checkedProxyUrl, ProxyRefusedError, type ProxyPolicy } from './proxy-policy';

/**
 * Every call a profile makes to a platform leaves through that profile's proxy, so a platform
 * sees one stable address per profile. This is the only way connectors reach the network.
 */

/** A network failure on the way to the platform: the proxy or the platform did not answer. */
export class PlatformNetworkError extends Error {
  constructor(
    message: string,
    readonly cause: unknown,
    /** The failure's kind a post stores (src/lib/post-failures.ts). */
    readonly failure: 'network' | 'proxy_unreachable' | 'proxy_auth' | 'proxy_not_public' | 'timed_out',
  ) {
    super(message);
  }
}

/** Limits on every platform call, so a silent proxy or platform costs only its own post. */
export interface PlatformTimeouts {
  connectMs: number;
  /** Until the answer's headers arrive, once the request is sent. */
  headersMs: number;
  /** The longest pause between two pieces of an answer. */
  idleMs: number;
  /** A whole request, sending and receiving included. */
  totalMs: number;
}

/** A platform call that outlived one of its limits: the proxy or the platform stopped answering. */
export class PlatformTimeoutError extends PlatformNetworkError {}

const timeoutCodes = ['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'];

function isTimeout(error: unknown): boolean {
  return causeChain(error).some((link) => link.name === 'TimeoutError' || timeoutCodes.includes(link.code ?? ''));
}

function causeChain(error: unknown): (Error & { code?: string })[] {
  const chain: (Error & { code?: string })[] = [];
  for (let current = error; current instanceof Error && chain.length < 8; current = current.cause) chain.push(current);
  return chain;
}

/** Whose fault a network failure is: the proxy refused its credentials, the proxy did not answer, or either of the two. */
export type NetworkFailure = 'proxy-auth' | 'proxy-unreachable' | 'network';

/** Reads a network failure's cause chain for whose fault it is (describeNetworkFailure words it). */
export function networkFailureOf(proxy: string | URL, error: unknown): NetworkFailure {
  const chain = causeChain(error);
  const text = chain.map((link) => link.message).join(' | ');
  const url = typeof proxy === 'string' ? proxyUrl(proxy) : proxy;
  // Only HTTP's default ports go unwritten in a URL; a SOCKS proxy's is always there (src/lib/proxy.ts).
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const address = `${url.hostname}:${port}`;
  if (/Proxy response \(407\)/.test(text) || /authentication failed/i.test(text)) return 'proxy-auth';
  const aliases = url.hostname === 'localhost' ? [address, `127.0.0.1:${port}`, `::1:${port}`] : [address];
  const unreachable =
    aliases.some((alias) => text.includes(alias)) ||
    (chain.some((link) => link.code === 'ENOTFOUND' || link.code === 'EAI_AGAIN') && text.includes(url.hostname));
  return unreachable ? 'proxy-unreachable' : 'network';
}

/**
 * Says whose fault a network failure is, so the operator knows whether to fix the profile's
 * proxy or wait for the platform. The message names no address, port or socket error, so it
 * cannot be used to probe which ports answer; the cause stays on the error for the logs.
 */
export function describeNetworkFailure(proxy: string | URL, error: unknown): string {
  const words: Record<NetworkFailure, string> = {
    'proxy-auth': t.platform.proxyAuthFailed,
    'proxy-unreachable': t.platform.proxyUnreachable,
    network: t.platform.networkFailed,
  };
  return words[networkFailureOf(proxy, error)];
}

const failureKinds = { 'proxy-auth': 'proxy_auth', 'proxy-unreachable': 'proxy_unreachable', network: 'network' } as const;

/** A network failure, worded and kinded by whose fault it is. */
const failedNetwork = (proxy: string | URL, error: unknown) =>
  new PlatformNetworkError(describeNetworkFailure(proxy, error), error, failureKinds[networkFailureOf(proxy, error)]);

/** A failure while reading an answer's body, in the same words as one before it. */
export function networkError(proxy: string | URL, error: unknown): PlatformNetworkError {
  return isTimeout(error) ? new PlatformTimeoutError(t.platform.timedOut, error, 'timed_out') : failedNetwork(proxy, error);
}

/** socks5h asks the proxy to resolve the platform's name; the SOCKS client here always sends the name, so both connect alike. */
const isSocks = (url: URL) => url.protocol === 'socks5:' || url.protocol === 'socks5h:';

function dispatcherFor(dispatchers: Map<string, Dispatcher>, timeouts: PlatformTimeouts, url: URL): Dispatcher {
  let dispatcher = dispatchers.get(url.href);
  if (dispatcher) return dispatcher;
  const limits = { headersTimeout: timeouts.headersMs, bodyTimeout: timeouts.idleMs };
  if (isSocks(url)) {
    dispatcher = socksDispatcher(
      {
        type: 5,
        host: url.hostname,
        port: Number(url.port),
        userId: url.username ? decodeURIComponent(url.username) : undefined,
        password: url.password ? decodeURIComponent(url.password) : undefined,
      },
      { ...limits, connect: { timeout: timeouts.connectMs } },
    );
  } else {
    const token = url.username
      ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
      : undefined;
    dispatcher = new ProxyAgent({
      uri: `${url.protocol}//${url.host}`,
      token,
      ...limits,
      proxyTls: { timeout: timeouts.connectMs },
      requestTls: { timeout: timeouts.connectMs },
      // The proxy's answer to CONNECT is part of connecting: a proxy that accepts and stays silent times out here.
      clientFactory: (origin, options) =>
        new Pool(origin, { ...options, headersTimeout: timeouts.connectMs, bodyTimeout: timeouts.connectMs }),
    });
  }
  dispatchers.set(url.href, dispatcher);
  return dispatcher;
}

/**
 * fetch through the profile's proxy, within the connect, headers, idle and total limits; network
 * failures become a PlatformNetworkError (PlatformTimeoutError for a limit) in Ukrainian. The total
 * limit also covers reading the answer's body, which the caller does with the returned response.
 */
async function platformFetch(
  dispatchers: Map<string, Dispatcher>,
  { timeouts, policy }: NetworkSettings,
  proxy: string,
  url: string,
  init: RequestInit = {},
): Promise<Response> {
  const typed = proxyUrl(proxy);
  // The proxy as connected to: in live mode its name is replaced by the address the policy checked.
  let connected: URL;
  try {
    connected = await checkedProxyUrl(typed, policy);
  } catch (error) {
    throw error instanceof ProxyRefusedError
      ? new PlatformNetworkError(error.message, error, 'proxy_not_public')
      : failedNetwork(typed, error);
  }
  const dispatcher = dispatcherFor(dispatchers, timeouts, connected);
  const total = AbortSignal.timeout(timeouts.totalMs);
  const signal = init.signal ? AbortSignal.any([init.signal as AbortSignal, total]) : total;
  try {
    return await fetch(url, { ...init, signal, dispatcher });
  } catch (error) {
    // A caller's abort (a worker shutting down) is not the network's fault and must stay an abort.
    if (init.signal?.aborted) throw error;
    throw networkError(connected, total.aborted ? total.reason : error);
  }
}

/**
 * How a profile's proxy answered a request for a tunnel to a platform's host: `open` (CONNECT
 * answered 200, or SOCKS5 connected), `auth` (it refused the profile's credentials), `unreachable`
 * (no answer within the connect limit, or no such host), `failed` (it answered, but could not
 * reach the platform), `refused` (the proxy policy forbids its address).
 */
export type ProxyAnswer = 'open' | 'auth' | 'unreachable' | 'failed' | 'refused';

/**
 * Asks the profile's proxy for a tunnel to `target` (an origin) and closes it at once: the
 * cheapest proof that the proxy works, sending nothing to the platform. Within the connect limit,
 * under the same proxy policy as every call.
 */
async function openTunnel({ timeouts, policy }: NetworkSettings, proxy: string, target: string): Promise<ProxyAnswer> {
  const destination = new URL(target);
  const port = Number(destination.port || (destination.protocol === 'https:' ? 443 : 80));
  let checked: URL;
  try {
    checked = await checkedProxyUrl(proxyUrl(proxy), policy);
  } catch (error) {
    return error instanceof ProxyRefusedError ? 'refused' : 'unreachable';
  }
  const failureOf = (error: unknown): ProxyAnswer => {
    if (isTimeout(error)) return 'unreachable';
    const failure = networkFailureOf(checked, error);
    return failure === 'proxy-auth' ? 'auth' : failure === 'proxy-unreachable' ? 'unreachable' : 'failed';
  };
  if (isSocks(checked)) {
    const connect = socksConnector(
      {
        type: 5,
        host: checked.hostname,
        port: Number(checked.port),
        userId: checked.username ? decodeURIComponent(checked.username) : undefined,
        password: checked.password ? decodeURIComponent(checked.password) : undefined,
      },
      { timeout: timeouts.connectMs },
    );
    return new Promise((resolve) => {
      // Asked as plain HTTP, so the connector hands back the tunnel without starting TLS in it.
      connect({ protocol: 'http:', hostname: destination.hostname, port: String(port), host: destination.host }, (error, socket) => {
        socket?.destroy();
        resolve(error ? failureOf(error) : 'open');
      });
    });
  }
  const client = new Client(`${checked.protocol}//${checked.host}`, {
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.connectMs,
  });
  const authority = `${destination.hostname}:${port}`;
  const credentials = checked.username
    ? {
        'proxy-authorization': `Basic ${Buffer.from(`${decodeURIComponent(checked.username)}:${decodeURIComponent(checked.password)}`).toString('base64')}`,
      }
    : {};
  try {
    const { statusCode, socket } = await client.connect({
      path: authority,
      headers: { host: authority, ...credentials },
      signal: AbortSignal.timeout(timeouts.connectMs),
    });
    (socket as Duplex).destroy();
    if (statusCode === 200) return 'open';
    return statusCode === 407 ? 'auth' : 'failed';
  } catch (error) {
    return failureOf(error);
  } finally {
    await client.destroy().catch(() => undefined);
  }
}

export interface NetworkSettings {
  timeouts: PlatformTimeouts;
  /** PLATFORMS and PROXY_ALLOW_PRIVATE: where profiles' proxies may point. */
  policy: ProxyPolicy;
}

/** The way out to the platforms of one process (or one test): its limits, its proxy policy and its open proxy connections. */
export interface PlatformNetwork {
  readonly policy: ProxyPolicy;
  fetch(proxy: string, url: string, init?: RequestInit): Promise<Response>;
  /** Whether the proxy opens a tunnel to `target`, a platform's origin (openTunnel). */
  tunnel(proxy: string, target: string): Promise<ProxyAnswer>;
}

export function platformNetwork(settings: NetworkSettings): PlatformNetwork {
  // One dispatcher per proxy keeps its connections open between calls.
  const dispatchers = new Map<string, Dispatcher>();
  return {
    policy: settings.policy,
    fetch: (proxy, url, init) => platformFetch(dispatchers, settings, proxy, url, init),
    tunnel: (proxy, target) => openTunnel(settings, proxy, target),
  };
}
