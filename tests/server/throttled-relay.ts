import net from 'node:net';

export interface ThrottledRelay {
  /** What a profile gives as its proxy: the relay in front of the real proxy. */
  url: string;
  close(): Promise<void>;
}

export interface RelayOptions {
  /**
   * What happens to the bytes a client sent but the relay has not let through when the client
   * hangs up: a proxy that drops the tunnel loses them (the default); one that half-closes keeps
   * delivering them at its pace, so an aborted upload can still complete after the abort.
   */
  drainsAfterClientLeaves?: boolean;
}

/**
 * A TCP relay to `targetPort` that lets what clients send through at `bytesPerSecond` (answers
 * flow freely), so an upload through it lasts seconds like one through a slow proxy. It reads
 * clients eagerly and holds what is not yet let through, so it sees a hang-up at once.
 */
export async function startThrottledRelay(
  targetPort: number,
  bytesPerSecond: number,
  { drainsAfterClientLeaves = false }: RelayOptions = {},
): Promise<ThrottledRelay> {
  const sockets = new Set<net.Socket>();
  const tick = 50;
  const perTick = Math.max(1, Math.floor((bytesPerSecond * tick) / 1000));
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    let held = Buffer.alloc(0);
    let clientLeft = false;
    const closeBoth = () => {
      clearInterval(timer);
      client.destroy();
      upstream.destroy();
    };
    const timer = setInterval(() => {
      if (held.length > 0) {
        upstream.write(held.subarray(0, perTick));
        held = held.subarray(perTick);
      }
      if (clientLeft && held.length === 0) closeBoth();
    }, tick);
    const clientGone = () => {
      clientLeft = true;
      if (!drainsAfterClientLeaves) closeBoth();
    };
    client.on('data', (chunk: Buffer) => (held = Buffer.concat([held, chunk])));
    client.on('end', clientGone).on('close', clientGone);
    upstream.on('close', closeBoth);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
    }
    upstream.on('data', (chunk: Buffer) => {
      if (!client.destroyed) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
