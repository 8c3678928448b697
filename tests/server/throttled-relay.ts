import net from 'node:net';

export interface ThrottledRelay {
  /** What a profile gives as its proxy: the relay in front of the real proxy. */
  url: string;
  /** Bytes clients have sent into the relay so far. */
  readonly receivedBytes: number;
  /** The bytes the relay holds and has not let through yet, per connection still open. */
  held(): number[];
  /** Connections whose client hung up while the relay still holds bytes it will deliver. */
  draining(): number;
  /** Lets everything held through at once, and what comes later unpaced, until `throttle`. */
  release(): void;
  /** Back to `bytesPerSecond`. */
  throttle(): void;
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
  const connections = new Map<net.Socket, { held: () => number; left: () => boolean; pass: () => void }>();
  let receivedBytes = 0;
  let released = false;
  const tick = 50;
  const perTick = Math.max(1, Math.floor((bytesPerSecond * tick) / 1000));
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    let waiting = Buffer.alloc(0);
    let clientLeft = false;
    const closeBoth = () => {
      clearInterval(timer);
      connections.delete(client);
      client.destroy();
      upstream.destroy();
    };
    const pass = () => {
      if (waiting.length > 0) {
        const size = released ? waiting.length : perTick;
        upstream.write(waiting.subarray(0, size));
        waiting = waiting.subarray(size);
      }
      if (clientLeft && waiting.length === 0) closeBoth();
    };
    const timer = setInterval(pass, tick);
    connections.set(client, { held: () => waiting.length, left: () => clientLeft, pass });
    const clientGone = () => {
      clientLeft = true;
      if (!drainsAfterClientLeaves) closeBoth();
    };
    client.on('data', (chunk: Buffer) => {
      receivedBytes += chunk.length;
      waiting = Buffer.concat([waiting, chunk]);
      if (released) pass();
    });
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
    get receivedBytes() {
      return receivedBytes;
    },
    held: () => [...connections.values()].map((connection) => connection.held()),
    draining: () => [...connections.values()].filter((connection) => connection.left() && connection.held() > 0).length,
    release: () => {
      released = true;
      for (const connection of connections.values()) connection.pass();
    },
    throttle: () => {
      released = false;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
