import dns from 'node:dns/promises';
import net from 'node:net';
import { t } from '../messages';

/** Whether the platform calls go to the real hosts or to the sandbox's mirrors of them. */
export type PlatformsMode = 'sandbox' | 'live';

/**
 * Where live profiles' proxies may point. A proxy is a server-side request on the operator's
 * behalf, so in live mode it must be a public address: loopback, private, link-local (cloud
 * metadata lives there), carrier-grade NAT and reserved ranges are refused unless
 * PROXY_ALLOW_PRIVATE=1. The sandbox's own proxy is on loopback, so sandbox mode allows it.
 */
export interface ProxyPolicy {
  mode: PlatformsMode;
  allowPrivate: boolean;
}

const nonPublic = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
  // The IPv6 forms that stand for one IPv4 address are judged by that address (OWASP's SSRF
  // cheat sheet): IPv4-mapped ::ffff:a.b.c.d, and NAT64's well-known prefix, 64:ff9b::a.b.c.d,
  // which a DNS64 resolver answers for every IPv4-only name on an IPv6-only network.
  nonPublic.addSubnet(`::ffff:${network}`, 96 + prefix, 'ipv6');
  nonPublic.addSubnet(`64:ff9b::${network}`, 96 + prefix, 'ipv6');
}
for (const [network, prefix] of [
  // IPv4-compatible ::a.b.c.d (deprecated by RFC 4291), with :: and ::1 in it.
  ['::', 96],
  // IPv4-translated ::ffff:0:a.b.c.d (SIIT, RFC 2765).
  ['::ffff:0:0:0', 96],
  // NAT64 for a local network (RFC 8215): which IPv4 it reaches is the network's own choice.
  ['64:ff9b:1::', 48],
  ['100::', 64],
  // Teredo and 6to4 tunnel to an IPv4 address through relays anyone may run; no proxy needs them.
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is one a live proxy or webhook may not reach. */
export function isNonPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  return nonPublic.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A proxy the policy refuses; the message is the operator's, without addresses or ports. */
export class ProxyRefusedError extends Error {
  constructor() {
    super(t.platform.proxyNotPublic);
  }
}

const policyApplies = (policy: ProxyPolicy) => policy.mode === 'live' && !policy.allowPrivate;

/** At save time: a proxy given as a non-public IP address is refused at once (names are checked at each call). */
export function refuseNonPublicProxyAddress(proxy: URL, policy: ProxyPolicy): void {
  const host = proxy.hostname.replace(/^\[|\]$/g, '');
  if (policyApplies(policy) && net.isIP(host) !== 0 && isNonPublicAddress(host)) throw new ProxyRefusedError();
}

/**
 * At each call: the proxy URL to connect to, with its name resolved now and every answer
 * checked, and the connection then made to that checked address, so a name that changes its
 * answers (DNS rebinding) cannot lead the call elsewhere. HTTPS proxies keep their name for
 * TLS; their answers are checked, but resolved again by the connection.
 */
export async function checkedProxyUrl(proxy: URL, policy: ProxyPolicy): Promise<URL> {
  if (!policyApplies(policy)) return proxy;
  const host = proxy.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) !== 0) {
    if (isNonPublicAddress(host)) throw new ProxyRefusedError();
    return proxy;
  }
  const answers = await dns.lookup(host, { all: true, verbatim: true });
  if (answers.length === 0 || answers.some((answer) => isNonPublicAddress(answer.address))) throw new ProxyRefusedError();
  if (proxy.protocol === 'https:') return proxy;
  const pinned = new URL(proxy.href);
  pinned.hostname = answers[0]!.family === 6 ? `[${answers[0]!.address}]` : answers[0]!.address;
  return pinned;
}
