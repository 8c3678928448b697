import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { diskStorage, type MediaStorage } from '../../server/media/storage';
import { s3Storage } from '../../server/media/s3-storage';
import { s3Credentials, startS3Server, startVanishingRelay, type TestS3Server } from '../fixtures/s3-server';

Object.assign(process.env, s3Credentials);

let s3: TestS3Server;
let workDir: string;
beforeAll(async () => {
  s3 = await startS3Server();
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'storage-test-'));
});
afterAll(async () => {
  await s3.close();
  await fs.rm(workDir, { recursive: true, force: true });
});

const backends: [string, () => MediaStorage][] = [
  ['disk', () => diskStorage(path.join(workDir, 'disk'))],
  ['s3', () => s3Storage(s3.settings('media'), path.join(workDir, 's3-scratch'))],
];

async function localFileWith(storage: MediaStorage, content: string | Buffer): Promise<string> {
  const scratch = await storage.scratch();
  const file = scratch.file('upload.bin');
  await fs.writeFile(file, content);
  return file;
}

describe.each(backends)('%s storage', (_name, makeStorage) => {
  let storage: MediaStorage;
  beforeAll(async () => {
    storage = makeStorage();
    await storage.check();
  });

  it('stores a local file under its key, consuming the local file', async () => {
    const file = await localFileWith(storage, 'hello, media');
    await storage.put('requests/abc/1.mp4', file);
    await expect(fs.access(file)).rejects.toThrow();
    expect(await storage.size('requests/abc/1.mp4')).toBe(12);
    expect(await text(await storage.read('requests/abc/1.mp4'))).toBe('hello, media');
  });

  it('reads an inclusive byte range', async () => {
    await storage.put('requests/range/1.mp4', await localFileWith(storage, '0123456789'));
    expect(await text(await storage.read('requests/range/1.mp4', { start: 2, end: 5 }))).toBe('2345');
  });

  it('answers null for the size of a missing key', async () => {
    expect(await storage.size('requests/none/1.mp4')).toBeNull();
  });

  it('gives a local file that ffmpeg can read, and scratch that disposes of itself', async () => {
    const bytes = Buffer.alloc(11 * 1024 * 1024, 3);
    await storage.put('photos/7/big.png', await localFileWith(storage, bytes));
    const scratch = await storage.scratch();
    const local = await storage.localFile('photos/7/big.png', scratch);
    expect((await fs.readFile(local)).equals(bytes)).toBe(true);
    await scratch.dispose();
    expect(await storage.size('photos/7/big.png')).toBe(bytes.length);
  });

  it('deletes one key, and every key under a prefix but no other', async () => {
    for (const key of ['requests/gone/1.mp4', 'requests/gone/1.jpg', 'requests/gone-not/1.mp4', 'requests/kept/1.mp4']) {
      await storage.put(key, await localFileWith(storage, key));
    }
    await storage.delete('requests/kept/1.mp4');
    await storage.deleteAll('requests/gone');
    expect(await storage.size('requests/kept/1.mp4')).toBeNull();
    expect(await storage.size('requests/gone/1.mp4')).toBeNull();
    expect(await storage.size('requests/gone/1.jpg')).toBeNull();
    expect(await storage.size('requests/gone-not/1.mp4')).toBe('requests/gone-not/1.mp4'.length);
  });

  it('refuses keys that could leave its space', async () => {
    await expect(storage.size('../secret.key')).rejects.toThrow('invalid media key');
  });
});

describe('s3 storage faults', () => {
  const scratchRoot = () => path.join(workDir, 'fault-scratch');

  it('says at start that a bucket is missing', async () => {
    const storage = s3Storage({ ...s3.settings(), bucket: 'no-such-bucket' }, scratchRoot());
    await expect(storage.check()).rejects.toThrow('the bucket "no-such-bucket" does not exist');
  });

  it('says at start that the endpoint cannot be reached', async () => {
    const storage = s3Storage({ ...s3.settings(), endpoint: 'http://127.0.0.1:9' }, scratchRoot());
    await expect(storage.check()).rejects.toThrow('the storage endpoint http://127.0.0.1:9 cannot be reached');
  });

  it('says at start that the credentials are refused', async () => {
    // s3rver checks the key id (not the signature), so an unknown key id is how it refuses.
    const saved = process.env.AWS_ACCESS_KEY_ID;
    process.env.AWS_ACCESS_KEY_ID = 'unknown-key-id';
    try {
      const storage = s3Storage(s3.settings(), scratchRoot());
      await expect(storage.check()).rejects.toThrow('refused the credentials for bucket "media"');
    } finally {
      process.env.AWS_ACCESS_KEY_ID = saved;
    }
  });

  it('leaves no object when the store goes away in the middle of an upload', async () => {
    const relay = await startVanishingRelay(s3.endpoint, 12 * 1024 * 1024);
    const storage = s3Storage({ ...s3.settings(), endpoint: relay.endpoint }, scratchRoot());
    const direct = s3Storage(s3.settings(), scratchRoot());
    const scratch = await storage.scratch();
    const file = scratch.file('big.mp4');
    await fs.writeFile(file, Buffer.alloc(30 * 1024 * 1024, 9));
    await expect(storage.put('requests/cut/1.mp4', file)).rejects.toThrow();
    expect(await direct.size('requests/cut/1.mp4')).toBeNull();
    // The parts sent before the store went away are still there, and its abort could not arrive...
    expect(await s3.multipartUploads()).toEqual([{ uploadId: expect.any(String), key: 'requests/cut/1.mp4' }]);
    // ...so it is sent again once the store answers (the first retry is a second later).
    await relay.restore();
    await vi.waitFor(async () => expect(await s3.multipartUploads()).toEqual([]), { timeout: 15_000, interval: 250 });
    relay.close();
    await scratch.dispose();
  });

  it('aborts the multipart upload when the store refuses a part, leaving no part and no object', async () => {
    const storage = s3Storage(s3.settings(), scratchRoot());
    const scratch = await storage.scratch();
    const file = scratch.file('big.mp4');
    await fs.writeFile(file, Buffer.alloc(30 * 1024 * 1024, 7));
    s3.failPart(2);
    try {
      await expect(storage.put('requests/refused/1.mp4', file)).rejects.toThrow();
    } finally {
      s3.failPart(null);
    }
    expect(await s3.multipartUploads()).toEqual([]);
    expect(await storage.size('requests/refused/1.mp4')).toBeNull();
    await scratch.dispose();
  });
});
