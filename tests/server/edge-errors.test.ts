import net from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { t } from '../../server/messages';
import { createUser, describeEachDatabase } from './helpers';

/** Fastify's and Node's own English words, which no error answer may carry. */
const english =
  /Client Error|Bad Request|Payload Too Large|Unsupported Media Type|Request Header Fields|URI Too Long|Not Found|Request body|is not a valid url|max param length|Unexpected/;

/** SPEC's error shape with the catalog's words: `message` a string or a list, and the status named in Ukrainian. */
function expectUkrainianError(status: number, body: string, message: string | string[]) {
  expect(JSON.parse(body)).toEqual({ statusCode: status, error: t.server.statusNames[status], message });
  expect(body).not.toMatch(english);
}

/** Bytes straight onto a socket, as a broken or lying client sends them; everything the server wrote until it closed. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(received).toString('utf8')));
    socket.write(bytes);
  });
}

function splitAnswer(raw: string) {
  const [head, ...rest] = raw.split('\r\n\r\n');
  return { status: Number(head!.split(' ')[1]), body: rest.join('\r\n\r\n') };
}

describeEachDatabase("Fastify's and Node's own refusals of a request, in Ukrainian and in SPEC's error shape", (env) => {
  let port: number;
  beforeAll(async () => {
    const origin = await env().app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(origin).port);
  });
  /** A signed-in operator's header line, so a raw request reaches the body parser, not the sign-in check. */
  const authorization = async () => `Authorization: ${(await createUser(env(), 'raw-client')).headers.authorization}\r\n`;

  const postTags = async (headers: Record<string, string>, payload: string) => {
    const user = await createUser(env(), 'operator');
    return env().app.inject({ method: 'POST', url: '/api/tags', headers: { ...user.headers, ...headers }, payload });
  };

  const bodyCases: Array<[string, Record<string, string>, string, number, string]> = [
    ['broken JSON', { 'content-type': 'application/json' }, '{"name": ', 400, t.server.invalidJson],
    ['an empty JSON body', { 'content-type': 'application/json' }, '', 400, t.server.emptyJson],
    ['a content type no parser takes', { 'content-type': 'application/xml' }, '<name>x</name>', 415, t.server.unsupportedMediaType],
    [
      'a body over the limit',
      { 'content-type': 'application/json' },
      JSON.stringify({ name: 'x'.repeat(2_000_000) }),
      413,
      t.server.bodyTooLarge,
    ],
    [
      'a 2 GB Content-Length lie',
      { 'content-type': 'application/json', 'content-length': '2000000000' },
      '{"name":"x"}',
      413,
      t.server.bodyTooLarge,
    ],
    [
      'a body shorter than its Content-Length',
      { 'content-type': 'application/json', 'content-length': '100' },
      '{"name":"x"}',
      400,
      t.server.bodyLengthMismatch,
    ],
  ];
  for (const [what, headers, payload, status, message] of bodyCases) {
    it(`${what} → ${status}`, async () => {
      const response = await postTags(headers, payload);
      expect(response.statusCode).toBe(status);
      expectUkrainianError(status, response.body, message);
    });
  }

  it('a path with a broken %-sequence → 400, an over-long path parameter → 414', async () => {
    const user = await createUser(env(), 'operator');
    const badUrl = await env().app.inject({ url: '/api/accounts/%E0%A4%A', headers: user.headers });
    expect(badUrl.statusCode).toBe(400);
    expectUkrainianError(400, badUrl.body, t.server.badUrl);
    const longParam = await env().app.inject({ url: `/api/accounts/${'1'.repeat(200)}`, headers: user.headers });
    expect(longParam.statusCode).toBe(414);
    expectUkrainianError(414, longParam.body, t.server.urlTooLong);
  });

  it('a multipart form cut short → 400 with the upload message', async () => {
    const user = await createUser(env(), 'operator');
    const response = await env().app.inject({
      method: 'POST',
      url: '/api/photo-bg',
      headers: { ...user.headers, 'content-type': 'multipart/form-data; boundary=b' },
      payload: '--b\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
    });
    expect(response.statusCode).toBe(400);
    expectUkrainianError(400, response.body, t.upload.malformed);
  });

  it("headers over Node's limit → 431, from Node's parser", async () => {
    const answer = splitAnswer(await rawExchange(port, `GET /api/tags HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(answer.status).toBe(431);
    expectUkrainianError(431, answer.body, t.server.headersTooLarge);
  });

  it("bytes that are no HTTP, and a chunked body cut by a broken chunk → 400, from Node's parser", async () => {
    const garbage = splitAnswer(await rawExchange(port, 'HELLO THERE\r\n\r\n'));
    expect(garbage.status).toBe(400);
    expectUkrainianError(400, garbage.body, t.server.malformedRequest);

    const brokenChunk = splitAnswer(
      await rawExchange(
        port,
        `POST /api/tags HTTP/1.1\r\nHost: x\r\n${await authorization()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"nam\r\nzz\r\n`,
      ),
    );
    expect(brokenChunk.status).toBe(400);
    expectUkrainianError(400, brokenChunk.body, t.server.malformedRequest);
  });

  it('a 2 GB Content-Length lie over a real connection → 413, and the bytes after it draw no English either', async () => {
    const raw = await rawExchange(
      port,
      `POST /api/tags HTTP/1.1\r\nHost: x\r\n${await authorization()}Content-Type: application/json\r\nContent-Length: 2000000000\r\n\r\n{"name":"x"}\r\n\r\nGARBAGE\r\n\r\n`,
    );
    const answer = splitAnswer(raw);
    expect(answer.status).toBe(413);
    expect(raw).not.toMatch(/Client Error/);
    expectUkrainianError(413, answer.body.slice(0, answer.body.indexOf('}') + 1), t.server.bodyTooLarge);
  });
});
