import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertKey, makeScratch, sweepScratch, type MediaStorage } from './storage';

// The SDK warns on every start that its releases from 2027 need Node 22; this project runs on
// Node 20 with the SDK version its lockfile pins (ARCHITECTURE.md, "Stack"), so the warning is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export interface S3Settings {
  bucket: string;
  /** Prepended to every key, e.g. `media/`; empty for the bucket's root. */
  prefix: string;
  /** Unset means AWS S3 itself; MinIO, R2, Garage and test doubles give their address. */
  endpoint: string | undefined;
  region: string;
  /** Path-style URLs (`endpoint/bucket/key`), which most self-hosted stores need. */
  forcePathStyle: boolean;
}

// Multipart parts held in memory at once per upload: 4 × 8 MiB bounds an upload of any size.
const partSize = 8 * 1024 * 1024;
const partsInFlight = 4;
/**
 * Seconds between further attempts to abort a failed multipart upload while the store does not
 * answer (it went away mid-upload, so lib-storage's own abort failed too). Whatever is still left
 * after the last one, or by a process that died mid-upload, the bucket's lifecycle rule
 * (AbortIncompleteMultipartUpload, docs/media.md) clears.
 */
const abortRetrySeconds = [1, 5, 30, 120, 600];

const contentTypes: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
};

/**
 * Media in an S3-compatible store through the official SDK; credentials come from the SDK's
 * standard chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, instance roles). Scratch
 * space stays on this machine's disk under `scratchRoot`.
 */
export function s3Storage(settings: S3Settings, scratchRoot: string): MediaStorage {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // A store that stops answering fails the call (and so the job, which is retried) instead of hanging it.
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
  });
  const { bucket } = settings;
  const objectKey = (key: string) => settings.prefix + assertKey(key);
  const location = `s3://${bucket}/${settings.prefix}`;

  async function size(key: string): Promise<number | null> {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  async function read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const object = await client.send(
      new GetObjectCommand({
        Bucket: bucket,
        Key: objectKey(key),
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    return object.Body as Readable;
  }

  /** Aborts one multipart upload; one the store no longer knows (404 NoSuchUpload) is already gone. */
  async function abortUpload(key: string, uploadId: string): Promise<void> {
    try {
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: objectKey(key), UploadId: uploadId }));
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }

  function abortLater(key: string, uploadId: string, attempt = 0): void {
    if (attempt >= abortRetrySeconds.length) return;
    const retry = () => abortUpload(key, uploadId).catch(() => abortLater(key, uploadId, attempt + 1));
    // Unreferenced: a pending abort never holds a stopping process open.
    setTimeout(retry, abortRetrySeconds[attempt]! * 1000).unref();
  }

  return {
    location,
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch (error) {
        throw new Error(explainCheckFailure(error, bucket, settings.endpoint ?? 'AWS S3'));
      }
    },
    async put(key, file) {
      const upload = new Upload({
        client,
        params: {
          Bucket: bucket,
          Key: objectKey(key),
          Body: fs.createReadStream(file),
          ContentType: contentTypes[path.extname(key)] ?? 'application/octet-stream',
        },
        partSize,
        queueSize: partsInFlight,
        // lib-storage's default (false, in 3.1173 as before): when a part or the file's stream fails,
        // it waits for the parts in flight and sends AbortMultipartUpload, so no part outlives the upload.
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        // lib-storage's abort fails too when the store went away; the parts (up to the whole file)
        // would stay billed in the bucket, so the abort is tried again once the store may be back.
        if (upload.uploadId) abortLater(key, upload.uploadId);
        throw error;
      }
      await fsp.rm(file, { force: true });
    },
    read,
    size,
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },
    async deleteAll(prefix) {
      const listed = objectKey(prefix) + '/';
      let continuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: listed, ContinuationToken: continuationToken }));
        const keys = (page.Contents ?? []).map((object) => ({ Key: object.Key! }));
        if (keys.length > 0) {
          await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
        }
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
    },
    async localFile(key, scratch) {
      const file = scratch.file(`${path.basename(key, path.extname(key))}-${crypto.randomUUID()}${path.extname(key)}`);
      await pipeline(await read(key), fs.createWriteStream(file));
      return file;
    },
    scratch: () => makeScratch(scratchRoot),
    sweepScratch: (live) => sweepScratch(scratchRoot, live),
  };
}

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

/** One sentence an operator can act on, for each way a store is usually misconfigured. */
function explainCheckFailure(error: unknown, bucket: string, endpoint: string): string {
  const status = statusOf(error);
  if (status === 404) return `the bucket "${bucket}" does not exist at ${endpoint}`;
  if (status === 403)
    return `${endpoint} refused the credentials for bucket "${bucket}" (check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)`;
  if (status === 301) return `the bucket "${bucket}" is in another region than S3_REGION`;
  if (status !== undefined) return `${endpoint} answered ${status} for bucket "${bucket}"`;
  return `the storage endpoint ${endpoint} cannot be reached (${(error as Error).message || (error as Error).name})`;
}
