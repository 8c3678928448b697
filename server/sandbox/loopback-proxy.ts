import http from 'node:http';
import net from 'node:net';
import { redactUrl } from '../net/redact-url';

export interface ProxiedRequest {
  method: string;
  /** Absolute URL of the request, credentials redacted; `host:port` for a TLS tunnel, whose requests stay unreadable. */
  url: string;
  via: 'http' | 'connect' | 'socks5';
}

export interface LoopbackProxyOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** When set, clients must present these credentials (Basic for HTTP, RFC 1929 for SOCKS5). */
  username?: string;
  password?: string;
}

export interface LoopbackProxy {
  port: number;
  /** What an operator enters as the profile's proxy. */
  url: string;
  traffic: ProxiedRequest[];
  close(): Promise<void>;
}

const hopByHop = new Set([
  'connection',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

function endToEnd(headers: http.IncomingHttpHeaders | http.IncomingMessage['headers']) {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop.has(name.toLowerCase())));
}

/**
 * A forward proxy on the loopback interface for sandbox mode: it speaks HTTP (absolute-URI
 * requests and CONNECT) and SOCKS5 on one port, so a new user can give a profile
 * `http://127.0.0.1:<port>` or `socks5://127.0.0.1:<port>` and publish offline. Plain HTTP
 * inside a tunnel is read and forwarded request by request, so `traffic` lists every request a
 * profile made through it; TLS tunnels are piped untouched and listed as `CONNECT host:port`.
 */
export async function startLoopbackProxy(options: LoopbackProxyOptions = {}): Promise<LoopbackProxy> {
  const traffic: ProxiedRequest[] = [];
  const tunnels = new WeakMap<net.Socket, { target: string; via: 'connect' | 'socks5' }>();
  const sockets = new Set<net.Socket>();
  const expected = options.username ? `Basic ${Buffer.from(`${options.username}:${options.password ?? ''}`).toString('base64')}` : null;

  const forward = (request: http.IncomingMessage, response: http.ServerResponse, target: URL) => {
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port || 80,
        method: request.method,
        path: `${target.pathname}${target.search}`,
        headers: endToEnd(request.headers),
        agent: false,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
        answer.pipe(response);
        // A platform that hangs up mid-answer must look the same to the client behind the proxy.
        answer.on('aborted', () => response.socket?.destroy());
        answer.on('error', () => response.socket?.destroy());
      },
    );
    upstream.on('error', () => response.socket?.destroy());
    request.on('aborted', () => upstream.destroy());
    request.pipe(upstream);
  };

  const server = http.createServer((request, response) => {
    const tunnel = tunnels.get(request.socket);
    if (tunnel) {
      const url = new URL(request.url ?? '/', `http://${tunnel.target}`);
      traffic.push({ method: request.method ?? 'GET', url: redactUrl(url.toString()), via: tunnel.via });
      return forward(request, response, url);
    }
    if (!/^http:\/\//i.test(request.url ?? '')) {
      response.writeHead(400).end('This is a proxy: send absolute-URI requests or CONNECT.');
      return;
    }
    if (expected && request.headers['proxy-authorization'] !== expected) {
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="sandbox"' }).end();
      return;
    }
    const url = new URL(request.url!);
    traffic.push({ method: request.method ?? 'GET', url: redactUrl(url.toString()), via: 'http' });
    forward(request, response, url);
  });

  /** Reads plain HTTP inside the tunnel, or pipes TLS it cannot read. */
  const openTunnel = (socket: net.Socket, target: string, via: 'connect' | 'socks5') => {
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      if (first[0] === 0x16) {
        traffic.push({ method: 'CONNECT', url: target, via });
        const [host, port] = splitHostPort(target);
        const upstream = net.connect(port, host, () => {
          socket.pipe(upstream);
          upstream.pipe(socket);
          socket.resume();
        });
        upstream.on('error', () => socket.destroy());
        socket.on('error', () => upstream.destroy());
        socket.on('close', () => upstream.destroy());
        return;
      }
      tunnels.set(socket, { target, via });
      server.emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
    socket.resume();
  };

  server.on('connect', (request: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    if (expected && request.headers['proxy-authorization'] !== expected) {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="sandbox"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    openTunnel(socket, request.url ?? '', 'connect');
  });

  const socks = async (socket: net.Socket) => {
    const read = reader(socket);
    const [, methodCount] = await read.take(2);
    const methods = [...(await read.take(methodCount))];
    const method = expected ? 0x02 : 0x00;
    if (!methods.includes(method)) {
      socket.end(Buffer.from([0x05, 0xff]));
      return;
    }
    socket.write(Buffer.from([0x05, method]));
    if (method === 0x02) {
      const [, userLength] = await read.take(2);
      const user = (await read.take(userLength)).toString();
      const [passwordLength] = await read.take(1);
      const password = (await read.take(passwordLength)).toString();
      const accepted = user === options.username && password === (options.password ?? '');
      socket.write(Buffer.from([0x01, accepted ? 0x00 : 0x01]));
      if (!accepted) return void socket.end();
    }
    const [, command, , addressType] = await read.take(4);
    let host: string;
    if (addressType === 0x01) host = [...(await read.take(4))].join('.');
    else if (addressType === 0x03) host = (await read.take((await read.take(1))[0])).toString();
    else if (addressType === 0x04) host = `[${(await read.take(16)).toString('hex').match(/.{4}/g)!.join(':')}]`;
    else return void socket.end(Buffer.from([0x05, 0x08, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
    const port = (await read.take(2)).readUInt16BE(0);
    if (command !== 0x01) return void socket.end(Buffer.from([0x05, 0x07, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
    socket.write(Buffer.from([0x05, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
    read.release();
    openTunnel(socket, `${host}:${port}`, 'socks5');
  };

  const listener = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      if (first[0] === 0x05) {
        socks(socket).catch(() => socket.destroy());
      } else {
        server.emit('connection', socket);
      }
      process.nextTick(() => socket.resume());
    });
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (listener.address() as net.AddressInfo).port;
  return {
    port,
    url: `http://${host}:${port}`,
    traffic,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        listener.close(() => resolve());
      }),
  };
}

function splitHostPort(target: string): [string, number] {
  const match = /^\[?([^\]]+)\]?:(\d+)$/.exec(target);
  return match ? [match[1], Number(match[2])] : [target, 443];
}

/** Byte-exact reads for the SOCKS5 handshake; leftover bytes go back to the socket after it. */
function reader(socket: net.Socket) {
  let buffer = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  const onData = (data: Buffer) => {
    buffer = Buffer.concat([buffer, data]);
    wake?.();
  };
  const onEnd = () => wake?.();
  socket.on('data', onData);
  socket.on('end', onEnd);
  return {
    async take(count: number): Promise<Buffer> {
      while (buffer.length < count) {
        if (socket.readableEnded || socket.destroyed) throw new Error('SOCKS5 client hung up');
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      const out = buffer.subarray(0, count);
      buffer = buffer.subarray(count);
      return out;
    },
    release() {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.pause();
      if (buffer.length > 0) socket.unshift(buffer);
    },
  };
}
