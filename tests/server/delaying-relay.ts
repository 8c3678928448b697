import net from 'node:net';

export interface DelayingRelay {
  /** What a profile gives as its proxy: the relay in front of the real proxy. */
  url: string;
  /** Milliseconds added to every request; may be changed while the relay runs. */
  delayMs: number;
  close(): Promise<void>;
}

/**
 * A TCP relay to `targetPort` that holds each burst a client sends for `delayMs` before passing it
 * on (answers flow freely), so every request through it, on a new or a reused connection, takes
 * that much longer: a profile's proxy far away.
 */
export async function startDelayingRelay(targetPort: number, delayMs: number): Promise<DelayingRelay> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket
        .on('error', () => undefined)
        .on('close', () => {
          sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
    }
    // Bytes keep their order: each chunk leaves `delayMs` after it came, and never before the one ahead of it.
    let last = 0;
    client.on('data', (chunk: Buffer) => {
      const at = Math.max(Date.now() + relay.delayMs, last);
      last = at;
      setTimeout(() => upstream.write(chunk), at - Date.now());
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relay: DelayingRelay = {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    delayMs,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return relay;
}
