import fs from 'node:fs';
import type { BodyInit } from 'undici';
import { ProfileAuthError, PublishStopped, StopRequested, TransientPlatformError, type PlatformError } from './errors';
import { networkError } from '../net/http';
import type { ConnectorContext, Platform, VideoUpload } from './types';

/** Turns a platform's failed answer into the error class that decides what happens next. */
export type ErrorReader = (status: number, body: any, headers: Headers) => PlatformError;

export interface CallInit {
  method?: string;
  headers?: Record<string, string>;
  /** A function, so the body can be made again for the one retry after a token refresh. */
  body?: () => BodyInit;
  /** How the access token travels; false for URLs that carry their own authorization. */
  auth?: 'bearer' | 'oauth' | false;
  /** Statuses that are answers rather than failures, such as 308 during a resumable upload. */
  accept?: number[];
  /** Quota units the call spends whatever its answer, told to the context's `spendUnits`. */
  units?: number;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any;
  /** The answer as sent, for numbers JSON.parse would round (64-bit ids). */
  text: string;
}

/**
 * One operation's calls to one platform: through the profile's proxy, with its token, refreshing
 * that token at most once when the platform says it is no longer valid.
 */
export class PlatformClient {
  private token: string;
  private refreshed = false;

  constructor(
    private readonly ctx: ConnectorContext,
    readonly platform: Platform,
    private readonly readError: ErrorReader,
  ) {
    this.token = ctx.credentials.accessToken;
  }

  async call(url: string, init: CallInit = {}): Promise<CallResult> {
    for (;;) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.auth !== false) headers.authorization = `${init.auth === 'oauth' ? 'OAuth' : 'Bearer'} ${this.token}`;
      const body = init.body?.();
      const response = await this.ctx.network.fetch(this.ctx.proxy, url, {
        method: init.method ?? 'GET',
        headers,
        body,
        signal: this.ctx.signal,
        redirect: 'manual',
        ...(body && typeof body === 'object' && Symbol.asyncIterator in body ? { duplex: 'half' as const } : {}),
      });
      if (init.units) await this.ctx.spendUnits?.(init.units);
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        if (this.ctx.signal?.aborted) throw error;
        throw networkError(this.ctx.proxy, error);
      }
      const parsed = parseBody(text);
      if (response.ok || init.accept?.includes(response.status)) {
        return { status: response.status, headers: response.headers as unknown as Headers, body: parsed, text };
      }
      const error = this.readError(response.status, parsed, response.headers as unknown as Headers);
      const refresh = this.ctx.credentials.renewRejectedToken;
      if (error instanceof ProfileAuthError && refresh && !this.refreshed) {
        this.refreshed = true;
        this.token = await refresh();
        continue;
      }
      throw error;
    }
  }

  /**
   * Asks `check` until it returns a value, pausing between asks; when processing outlasts the
   * attempt, a transient error lets the next attempt resume from the saved progress.
   */
  async poll<T>(check: () => Promise<T | null>): Promise<T> {
    const interval = this.ctx.pollIntervalMs ?? 5000;
    const { clock } = this.ctx;
    const deadline = clock.now() + (this.ctx.pollTimeoutMs ?? 10 * 60_000);
    for (;;) {
      const result = await check();
      if (result !== null) return result;
      if (clock.now() + interval > deadline) {
        throw new TransientPlatformError(this.platform, 'processing_timeout', '', undefined, interval);
      }
      await clock.sleep(interval, this.ctx.signal);
    }
  }
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The bytes of the file from `start` to `end` (exclusive), read as they are sent. */
export function fileRange(video: VideoUpload, start: number, end = video.size): () => BodyInit {
  return () => fs.createReadStream(video.path, { start, end: end - 1 }) as unknown as BodyInit;
}

/** How long the calls that find out how a stopped publish ended (and clean it up) may take in all. */
export const stopCleanupMs = 10_000;

/**
 * Runs a connector's publish; when it is stopped because its post is being deleted, `settle`
 * finds out, with calls of its own (the job's signal has fired), whether anything will still go
 * live and removes what it can. A doubt counts as live: the delete is then refused, not lied about.
 */
export async function stoppable<C extends ConnectorContext, T>(
  ctx: C,
  platform: Platform,
  publish: () => Promise<T>,
  settle: (cleanup: C) => Promise<PublishStopped>,
): Promise<T> {
  try {
    return await publish();
  } catch (error) {
    if (!(ctx.signal?.reason instanceof StopRequested)) throw error;
    throw await settle({ ...ctx, signal: AbortSignal.timeout(stopCleanupMs) }).catch(
      (doubt: unknown) => new PublishStopped(platform, true, `could not tell how it ended: ${(doubt as Error).message}`),
    );
  }
}

/** How long an aborted upload's received byte count must hold still before it is believed. */
const stillMs = 1500;

/**
 * Reads an aborted upload's state until the platform's byte count holds still: the bytes already
 * handed to the profile's proxy keep landing for seconds after the abort (a slow proxy drains its
 * buffers), and the upload can still complete. `receivedBytes` is null once the state is final.
 */
export async function readWhenStill<T>(
  { clock, signal }: Pick<ConnectorContext, 'clock' | 'signal'>,
  read: () => Promise<T>,
  receivedBytes: (state: T) => number | null,
): Promise<T> {
  let state = await read();
  for (let previous: number | null = null; receivedBytes(state) !== null && receivedBytes(state) !== previous;) {
    previous = receivedBytes(state);
    await clock.sleep(stillMs, signal);
    state = await read();
  }
  return state;
}

/** A publish that trusts a wrong size would upload a broken video; fail before touching the platform. */
export async function checkFile(video: VideoUpload) {
  const stat = await fs.promises.stat(video.path);
  if (stat.size !== video.size || video.size === 0) {
    throw new Error(`${video.path}: ${stat.size} bytes on disk, ${video.size} expected`);
  }
}

export function hasMarker(text: string | undefined, publishKey: string): boolean {
  return new RegExp(`(^|\\s)${publishKey.replace(/[-]/g, '\\-')}($|\\s)`).test(text ?? '');
}
