import type { PlatformName } from './contract';
import * as t from './i18n';
import { refusalText, type Refusal } from './posting-rules';
import { platformOf, platforms, type PlatformOf } from './platforms';

/**
 * Why a post failed, as video_posts stores it (failure and failure_detail, migration 0042): a kind
 * the code decides on, and beside it the platform's own answer (`answer`, its code and message
 * verbatim; `status`, its HTTP status) and whatever else the words need. A retry's or a quota's
 * wait keeps the failure that made it wait the same way (post-waits.ts). The sentence is made only
 * where the API answers, so rewording the catalog changes no stored row.
 */
export const failureKinds = [
  /** The platform refused the request itself; repeating it would fail the same way. */
  'rejected',
  'rate_limited',
  /** The platform answered its own posting cap (a post is held for it, never failed, unless its runs ran out). */
  'cap_refused',
  'unavailable',
  'processing_failed',
  'processing_timeout',
  'video_not_found',
  /** The profile's credentials are expired beyond refresh or revoked. */
  'auth_revoked',
  /** The grant given on the platform's consent page is gone: the profile is connected again there. */
  'grant_revoked',
  'not_connected',
  /** Live mode without the installation's app credentials for the platform (`variables` names them). */
  'app_missing',
  'secrets_unreadable',
  'instagram_token_missing',
  /** A posting rule refused the post (`refusal`, as the publish form words it, for `subject`). */
  'rule_refused',
  /** Network failures, by whose fault they are (server/net/http.ts). */
  'network',
  'proxy_unreachable',
  'proxy_auth',
  'proxy_not_public',
  'timed_out',
  'profile_deleted',
  'file_missing',
  /** Something no platform answer explains; `answer` keeps its message. */
  'gave_up',
  /** A sentence stored before failures were kinds that none of the catalog's words matched (`text`, as it was). */
  'unknown',
] as const;

export type FailureKind = (typeof failureKinds)[number];

/** The kinds whose words are the kind's summary and the platform's answer, if any. */
export type AnsweredFailureKind = Exclude<FailureKind, 'rule_refused' | 'app_missing' | 'unknown'>;

export type PostFailure =
  | { kind: AnsweredFailureKind; answer?: string; status?: number }
  | { kind: 'rule_refused'; refusal: Refusal; subject: string }
  | { kind: 'app_missing'; variables: string }
  | { kind: 'unknown'; text: string };

// Functions, so that the words are the catalog's when the answer is made.
const summaries: Record<AnsweredFailureKind, (platform: PlatformName) => string> = {
  rejected: () => t.platform.rejected,
  rate_limited: () => t.platform.rateLimited,
  cap_refused: () => t.platform.quotaExceeded,
  unavailable: () => t.platform.unavailable,
  processing_failed: () => t.platform.processingFailed,
  processing_timeout: () => t.platform.processingTimeout,
  video_not_found: () => t.platform.videoNotFound,
  auth_revoked: () => t.platform.authRevoked,
  grant_revoked: (platform) => t.connections.revoked(t.platform.names[platform]),
  not_connected: () => t.platform.notConnected,
  secrets_unreadable: () => t.accountForm.secretsUnreadable,
  instagram_token_missing: () => t.platform.instagramTokenMissing,
  network: () => t.platform.networkFailed,
  proxy_unreachable: () => t.platform.proxyUnreachable,
  proxy_auth: () => t.platform.proxyAuthFailed,
  proxy_not_public: () => t.platform.proxyNotPublic,
  timed_out: () => t.platform.timedOut,
  profile_deleted: () => t.platform.profileDeleted,
  file_missing: () => t.platform.fileMissing,
  gave_up: () => t.platform.gaveUp,
};

/** What a failure says without its platform's name: the catalog's words for its kind (read now, not when it was stored). */
function summaryOf(platform: PlatformName, failure: PostFailure): string {
  switch (failure.kind) {
    case 'rule_refused':
      return refusalText(failure.refusal, failure.subject);
    case 'app_missing':
      return t.connections.appMissing(t.platform.names[platform], failure.variables);
    case 'unknown':
      return failure.text;
    default:
      return summaries[failure.kind](platform);
  }
}

/** The sentence a failure gives: 'TikTok: what happened (the platform's own words)', as splitError (platform-error.ts) reads it. */
export function failureText(platform: PlatformName, failure: PostFailure): string {
  if (failure.kind === 'unknown') return failure.text;
  const answer = 'answer' in failure && failure.answer ? ` (${failure.answer})` : '';
  return `${t.platform.names[platform]}: ${summaryOf(platform, failure)}${answer}`;
}

/** A failure as two columns hold it: the kind, and the rest as data. */
export function failureColumns({ kind, ...detail }: PostFailure): { kind: FailureKind; detail: Record<string, unknown> } {
  return { kind, detail };
}

/** A failure read back from its two columns. */
export const storedFailure = (kind: FailureKind, detail: unknown): PostFailure => ({ ...(detail as object), kind }) as PostFailure;

/** A video's failed post, as the lists read it from video_posts: its platform, failure and failure_detail. */
export interface FailedPost {
  platform: PlatformName;
  kind: FailureKind;
  detail: unknown;
}

/** SPEC's field for a platform's failure on a video (`error`, `errorTiktok`…), from its descriptor. */
type ErrorField = PlatformOf['fields']['error'];

/** SPEC's `error`, `errorTiktok`, `errorInstagram`… of a video. */
export type VideoErrors = Record<ErrorField, string | null>;

const noErrors = (): VideoErrors => Object.fromEntries(platforms.map((platform) => [platform.fields.error, null])) as VideoErrors;

/** A video's error fields, worded from its failed posts; null where a platform's did not fail. */
export function videoErrors(failed: readonly FailedPost[] | null): VideoErrors {
  const errors = noErrors();
  for (const post of failed ?? [])
    errors[platformOf(post.platform).fields.error] = failureText(post.platform, storedFailure(post.kind, post.detail));
  return errors;
}

/** A video's error fields from its posts as the lists answer them, each failed post's `error` already worded by failureText. */
export function videoErrorsOf(posts: readonly { platform: PlatformName; error: string | null }[]): VideoErrors {
  const errors = noErrors();
  for (const post of posts) if (post.error !== null) errors[platformOf(post.platform).fields.error] = post.error;
  return errors;
}
