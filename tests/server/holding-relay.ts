import net from 'node:net';

export interface HoldingRelay {
  /** What a profile gives as its proxy: the relay in front of the real proxy. */
  url: string;
  /** The bytes the relay holds and has not let through yet, per connection still open. */
  held(): number[];
  /** Lets everything held through, and all that comes later. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay to `targetPort` that lets the first `passBytes` a client sends on each connection
 * through and holds the rest until the test releases it (answers flow freely). An upload longer
 * than `passBytes` reaches the platform short of its last bytes and completes when the test says
 * so, not when a timer does. A client that hangs up loses what was held for it, as with a proxy
 * that drops the tunnel.
 */
export async function startHoldingRelay(targetPort: number, passBytes: number): Promise<HoldingRelay> {
  const sockets = new Set<net.Socket>();
  const connections = new Map<net.Socket, { held: () => number; pass: () => void }>();
  let released = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    let passed = 0;
    let waiting = Buffer.alloc(0);
    const pass = () => {
      const size = released ? waiting.length : Math.max(0, Math.min(waiting.length, passBytes - passed));
      if (size === 0) return;
      upstream.write(waiting.subarray(0, size));
      waiting = waiting.subarray(size);
      passed += size;
    };
    const closeBoth = () => {
      connections.delete(client);
      client.destroy();
      upstream.destroy();
    };
    connections.set(client, { held: () => waiting.length, pass });
    client.on('data', (chunk: Buffer) => {
      waiting = Buffer.concat([waiting, chunk]);
      pass();
    });
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
    upstream.on('data', (chunk: Buffer) => {
      if (!client.destroyed) client.write(chunk);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    held: () => [...connections.values()].map((connection) => connection.held()),
    release: () => {
      released = true;
      for (const connection of connections.values()) connection.pass();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
