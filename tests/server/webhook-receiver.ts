import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, vi } from 'vitest';
import type { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * What `verifier.verify` (the `standardwebhooks` library's check) makes of a delivery received at
 * `now`: the library reads `Date.now()` for the timestamp's tolerance, and the deliveries were
 * signed on a test's clock, so for the length of one check that is the time it reads.
 */
export function verifyAt(verifier: Webhook, { headers, body }: ReceivedDelivery, now: number): unknown {
  vi.useFakeTimers({ toFake: ['Date'], now });
  try {
    return verifier.verify(body, headers as Record<string, string>);
  } finally {
    vi.useRealTimers();
  }
}

/**
 * A webhook's receiver on 127.0.0.1, as a user's script or n8n would run one: it keeps what it
 * was sent. While `down`, it cuts every connection before answering, as a receiver that is not
 * there; `status` is what it answers otherwise.
 */
export async function startReceiver() {
  const received: ReceivedDelivery[] = [];
  const state = { down: false, status: 200 };
  const server = http.createServer((request, response) => {
    if (state.down) {
      request.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(state.status, { 'content-type': 'text/plain' }).end(state.status < 300 ? 'got it' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/shorts`,
    port,
    received,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The server's keep-alive connections would hold the close open.
        server.closeAllConnections();
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * One receiver for a test file, started before its tests and closed after them, emptied and
 * answering 200 again before each test. Its fields are there once the file's tests run.
 */
export function receiverOfFile(): Receiver {
  const receiver = {} as Receiver;
  beforeAll(async () => {
    Object.assign(receiver, await startReceiver());
  });
  afterAll(() => receiver.close());
  beforeEach(() => {
    receiver.received.splice(0);
    receiver.state.down = false;
    receiver.state.status = 200;
  });
  return receiver;
}
