import dns from 'node:dns';
import net from 'node:net';
import { Agent, fetch, type Dispatcher } from 'undici';
import type { PlatformsMode } from '../platforms/types';
import { isNonPublicAddress } from '../net/proxy-policy';

/**
 * Where a user's webhook may point, and the one way a delivery leaves. A webhook is a request the
 * server makes on a user's word, so in live mode it goes only to public addresses over HTTPS, and
 * the address is checked where the connection is made: a name that answers a public address when
 * saved and a private one later (DNS rebinding) is refused at that connection. PROXY_ALLOW_PRIVATE
 * does not widen it: it is about profiles' proxies. Sandbox mode takes any http(s) address, so a
 * receiver on this machine (n8n beside the server, a test) works.
 */

/** Why a URL cannot be a webhook: a word the route turns into the operator's message. */
export type WebhookUrlRefusal = 'malformed' | 'https' | 'address';

export class WebhookUrlError extends Error {
  constructor(readonly reason: WebhookUrlRefusal) {
    super(`webhook URL refused: ${reason}`);
  }
}

const strict = (mode: PlatformsMode) => mode === 'live';

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * At save time: the URL as it will be called, or the reason it cannot be. In live mode a name is
 * resolved now too, so a URL bound for a private network is refused while its owner is there to read why.
 */
export async function checkedWebhookUrl(raw: string, mode: PlatformsMode): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError('malformed');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.hash) {
    throw new WebhookUrlError('malformed');
  }
  if (!strict(mode)) return url.href;
  if (url.protocol !== 'https:') throw new WebhookUrlError('https');
  const host = hostOf(url);
  if (net.isIP(host) !== 0) {
    if (isNonPublicAddress(host)) throw new WebhookUrlError('address');
    return url.href;
  }
  const answers = await dns.promises.lookup(host, { all: true, verbatim: true }).catch(() => []);
  if (answers.length === 0 || answers.some((answer) => isNonPublicAddress(answer.address))) throw new WebhookUrlError('address');
  return url.href;
}

/** A connection refused by the policy at the moment it was made. */
export class RefusedAddressError extends Error {
  readonly code = 'EADDRREFUSED_BY_POLICY';
}

type LookupCallback = (error: Error | null, address: string | dns.LookupAddress[], family?: number) => void;

/** dns.lookup that answers only public addresses, however the name resolves this time. */
function publicLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback) {
  dns.lookup(hostname, { ...options, all: true, verbatim: true }, (error, answers) => {
    if (error) return callback(error, []);
    if (answers.length === 0 || answers.some((answer) => isNonPublicAddress(answer.address))) {
      return callback(new RefusedAddressError(`${hostname} resolves to an address webhooks may not reach`), []);
    }
    if (options.all) return callback(null, answers);
    callback(null, answers[0]!.address, answers[0]!.family);
  });
}

/** The limits of one delivery: a receiver that hangs costs one attempt, not a worker. */
const timeouts = { connectMs: 5_000, headersMs: 10_000, bodyMs: 10_000, totalMs: 15_000 };

const dispatchers: Record<'strict' | 'open', Dispatcher> = {
  strict: new Agent({
    connect: { timeout: timeouts.connectMs, lookup: publicLookup as never },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  }),
  open: new Agent({ connect: { timeout: timeouts.connectMs }, headersTimeout: timeouts.headersMs, bodyTimeout: timeouts.bodyMs }),
};

/** How a delivery went: an answer (its status and the start of its body), or why none came. */
export type DeliveryOutcome = { status: number; answer: string } | { error: 'timeout' | 'network' | 'address' };

const answerKept = 500;

/** The first bytes of an answer as text; the rest is not read, however much the receiver sends. */
async function startOf(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < answerKept) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // What arrived before the answer broke off is still the start of it.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  // Postgres text takes no NUL; a character cut in half at the end is dropped.
  return Buffer.concat(chunks)
    .subarray(0, answerKept)
    .toString('utf8')
    .replaceAll('\u0000', '')
    .replace(/\uFFFD$/, '');
}

function isTimeout(error: unknown): boolean {
  for (let link = error; link instanceof Error; link = link.cause) {
    const code = (link as { code?: string }).code ?? '';
    if (link.name === 'TimeoutError' || (code.startsWith('UND_ERR_') && code.endsWith('_TIMEOUT'))) return true;
  }
  return false;
}

function isRefusedAddress(error: unknown): boolean {
  for (let link = error; link instanceof Error; link = link.cause) if (link instanceof RefusedAddressError) return true;
  return false;
}

/**
 * POSTs one delivery. Redirects are not followed: a 3xx is an answer like any other outside 2xx,
 * and following one could lead past the check the first address passed.
 */
export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  mode: PlatformsMode,
): Promise<DeliveryOutcome> {
  if (strict(mode)) {
    const host = hostOf(new URL(url));
    if (new URL(url).protocol !== 'https:' || (net.isIP(host) !== 0 && isNonPublicAddress(host))) return { error: 'address' };
  }
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'ShortsOffice-Webhooks/1', ...headers },
      body,
      redirect: 'manual',
      dispatcher: dispatchers[strict(mode) ? 'strict' : 'open'],
      signal: AbortSignal.timeout(timeouts.totalMs),
    });
    return { status: response.status, answer: await startOf(response.body as ReadableStream<Uint8Array> | null) };
  } catch (error) {
    if (isRefusedAddress(error)) return { error: 'address' };
    return { error: isTimeout(error) ? 'timeout' : 'network' };
  }
}
