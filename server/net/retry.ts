import { setTimeout as delay } from 'node:timers/promises';
import { PlatformNetworkError, PlatformTimeoutError } from './http';

/**
 * A failure worth another attempt that the other side answered: a platform's rate limit, 5xx,
 * quota reset or processing still under way (TransientPlatformError, server/platforms/errors.ts,
 * which the network below the platforms cannot import). `retryAfterMs` is the least wait it asked for.
 */
export interface TransientFailure extends Error {
  readonly transient: true;
  readonly retryAfterMs?: number;
}

const isTransientFailure = (error: unknown): error is TransientFailure =>
  error instanceof Error && (error as Partial<TransientFailure>).transient === true;

export interface RetryOptions {
  /** Attempts in all, the first included. */
  attempts?: number;
  baseDelayMs?: number;
  /**
   * The longest pause worth waiting in-process. A platform asking for more (a daily quota, a long
   * Retry-After) ends the loop with its error, whose retryAfterMs the caller schedules a job with.
   */
  maxDelayMs?: number;
  signal?: AbortSignal;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  onRetry?: (event: { attempt: number; delayMs: number; error: unknown }) => void | Promise<void>;
}

const defaults = { attempts: 5, baseDelayMs: 1000, maxDelayMs: 60_000 };

export function isTransient(error: unknown): error is TransientFailure | PlatformNetworkError {
  return isTransientFailure(error) || error instanceof PlatformNetworkError;
}

/**
 * The pause before attempt `attempt + 1`, or null to stop: exponential with "equal jitter" (half
 * fixed, half random, so parallel workers spread out yet never hammer), and never shorter than
 * the platform's Retry-After.
 */
export function retryDelay(attempt: number, error: unknown, options: RetryOptions = {}): number | null {
  const { attempts, baseDelayMs, maxDelayMs } = { ...defaults, ...options };
  // A proxy silent for a whole limit will not answer a second later: the queue retries it with its longer backoff.
  if (!isTransient(error) || error instanceof PlatformTimeoutError || attempt >= attempts) return null;
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
  const jittered = ceiling / 2 + (options.random ?? Math.random)() * (ceiling / 2);
  const retryAfter = isTransientFailure(error) ? (error.retryAfterMs ?? 0) : 0;
  if (retryAfter > maxDelayMs) return null;
  return Math.round(Math.max(jittered, retryAfter));
}

/** Runs `work` until it succeeds, fails permanently, or runs out of attempts; rethrows the last error. */
export async function withRetry<T>(work: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      const pause = retryDelay(attempt, error, options);
      if (pause === null || options.signal?.aborted) throw error;
      await options.onRetry?.({ attempt, delayMs: pause, error });
      await sleep(pause, options.signal);
    }
  }
}
