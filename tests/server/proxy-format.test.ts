import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatProxy, normaliseProxy, parseProxy, proxySchemes, type ProxyParts } from '../../src/lib/proxy';
import { proxyOfAccount } from '../../server/auth/secrets';
import { t } from '../../server/messages';
import { createUser, describeEachDatabase } from './helpers';
import { emptyAccount, type TestUser } from './backoffice-fixtures';

/** The host as the URL standard writes it, or null when it names none. */
function standardHost(host: string): string | null {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}

const host = fc
  .oneof(
    fc.ipV4(),
    fc.ipV6().map((address) => `[${address}]`),
    fc.domain(),
  )
  .filter((typed) => standardHost(typed) !== null);
const port = fc.integer({ min: 1, max: 65535 });
/** A user or password as a URL carries it: anything printable, percent-encoded where needed. */
const credential = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((text) => !/\p{Cc}/u.test(text));
/** As `host:port:user:password` carries it: no separator of that or the URL form, no whitespace. */
const plainCredential = fc.string({ minLength: 1, maxLength: 12 }).filter((text) => !/[:@\s]/.test(text));

const withLogin = (login: fc.Arbitrary<string>) =>
  fc.oneof(
    fc.constant({ user: '', password: '' }),
    fc.record({ user: login, password: fc.constant('') }),
    fc.record({ user: login, password: login }),
  );

const parts = fc.record({
  scheme: fc.constantFrom(...proxySchemes),
  host,
  port,
  login: withLogin(credential),
});

const encoded = (user: string, password: string) =>
  user ? `${encodeURIComponent(user)}${password ? `:${encodeURIComponent(password)}` : ''}@` : '';

/** The parts a text must parse to: the host as the URL standard writes it. */
const expected = (scheme: ProxyParts['scheme'], typedHost: string, typedPort: number, user: string, password: string): ProxyParts => ({
  scheme,
  host: standardHost(typedHost)!,
  port: typedPort,
  user,
  password,
});

describe('the proxy formats people paste', () => {
  it('reads the formats of the issue, each to one URL', () => {
    const cases: [string, string][] = [
      ['user:pass@127.0.0.1:3589', 'http://user:pass@127.0.0.1:3589'],
      ['127.0.0.1:3589', 'http://127.0.0.1:3589'],
      ['10.0.0.2:3128:user:pass', 'http://user:pass@10.0.0.2:3128'],
      ['http://user:pass@127.0.0.1:3589', 'http://user:pass@127.0.0.1:3589'],
      ['HTTPS://Proxy.Example:8443/', 'https://proxy.example:8443'],
      ['socks5://u%40x:p%3Aw@10.0.0.1:1080', 'socks5://u%40x:p%3Aw@10.0.0.1:1080'],
      ['socks5h://buyer@proxy.example:1080', 'socks5h://buyer@proxy.example:1080'],
      ['[2001:db8::1]:8080:user:pass', 'http://user:pass@[2001:db8::1]:8080'],
      ['http://h:80', 'http://h:80'],
      ['  203.0.113.5:3128  ', 'http://203.0.113.5:3128'],
      ['проксі.укр:8080', 'http://xn--j1ahceh0k.xn--j1amh:8080'],
    ];
    for (const [typed, url] of cases) expect(normaliseProxy(typed), typed).toBe(url);
  });

  it('refuses everything else rather than read it some other way', () => {
    for (const typed of [
      '',
      '127.0.0.1',
      '127.0.0.1:99999',
      '127.0.0.1:0',
      '127.0.0.1:65536',
      '127.0.0.1:080',
      '127.0.0.1:port',
      'ftp://proxy.example:21',
      'socks4://proxy.example:1080',
      'socks://proxy.example:1080',
      'http://proxy.example',
      'http://proxy.example:8080/path',
      'http://proxy.example:8080?x=1',
      'http://proxy.example:8080#x',
      'http://:pass@proxy.example:8080',
      'http://user:@proxy.example:8080',
      'http://us%zzer@proxy.example:8080',
      'http://u%00:p@proxy.example:8080',
      'host:1:user',
      'host:1:user:pass:more',
      'host:1::pass',
      'host:1:user:',
      'user:pass@host',
      'user:pass@host:1:2',
      'host :1',
      'host:1:user:pa ss',
      '2001:db8::1:8080',
      '[2001:db8::1]',
      '[not-v6]:80',
      '999.1.1.1:80',
      '.host:80',
      'a..b:80',
      'host\\x:80',
    ]) {
      expect(parseProxy(typed), typed).toBeNull();
    }
  });

  it('reads every format back to every part it was written with: scheme, user, password, host and port', () => {
    fc.assert(
      fc.property(parts, ({ scheme, host: typedHost, port: typedPort, login: { user, password } }) => {
        const want = expected(scheme, typedHost, typedPort, user, password);
        const url = `${scheme}://${encoded(user, password)}${typedHost}:${typedPort}`;
        expect(parseProxy(url)).toEqual(want);
        expect(parseProxy(`${scheme.toUpperCase()}://${encoded(user, password)}${typedHost}:${typedPort}/`)).toEqual(want);
        expect(parseProxy(formatProxy(want))).toEqual(want);
        if (scheme === 'http') expect(parseProxy(`${encoded(user, password)}${typedHost}:${typedPort}`)).toEqual(want);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(host, port, withLogin(plainCredential), (typedHost, typedPort, { user, password }) => {
        const colons = user && password ? `${typedHost}:${typedPort}:${user}:${password}` : `${typedHost}:${typedPort}`;
        const want = expected('http', typedHost, typedPort, user && password ? user : '', user && password ? password : '');
        expect(parseProxy(colons)).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  /** Texts near the formats: valid proxies cut, joined, doubled or sprinkled with their own separators. */
  const nearProxy = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.string({ unit: fc.constantFrom(...'ab1:@/[]%.-_ 9'.split('')), maxLength: 30 }),
    fc
      .tuple(parts, fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), fc.string({ maxLength: 4 }))
      .map(([{ scheme, host: typedHost, port: typedPort, login }, from, to, insert]) => {
        const url = `${scheme}://${encoded(login.user, login.password)}${typedHost}:${typedPort}`;
        return url.slice(0, from) + insert + url.slice(to);
      }),
  );

  it('normalises every text it takes to a URL it takes again unchanged, keeping every part', () => {
    fc.assert(
      fc.property(nearProxy, (typed) => {
        const normalised = normaliseProxy(typed);
        if (normalised === null) return;
        expect(normaliseProxy(normalised)).toBe(normalised);
        expect(parseProxy(normalised)).toEqual(parseProxy(typed));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses junk: a port outside 1–65535, a scheme of another kind, a part too many or too few', () => {
    const valid = parts.map(({ scheme, host: typedHost, port: typedPort, login }) => ({
      scheme,
      host: typedHost,
      port: typedPort,
      login: encoded(login.user, login.password),
    }));
    const badPort = fc.oneof(
      fc.constant('0'),
      fc.integer({ min: 65536, max: 10_000_000 }).map(String),
      fc.integer({ min: 1, max: 65535 }).map((number) => `0${number}`),
      fc.stringMatching(/^[^0-9]{1,4}$/).filter((text) => !text.includes('@')),
      fc.constant(''),
    );
    const otherScheme = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/).filter((name) => !(proxySchemes as readonly string[]).includes(name));
    fc.assert(
      fc.property(valid, badPort, otherScheme, fc.stringMatching(/^[/?#][a-z]{0,5}$/), (proxy, wrongPort, scheme, tail) => {
        expect(parseProxy(`${proxy.scheme}://${proxy.login}${proxy.host}:${wrongPort}`)).toBeNull();
        expect(parseProxy(`${proxy.host}:${wrongPort}`)).toBeNull();
        expect(parseProxy(`${scheme}://${proxy.login}${proxy.host}:${proxy.port}`)).toBeNull();
        expect(parseProxy(`${proxy.scheme}://${proxy.login}${proxy.host}:${proxy.port}${tail === '/' ? '//' : tail}`)).toBeNull();
        expect(parseProxy(`${proxy.host}:${proxy.port}:user`)).toBeNull();
        expect(parseProxy(`${proxy.host}:${proxy.port}:user:pass:more`)).toBeNull();
        expect(parseProxy(`${proxy.scheme}://${proxy.login}${proxy.host}`)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});

describeEachDatabase('a profile’s proxy as saved', (env) => {
  const save = (user: TestUser, proxy: string) =>
    env().app.inject({ method: 'POST', url: '/api/accounts', headers: user.headers, payload: { ...emptyAccount, proxy } });

  it('stores each accepted format as one URL, shows it back without its password and connects with it whole', async () => {
    const formats: [string, string, string][] = [
      ['user:pass@127.0.0.1:3589', 'http://user@127.0.0.1:3589', 'http://user:pass@127.0.0.1:3589'],
      ['127.0.0.1:3589', 'http://127.0.0.1:3589', 'http://127.0.0.1:3589'],
      ['203.0.113.6:8000:buyer:colon-pass', 'http://buyer@203.0.113.6:8000', 'http://buyer:colon-pass@203.0.113.6:8000'],
      ['http://buyer:url-pass@proxy.example:3128/', 'http://buyer@proxy.example:3128', 'http://buyer:url-pass@proxy.example:3128'],
      ['https://proxy.example:8443', 'https://proxy.example:8443', 'https://proxy.example:8443'],
      ['socks5://u%40x:p%3Aw@10.0.0.1:1080', 'socks5://u%40x@10.0.0.1:1080', 'socks5://u%40x:p%3Aw@10.0.0.1:1080'],
      ['socks5h://buyer:h-pass@Proxy.Example:1080', 'socks5h://buyer@proxy.example:1080', 'socks5h://buyer:h-pass@proxy.example:1080'],
      ['[::1]:8080:buyer:v6-pass', 'http://buyer@[::1]:8080', 'http://buyer:v6-pass@[::1]:8080'],
    ];
    const user = await createUser(env(), 'operator');
    for (const [typed, shown, connected] of formats) {
      const response = await save(user, typed);
      expect(response.statusCode, `${typed}: ${response.body}`).toBe(201);
      const account = response.json();
      expect(account.proxy, typed).toBe(shown);
      expect(account.savedSecrets.proxyPassword, typed).toBe(shown !== connected);
      const detail = await env().app.inject({ url: `/api/accounts/${account.id}`, headers: user.headers });
      expect(detail.json().proxy, typed).toBe(shown);
      const { rows } = await env().db.sql('SELECT id, proxy, proxy_password AS "proxyPassword" FROM accounts WHERE id = $1', [account.id]);
      expect(proxyOfAccount(env().tokenSettings.keys.secretsAtRest, rows[0] as never), typed).toBe(connected);
    }
  });

  it('refuses every other text with a Ukrainian 400 that names the formats, the port range included', async () => {
    const user = await createUser(env(), 'operator');
    for (const typed of [
      '127.0.0.1:99999',
      '127.0.0.1:0',
      'ftp://proxy.example:21',
      'host:1:user',
      'http://proxy.example',
      'user:pass@host',
    ]) {
      const response = await save(user, typed);
      expect([response.statusCode, response.json().message], typed).toEqual([400, [t.accountForm.proxyInvalid]]);
      expect(response.body).not.toMatch(/Invalid URL/);
    }
    const { rows } = await env().db.sql('SELECT count(*)::int AS n FROM accounts', []);
    expect(rows[0].n).toBe(0);
  });
});
