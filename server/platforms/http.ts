import { fetch, Pool, ProxyAgent, type Dispatcher, type RequestInit, type Response } from 'undici';
import { socksDispatcher } from 'fetch-socks';
import { t } from '../messages';
import { parseProxy } from '../auth/proxy-url';
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

/**
 * Says whose fault a network failure is, so the operator knows whether to fix the profile's
 * proxy or wait for the platform. The message names no address, port or socket error, so it
 * cannot be used to probe which ports answer; the cause stays on the error for the logs.
 */
export function describeNetworkFailure(proxy: string, error: unknown): string {
  const chain = causeChain(error);
  const text = chain.map((link) => link.message).join(' | ');
  const url = parseProxy(proxy);
  const port = url.port || (url.protocol.startsWith('socks') ? '1080' : url.protocol === 'https:' ? '443' : '80');
  const address = `${url.hostname}:${port}`;
  if (/Proxy response \(407\)/.test(text) || /authentication failed/i.test(text)) {
    return t.platform.proxyAuthFailed;
  }
  const aliases = url.hostname === 'localhost' ? [address, `127.0.0.1:${port}`, `::1:${port}`] : [address];
  const unreachable =
    aliases.some((alias) => text.includes(alias)) ||
    (chain.some((link) => link.code === 'ENOTFOUND' || link.code === 'EAI_AGAIN') && text.includes(url.hostname));
  if (unreachable) return t.platform.proxyUnreachable;
  return t.platform.networkFailed;
}

/** A failure while reading an answer's body, in the same words as one before it. */
export function networkError(proxy: string, error: unknown): PlatformNetworkError {
  return isTimeout(error)
    ? new PlatformTimeoutError(t.platform.timedOut, error)
    : new PlatformNetworkError(describeNetworkFailure(proxy, error), error);
}

function dispatcherFor(dispatchers: Map<string, Dispatcher>, timeouts: PlatformTimeouts, proxy: string): Dispatcher {
  let dispatcher = dispatchers.get(proxy);
  if (dispatcher) return dispatcher;
  const url = parseProxy(proxy);
  const limits = { headersTimeout: timeouts.headersMs, bodyTimeout: timeouts.idleMs };
  if (url.protocol === 'socks5:' || url.protocol === 'socks:') {
    dispatcher = socksDispatcher(
      {
        type: 5,
        host: url.hostname,
        port: Number(url.port || 1080),
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
  dispatchers.set(proxy, dispatcher);
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
  const proxyUrl = parseProxy(proxy);
  // The proxy as connected to: in live mode its name is replaced by the address the policy checked.
  let connected = proxy;
  try {
    const checked = await checkedProxyUrl(proxyUrl, policy);
    if (checked !== proxyUrl) connected = checked.href;
  } catch (error) {
    throw new PlatformNetworkError(error instanceof ProxyRefusedError ? error.message : describeNetworkFailure(proxy, error), error);
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

export interface NetworkSettings {
  timeouts: PlatformTimeouts;
  /** PLATFORMS and PROXY_ALLOW_PRIVATE: where profiles' proxies may point. */
  policy: ProxyPolicy;
}

/** The way out to the platforms of one process (or one test): its limits, its proxy policy and its open proxy connections. */
export interface PlatformNetwork {
  readonly policy: ProxyPolicy;
  fetch(proxy: string, url: string, init?: RequestInit): Promise<Response>;
}

export function platformNetwork(settings: NetworkSettings): PlatformNetwork {
  // One dispatcher per proxy keeps its connections open between calls.
  const dispatchers = new Map<string, Dispatcher>();
  return { policy: settings.policy, fetch: (proxy, url, init) => platformFetch(dispatchers, settings, proxy, url, init) };
}
