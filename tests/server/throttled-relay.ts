import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { Transform } from 'node:stream';

export interface ThrottledRelay {
  /** What a profile gives as its proxy: the relay in front of the real proxy. */
  url: string;
  close(): Promise<void>;
}

/**
 * A TCP relay to `targetPort` that lets what clients send through at `bytesPerSecond` (answers
 * flow freely), so an upload through it lasts seconds like one through a slow proxy.
 */
export async function startThrottledRelay(targetPort: number, bytesPerSecond: number): Promise<ThrottledRelay> {
  const sockets = new Set<net.Socket>();
  const tick = 50;
  const perTick = Math.max(1, Math.floor((bytesPerSecond * tick) / 1000));
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
    const throttle = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        (async () => {
          for (let offset = 0; offset < chunk.length; offset += perTick) {
            this.push(chunk.subarray(offset, offset + perTick));
            await delay(tick);
          }
        })().then(() => done(), done);
      },
    });
    client.pipe(throttle).pipe(upstream);
    upstream.pipe(client);
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
