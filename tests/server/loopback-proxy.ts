import http from 'node:http';
import net from 'node:net';

export interface LoopbackProxy {
  /** As a profile's proxy field holds it. */
  url: string;
  /** Every `host:port` a client tunnelled to, in order. */
  tunnels: string[];
  close(): Promise<void>;
}

/** A minimal HTTP CONNECT proxy on 127.0.0.1, to prove that a call left through a profile's proxy. */
export async function startLoopbackProxy(): Promise<LoopbackProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_request, response) => response.writeHead(405).end());
  server.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = request.url ?? '';
    tunnels.push(target);
    const [host, port] = target.split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
