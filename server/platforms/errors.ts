import { failureText, type AnsweredFailureKind, type PostFailure } from '../../src/lib/post-failures';
import type { TransientFailure } from '../net/retry';
import type { Platform } from './types';

/** What went wrong, as a failure's kind (src/lib/post-failures.ts), with what its words need beyond the platform's answer. */
export type FailureCause = AnsweredFailureKind | Exclude<PostFailure, { kind: AnsweredFailureKind } | { kind: 'unknown' }>;

/**
 * How a platform failure is handled decides its class: the retry helper retries
 * TransientPlatformError (and PlatformNetworkError from server/net/http.ts), the publish job marks the
 * profile `error` on ProfileAuthError, and anything else ends the video as `error`.
 * `failure` is what a post stores (a kind, the platform's own words kept beside it); `message`
 * words it in Ukrainian for the logs and the answers made from the error at once.
 */
export abstract class PlatformError extends Error {
  readonly failure: PostFailure;

  constructor(
    readonly platform: Platform,
    cause: FailureCause,
    /** The platform's own message, kept verbatim for the operator and the logs. */
    readonly detail: string,
    readonly status?: number,
  ) {
    const failure: PostFailure = {
      ...(typeof cause === 'string' ? { kind: cause } : cause),
      ...(detail ? { answer: detail } : {}),
      ...(status === undefined ? {} : { status }),
    };
    super(failureText(platform, failure));
    this.failure = failure;
  }
}

/** Worth another attempt: rate limits, 5xx, quota resets, processing still under way. */
export class TransientPlatformError extends PlatformError implements TransientFailure {
  constructor(
    platform: Platform,
    cause: FailureCause,
    detail: string,
    status?: number,
    /** The platform's Retry-After, or how long a daily limit needs; the retry helper waits at least this. */
    readonly retryAfterMs?: number,
  ) {
    super(platform, cause, detail, status);
  }

  /** What the retry helper (server/net/retry.ts) retries; a getter, so the logs do not carry it. */
  get transient(): true {
    return true;
  }
}

/**
 * A posting cap answered by the platform itself (Instagram 9/2207042, TikTok
 * spam_risk_too_many_posts, YouTube's quota reasons): the publish job holds the post until the
 * window frees instead of failing it (server/services/planning/posting-caps.ts).
 */
export class PostingCapError extends TransientPlatformError {
  constructor(platform: Platform, detail: string, status: number) {
    super(platform, 'cap_refused', detail, status, quotaRetryMs);
  }
}

/** The platform refused the request itself; repeating it would fail the same way. */
export class PermanentPlatformError extends PlatformError {}

/** The profile's credentials are expired beyond refresh or revoked: the profile needs reconnecting. */
export class ProfileAuthError extends PlatformError {
  constructor(
    platform: Platform,
    detail: string,
    status?: number,
    cause: 'auth_revoked' | 'grant_revoked' | 'not_connected' = 'auth_revoked',
  ) {
    super(platform, cause, detail, status);
  }
}

/**
 * The wait an answer's Retry-After asks for: delay-seconds, or an HTTP date (RFC 9110 §10.2.3) read
 * against the answer's own Date header, so neither clock's drift from the other counts.
 */
export function retryAfterOf(headers: Headers): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const until = Date.parse(value);
  const sent = Date.parse(headers.get('date') ?? '');
  return Number.isNaN(until) || Number.isNaN(sent) ? undefined : Math.max(0, until - sent);
}

/** Daily posting and API quotas reset once a day; checking again hourly costs one cheap call. */
export const quotaRetryMs = 60 * 60 * 1000;

/** The common answers of every platform, by HTTP status, once its own error codes are read. */
export function errorForStatus(platform: Platform, status: number, detail: string, headers: Headers): PlatformError {
  if (status === 401) return new ProfileAuthError(platform, detail, status);
  if (status === 429) {
    return new TransientPlatformError(platform, 'rate_limited', detail, status, retryAfterOf(headers));
  }
  if (status >= 500 || status === 408) {
    return new TransientPlatformError(platform, 'unavailable', detail, status, retryAfterOf(headers));
  }
  return new PermanentPlatformError(platform, 'rejected', detail, status);
}

/**
 * The abort reason of a publish whose post is being deleted. Unlike an expiry or a shutdown,
 * which resume later, it asks the connector to make sure nothing goes live (see PublishStopped).
 */
export class StopRequested extends Error {
  constructor() {
    super('its post is being deleted');
  }
}

/**
 * How a publish ended when asked to stop: `live` when it was already past the point where the
 * platform posts the video on its own (or that could not be ruled out), else nothing will appear.
 */
export class PublishStopped extends Error {
  constructor(
    readonly platform: Platform,
    readonly live: boolean,
    detail: string,
  ) {
    super(`${platform} publish stopped (${live ? 'going live regardless' : 'nothing goes live'}): ${detail}`);
  }
}
