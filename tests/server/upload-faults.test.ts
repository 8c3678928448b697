import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import fc from 'fast-check';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { t } from '../../server/messages';
import type { MediaStorage } from '../../server/media/storage';
import { filesUnder, makeMediaFixtures, multipart, testTools, type MediaFixtures, type MultipartPart } from '../fixtures/media';
import { createUser, describeEachDatabase, type TestEnv } from './helpers';

let fixtures: MediaFixtures;
beforeAll(async () => {
  fixtures = await makeMediaFixtures(testTools());
});
afterAll(() => fixtures.remove());

/** The two upload routes, each with a body that would be accepted as it is. */
const uploadRoutes: Array<[string, () => MultipartPart[]]> = [
  ['/api/photo-bg', () => [{ name: 'files', file: { path: fixtures.png, filename: 'one.png', contentType: 'image/png' } }]],
  [
    '/api/create-video/create',
    () => [
      { name: 'countVideo', value: '2' },
      { name: 'file', file: { path: fixtures.clip, filename: 'clip.mp4', contentType: 'video/mp4' } },
    ],
  ],
];

/** Ways a body goes wrong on the wire: each takes the good body and its content type. */
const malformed: Array<[string, (body: Buffer, contentType: string) => { payload: Buffer; contentType: string }]> = [
  ['cut off in the middle of the file', (body, contentType) => ({ payload: body.subarray(0, Math.floor(body.length / 2)), contentType })],
  ['cut off inside the first part header', (body, contentType) => ({ payload: body.subarray(0, 60), contentType })],
  ['without its closing boundary', (body, contentType) => ({ payload: body.subarray(0, body.lastIndexOf('--\r\n') - 40), contentType })],
  [
    'with another boundary than its content type names',
    (body, contentType) => ({ payload: body, contentType: contentType.replace(/boundary=.*/, 'boundary=not-the-one') }),
  ],
  ['without a boundary in its content type', (body) => ({ payload: body, contentType: 'multipart/form-data' })],
  [
    'of garbage bytes',
    (_body, contentType) => ({ payload: Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 7919) % 256)), contentType }),
  ],
];

/** The answer, or a failure naming the route and the file that keeps the body it never answered. */
async function answeredWithin<T>(ms: number, answer: Promise<T>, payload: Buffer, url: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const kept = path.join(os.tmpdir(), `unanswered-upload-${Date.now()}.bin`);
      void fs.writeFile(kept, payload);
      reject(new Error(`POST ${url} gave no answer in ${ms / 1000} s to a body of ${payload.length} bytes, kept in ${kept}`));
    }, ms);
  });
  try {
    return await Promise.race([answer, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

async function mediaAndRows(env: TestEnv) {
  const { rows } = await env.db.sql(
    `SELECT (SELECT count(*)::int FROM photos) AS photos, (SELECT count(*)::int FROM creation_requests) AS requests`,
    [],
  );
  const scratch = await fs.readdir(path.join(env.mediaDir, '.scratch')).catch(() => []);
  return { files: await filesUnder(env.mediaDir), scratch, ...rows[0] };
}

describeEachDatabase(
  'malformed multipart bodies',
  (env) => {
    for (const [url, parts] of uploadRoutes) {
      for (const [what, spoil] of malformed) {
        it(`${url}: a body ${what} is a 400 in Ukrainian, and leaves nothing`, async () => {
          const user = await createUser(env(), 'operator');
          const good = await multipart(parts());
          const { payload, contentType } = spoil(good.payload, good.headers['content-type']!);
          const response = await env().app.inject({
            method: 'POST',
            url,
            headers: { ...user.headers, 'content-type': contentType },
            payload,
          });
          expect(response.statusCode, response.body).toBe(400);
          expect(response.json().message).toBe(t.upload.malformed);
          expect(await mediaAndRows(env())).toEqual({ files: [], scratch: [], photos: 0, requests: 0 });
        });
      }
    }

    it('never answers 5xx to a body cut, overwritten or padded anywhere, and leaves no scratch', { timeout: 300_000 }, async () => {
      const user = await createUser(env(), 'operator');
      const answers = new Map<number, number>();
      for (const [url, parts] of uploadRoutes) {
        const good = await multipart(parts());
        const spoiled = fc.oneof(
          fc.nat({ max: good.payload.length - 1 }).map((end) => good.payload.subarray(0, end)),
          fc
            .tuple(fc.nat({ max: good.payload.length - 1 }), fc.uint8Array({ minLength: 1, maxLength: 64 }))
            .map(([at, bytes]) => Buffer.concat([good.payload.subarray(0, at), bytes, good.payload.subarray(at + bytes.length)])),
          fc
            .tuple(fc.nat({ max: good.payload.length - 1 }), fc.uint8Array({ minLength: 1, maxLength: 64 }))
            .map(([at, bytes]) => Buffer.concat([good.payload.subarray(0, at), bytes, good.payload.subarray(at)])),
        );
        await fc.assert(
          fc.asyncProperty(spoiled, async (payload) => {
            const response = await answeredWithin(
              60_000,
              env().app.inject({ method: 'POST', url, headers: { ...user.headers, ...good.headers }, payload }),
              payload,
              url,
            );
            answers.set(response.statusCode, (answers.get(response.statusCode) ?? 0) + 1);
            expect(response.statusCode, response.body).toBeLessThan(500);
            // Every refusal is in the operator's language.
            if (response.statusCode >= 400) expect(JSON.stringify(response.json().message)).toMatch(/[а-яіїєґ]/i);
          }),
          // 4-20 s for both routes on a quiet machine, 7 s on Postgres in a full run. A clean CI run
          // and about one full local run in five saw one PGlite upload never answer, though receiveForm
          // bounds parsing after the body's last byte (30 s); 20 000 bodies run alone or beside busy
          // loops never did. A body unanswered for a minute fails here, kept on disk to replay.
          { numRuns: 60, endOnFailure: true },
        );
      }
      expect([...answers.keys()].every((status) => status < 500)).toBe(true);
      // A 201 is sent before the route's `finally` disposes of its scratch, so that may take a moment.
      await vi.waitFor(async () => expect(await fs.readdir(path.join(env().mediaDir, '.scratch')).catch(() => [])).toEqual([]), {
        timeout: 10_000,
      });
    });

    // Busboy reads these to their end without a fault: what is missing is then named by the form's own messages.
    const readableButEmpty: Array<[string, string, Buffer, string[]]> = [
      ['/api/photo-bg', 'an empty body', Buffer.alloc(0), [t.photos.atLeastOne]],
      ['/api/create-video/create', 'an empty body', Buffer.alloc(0), [t.createVideo.countRequired, t.createVideo.atLeastOne]],
      [
        '/api/photo-bg',
        'a part without its Content-Disposition',
        Buffer.from('--b\r\nContent-Disposition form-data; name="files"; filename="a.png"\r\n\r\nx\r\n--b--\r\n'),
        [t.photos.atLeastOne],
      ],
    ];
    for (const [url, what, payload, messages] of readableButEmpty) {
      it(`${url}: ${what} is a 400 with the form's messages`, async () => {
        const user = await createUser(env(), 'operator');
        const response = await env().app.inject({
          method: 'POST',
          url,
          headers: { ...user.headers, 'content-type': 'multipart/form-data; boundary=b' },
          payload,
        });
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().message).toEqual(messages);
      });
    }
  },
  { queue: 'send' },
);

/** What a full disk answers a write: the kernel's own error, as fs gives it. */
function diskFullError(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
}

/**
 * Makes the disk full for one call through the storage interface the routes use: `scratch` (the
 * upload's bytes go to /dev/full, which answers every write with ENOSPC) or `put` (the Nth store
 * fails). Restored afterwards.
 */
async function withFullDisk(storage: MediaStorage, where: 'scratch' | { put: number }, body: () => Promise<void>) {
  const { scratch, put } = storage;
  if (where === 'scratch') {
    storage.scratch = async () => {
      const real = await scratch();
      return { ...real, file: (name) => (name.startsWith('upload-') ? '/dev/full' : real.file(name)) };
    };
  } else {
    let calls = 0;
    storage.put = async (key, file) => {
      calls += 1;
      if (calls === where.put) throw diskFullError();
      return put(key, file);
    };
  }
  try {
    await body();
  } finally {
    Object.assign(storage, { scratch, put });
  }
}

describeEachDatabase(
  'a full disk',
  (env) => {
    const cases: Array<[string, string, 'scratch' | { put: number }, () => MultipartPart[]]> = [
      ['receiving the upload', '/api/photo-bg', 'scratch', () => uploadRoutes[0]![1]()],
      ['receiving the upload', '/api/create-video/create', 'scratch', () => uploadRoutes[1]![1]()],
      [
        'storing the second of two images',
        '/api/photo-bg',
        { put: 2 },
        () => [
          { name: 'files', file: { path: fixtures.png, filename: 'one.png', contentType: 'image/png' } },
          { name: 'files', file: { path: fixtures.jpeg, filename: 'two.jpg', contentType: 'image/jpeg' } },
        ],
      ],
      ['storing the source video', '/api/create-video/create', { put: 1 }, () => uploadRoutes[1]![1]()],
    ];
    for (const [when, url, where, parts] of cases) {
      it(`${url}: ENOSPC ${when} is a 507 in Ukrainian, with no file, row, job or scratch left`, async () => {
        const user = await createUser(env(), 'operator');
        const body = await multipart(parts());
        await withFullDisk(env().media.storage, where, async () => {
          const response = await env().app.inject({
            method: 'POST',
            url,
            headers: { ...user.headers, ...body.headers },
            payload: body.payload,
          });
          expect(response.statusCode, response.body).toBe(507);
          expect(response.json()).toEqual({ statusCode: 507, error: t.server.statusNames[507], message: t.server.diskFull });
        });
        expect(await mediaAndRows(env())).toEqual({ files: [], scratch: [], photos: 0, requests: 0 });
        const { rows } = await env().db.sql(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'render-request'`, []);
        expect(rows[0].n).toBe(0);
      });
    }

    // Over a real connection. A refusal that comes while the body is still being sent (a full disk
    // under the upload, a Content-Length over the limit) leaves the rest unread, so the answer says
    // `Connection: close` and the client's next request goes down a new connection instead of the
    // one the server is closing. A file over the upload limit is refused once busboy has read the
    // body to its end, so that connection stays open and serves the next request.
    it('ends the connection, saying so, when it refuses a body before reading it to the end', async () => {
      const origin = await env().app.listen({ port: 0, host: '127.0.0.1' });
      const user = await createUser(env(), 'operator');
      const image = (bytes: number) => ({
        name: 'files',
        file: { data: Buffer.alloc(bytes, 1), filename: 'big.png', contentType: 'image/png' },
      });
      const fits = await multipart([image(4 * 1024 ** 2)]);
      await withFullDisk(env().media.storage, 'scratch', async () => {
        const full = await keepAliveExchange(`${origin}/api/photo-bg`, { ...user.headers, ...fits.headers }, fits.payload);
        expect(full).toEqual({ status: 507, connection: 'close', next: 200 });
      });
      const json = { ...user.headers, 'content-type': 'application/json' };
      const overLimit = Buffer.from(JSON.stringify({ name: 'x'.repeat(4 * 1024 ** 2), tags: ['a'] }));
      expect(await keepAliveExchange(`${origin}/api/tags`, json, overLimit)).toEqual({ status: 413, connection: 'close', next: 200 });

      const tooLarge = await multipart([image(8 * 1024 ** 2)]);
      const readToTheEnd = await keepAliveExchange(`${origin}/api/photo-bg`, { ...user.headers, ...tooLarge.headers }, tooLarge.payload);
      expect(readToTheEnd).toEqual({ status: 413, connection: 'keep-alive', next: 200 });
    });
  },
  { queue: 'send' },
);

/**
 * POSTs `payload` to `url` through a keep-alive agent of one socket, then asks /healthz through the
 * same agent: the first answer's status and Connection header, and the second's status.
 */
async function keepAliveExchange(url: string, headers: Record<string, string>, payload: Buffer) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await new Promise<http.IncomingMessage>((resolve) => {
      const sent = { ...headers, 'content-length': String(payload.length) };
      const request = http.request(url, { method: 'POST', agent, headers: sent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response));
      });
      // The server stops reading and closes; what the client was still writing then fails, after the answer.
      request.on('error', () => undefined);
      request.end(payload);
    });
    const next = await new Promise<number>((resolve, reject) => {
      http
        .get(new URL('/healthz', url), { agent }, (response) => {
          response.resume();
          resolve(response.statusCode!);
        })
        .on('error', reject);
    });
    return { status: first.statusCode, connection: first.headers.connection, next };
  } finally {
    agent.destroy();
  }
}
