import http from 'node:http';
import type { AddressInfo } from 'node:net';
import dns from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { t } from '../../server/messages';
import { PlatformNetworkError } from '../../server/net/http';
import { checkedProxyUrl, isNonPublicAddress, ProxyRefusedError } from '../../server/net/proxy-policy';
import { startLoopbackProxy, type LoopbackProxy } from '../../server/sandbox/loopback-proxy';
import { buildLiveApp, createUser, describeEachDatabase, testNetwork } from './helpers';
import { emptyAccount } from './backoffice-fixtures';

const sandboxPolicy = { mode: 'sandbox' as const, allowPrivate: false };
const livePolicy = { mode: 'live' as const, allowPrivate: false };

describe('which proxy addresses are public', () => {
  it('refuses loopback, private, link-local, metadata, CGNAT and reserved ranges, in IPv4 and IPv6', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      'not-an-address',
    ]) {
      expect(isNonPublicAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.63.255.255', '2001:4860:4860::8888']) {
      expect(isNonPublicAddress(address), address).toBe(false);
    }
  });

  it('judges the IPv6 forms that stand for one IPv4 address by it, and refuses those that tunnel to one', () => {
    const refused = {
      'IPv4-mapped ::ffff:0:0/96': ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '0:0:0:0:0:ffff:a00:1'],
      'IPv4-compatible ::/96': ['::127.0.0.1', '::7f00:1', '::8.8.8.8', '::a9fe:a9fe'],
      'IPv4-translated ::ffff:0:0:0/96': ['::ffff:0:127.0.0.1', '::ffff:0:808:808'],
      'NAT64 64:ff9b::/96': ['64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b::c0a8:1', '64:ff9b::6440:1'],
      'local NAT64 64:ff9b:1::/48': ['64:ff9b:1::7f00:1', '64:ff9b:1::808:808'],
      '6to4 2002::/16': ['2002:7f00:1::1', '2002:a9fe:a9fe::', '2002:808:808::1'],
      'Teredo 2001::/32': ['2001:0:4136:e378:8000:63bf:80ff:fffe', '2001::7f00:1', '2001:0:808:808::'],
    };
    for (const [form, addresses] of Object.entries(refused)) {
      for (const address of addresses) expect(isNonPublicAddress(address), `${form}: ${address}`).toBe(true);
    }
    // A public IPv4 address behind the mapped or NAT64 prefix is as public as the address itself.
    for (const address of ['::ffff:8.8.8.8', '::ffff:101:101', '64:ff9b::8.8.8.8', '64:ff9b::101:101']) {
      expect(isNonPublicAddress(address), address).toBe(false);
    }
  });
});

describe('the proxy policy at each platform call', () => {
  let proxy: LoopbackProxy;
  let target: http.Server;
  let targetUrl: string;
  beforeAll(async () => {
    proxy = await startLoopbackProxy();
    target = http.createServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await proxy?.close();
    await new Promise((resolve) => target?.close(resolve));
  });
  const refusal = (proxyUrl: string, policy: typeof livePolicy | typeof sandboxPolicy = livePolicy) =>
    testNetwork(policy)
      .fetch(proxyUrl, 'http://example.invalid/')
      .catch((error) => error);

  it('refuses a loopback or metadata proxy in live mode without connecting, in Ukrainian and without ports', async () => {
    proxy.traffic.length = 0;
    for (const proxyUrl of [proxy.url, '169.254.169.254:80', 'http://[::1]:3128', 'socks5://10.0.0.5:1080']) {
      const error = await refusal(proxyUrl);
      expect(error).toBeInstanceOf(PlatformNetworkError);
      expect(error.message).toBe(t.platform.proxyNotPublic);
    }
    expect(proxy.traffic).toEqual([]);
  });

  it('checks the DNS answers of a proxy given by name when it connects', async () => {
    const error = await refusal(`http://localhost:${new URL(proxy.url).port}`);
    expect(error.message).toBe(t.platform.proxyNotPublic);
    expect(proxy.traffic).toEqual([]);
  });

  it('lets loopback proxies through in sandbox mode, and in live mode with PROXY_ALLOW_PRIVATE=1', async () => {
    for (const policy of [sandboxPolicy, { mode: 'live' as const, allowPrivate: true }]) {
      proxy.traffic.length = 0;
      const response = await testNetwork(policy).fetch(proxy.url, targetUrl);
      expect(await response.text()).toBe('ok');
      expect(proxy.traffic.map(({ url }) => url)).toEqual([targetUrl]);
    }
  });

  it('connects to the address it checked, and refuses a name with any non-public answer', async () => {
    const lookup = vi.spyOn(dns, 'lookup');
    try {
      lookup.mockResolvedValueOnce([{ address: '8.8.4.4', family: 4 }] as never);
      expect((await checkedProxyUrl(new URL('http://user:pw@proxy.example:3128'), livePolicy)).href).toBe('http://user:pw@8.8.4.4:3128/');
      lookup.mockResolvedValueOnce([
        { address: '8.8.4.4', family: 4 },
        { address: '169.254.169.254', family: 4 },
      ] as never);
      await expect(checkedProxyUrl(new URL('socks5://proxy.example:1080'), livePolicy)).rejects.toBeInstanceOf(ProxyRefusedError);
    } finally {
      lookup.mockRestore();
    }
  });

  it('says only "proxy unreachable" when the proxy does not answer, naming no port', async () => {
    const error = await refusal('127.0.0.1:1', sandboxPolicy);
    expect(error.message).toBe(t.platform.proxyUnreachable);
  });
});

describeEachDatabase('the proxy policy when a profile is saved', (env) => {
  it('refuses a profile whose proxy is a non-public address in live mode', async () => {
    const live = await buildLiveApp(env());
    try {
      const user = await createUser(env(), 'operator');
      const save = (proxy: string) =>
        live.inject({ method: 'POST', url: '/api/accounts', headers: user.headers, payload: { ...emptyAccount, proxy } });
      for (const proxy of ['127.0.0.1:3001', '169.254.169.254:80', 'http://user:pw@192.168.0.10:8080']) {
        const refused = await save(proxy);
        expect(refused.statusCode, proxy).toBe(400);
        expect(refused.json().message).toBe(t.platform.proxyNotPublic);
      }
      expect((await save('8.8.8.8:3128')).statusCode).toBe(201);
    } finally {
      await live.close();
    }
  });
});
