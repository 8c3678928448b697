import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { processId } from '../process-id';

/**
 * Where media files live, addressed by key ("photos/3/….png"). Only this interface knows they are
 * files under DATA_DIR/media, so an S3-compatible store can replace it later.
 */
export interface MediaStorage {
  /** Moves a finished local file under `key` in one step: a reader never sees half a file. */
  put(key: string, file: string): Promise<void>;
  /** Bytes of `key`, or the inclusive byte range. */
  stream(key: string, range?: { start: number; end: number }): Readable;
  /** Size in bytes, or null when there is no such key. */
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** Deletes every key under `prefix/`. */
  deleteAll(prefix: string): Promise<void>;
  /** A local path ffmpeg can read. */
  path(key: string): string;
  /** A private working folder for one upload or render, removed with `dispose`. */
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

export function diskStorage(root: string): MediaStorage {
  const resolve = (key: string) => path.join(root, assertKey(key));
  const scratchRoot = path.join(root, scratchDirName);
  return {
    async put(key, file) {
      const target = resolve(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(file, target);
    },
    stream(key, range) {
      return fs.createReadStream(resolve(key), range);
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
    path: resolve,
    async scratch() {
      await fsp.mkdir(scratchRoot, { recursive: true });
      const dir = await fsp.mkdtemp(path.join(scratchRoot, `${processId}.${crypto.randomBytes(3).toString('hex')}-`));
      return {
        file: (name) => path.join(dir, path.basename(name)),
        dispose: () => fsp.rm(dir, { recursive: true, force: true }),
      };
    },
    async sweepScratch(live) {
      const entries = await fsp.readdir(scratchRoot).catch(() => [] as string[]);
      let removed = 0;
      for (const entry of entries) {
        const owner = entry.split('.')[0]!;
        const dir = path.join(scratchRoot, entry);
        // A folder without an owner's id predates owners: removed only once surely abandoned.
        const abandoned = ownerPattern.test(owner)
          ? !live.has(owner)
          : Date.now() - ((await fsp.stat(dir).catch(() => null))?.mtimeMs ?? Date.now()) > unownedScratchMs;
        if (!abandoned) continue;
        await fsp.rm(dir, { recursive: true, force: true });
        removed += 1;
      }
      return removed;
    },
  };
}

const ownerPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const unownedScratchMs = 24 * 60 * 60 * 1000;
