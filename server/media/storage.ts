import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { processId } from '../process-id';
import { systemClock } from '../clock';

/**
 * Where media objects live, addressed by key ("photos/3/….png"): files under DATA_DIR/media, or an
 * S3-compatible store (s3-storage.ts). Nothing outside the two backends knows which.
 */
export interface MediaStorage {
  /** Where the objects are, for the start-up log: a folder or `s3://bucket/prefix`. */
  readonly location: string;
  /** Fails with a plain sentence when the store cannot be used, so a bad configuration stops the start. */
  check(): Promise<void>;
  /**
   * Stores a finished local file under `key` in one step and removes the local file: a reader
   * never sees half an object, and a failure leaves no object behind.
   */
  put(key: string, file: string): Promise<void>;
  /** Bytes of `key`, or the inclusive byte range. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Size in bytes, or null when there is no such key. */
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** Deletes every key under `prefix/`. */
  deleteAll(prefix: string): Promise<void>;
  /**
   * A local file with the bytes of `key` that ffmpeg or an upload can read: the stored file itself
   * on disk; a copy inside `scratch` from a remote store.
   */
  localFile(key: string, scratch: Scratch): Promise<string>;
  /** A private working folder for one upload, render or publish, removed with `dispose`. */
  scratch(): Promise<Scratch>;
  /**
   * Removes the scratch folders of processes not in `live` (their owner died mid-upload or
   * mid-render) and returns how many; folders of live processes are theirs to dispose.
   */
  sweepScratch(live: Set<string>): Promise<number>;
}

export interface Scratch {
  file(name: string): string;
  dispose(): Promise<void>;
}

const validKey = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_.-]*)*$/i;

export function assertKey(key: string): string {
  if (!validKey.test(key) || key.includes('..')) throw new Error(`invalid media key: ${key}`);
  return key;
}

/** Scratch folders live beside the files so the final rename never crosses file systems. */
const scratchDirName = '.scratch';

/**
 * Scratch space on this machine's disk under `root`, whichever store keeps the objects. Folder
 * names start with the owning process's id, so another process can tell which ones were left by
 * a process that has died.
 */
export async function makeScratch(root: string): Promise<Scratch> {
  const scratchRoot = path.join(root, scratchDirName);
  await fsp.mkdir(scratchRoot, { recursive: true });
  const dir = await fsp.mkdtemp(path.join(scratchRoot, `${processId}.${crypto.randomBytes(3).toString('hex')}-`));
  return {
    file: (name) => path.join(dir, path.basename(name)),
    dispose: () => fsp.rm(dir, { recursive: true, force: true }),
  };
}

const ownerPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const unownedScratchMs = 24 * 60 * 60 * 1000;

/** Removes the scratch folders under `root` of processes not in `live`, and says how many. */
export async function sweepScratch(root: string, live: Set<string>): Promise<number> {
  const scratchRoot = path.join(root, scratchDirName);
  const entries = await fsp.readdir(scratchRoot).catch(() => [] as string[]);
  let removed = 0;
  for (const entry of entries) {
    const owner = entry.split('.')[0]!;
    const dir = path.join(scratchRoot, entry);
    // A folder without an owner's id predates owners: removed only once surely abandoned. Its age is
    // read against the system clock, by which the file system stamped it, not the app's injected one.
    const wallNow = systemClock.now();
    const abandoned = ownerPattern.test(owner)
      ? !live.has(owner)
      : wallNow - ((await fsp.stat(dir).catch(() => null))?.mtimeMs ?? wallNow) > unownedScratchMs;
    if (!abandoned) continue;
    await fsp.rm(dir, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

export function diskStorage(root: string): MediaStorage {
  const resolve = (key: string) => path.join(root, assertKey(key));
  return {
    location: root,
    async check() {
      await fsp.mkdir(root, { recursive: true });
      await fsp.access(root, fs.constants.W_OK).catch(() => {
        throw new Error(`the media folder ${root} is not writable`);
      });
    },
    async put(key, file) {
      const target = resolve(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(file, target);
    },
    async read(key, range) {
      const stream = fs.createReadStream(resolve(key), range);
      // Open errors (a key deleted between size() and read()) reject here instead of mid-response.
      await new Promise<void>((done, fail) => stream.once('open', () => done()).once('error', fail));
      return stream;
    },
    async size(key) {
      const stat = await fsp.stat(resolve(key)).catch(() => null);
      return stat?.isFile() ? stat.size : null;
    },
    async delete(key) {
      await fsp.rm(resolve(key), { force: true });
    },
    async deleteAll(prefix) {
      await fsp.rm(resolve(prefix), { recursive: true, force: true });
    },
    async localFile(key) {
      return resolve(key);
    },
    scratch: () => makeScratch(root),
    sweepScratch: (live) => sweepScratch(root, live),
  };
}
