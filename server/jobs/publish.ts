import { and, eq } from 'drizzle-orm';
import type { PostOptions } from '../../src/lib/contract';
import type { PostWait } from '../../src/lib/post-waits';
import { storedFailure, type PostFailure } from '../../src/lib/post-failures';
import { accounts, creationRequests, videoPosts, videos } from '../db/schema';
import {
  PermanentPlatformError,
  PlatformError,
  PostingCapError,
  ProfileAuthError,
  PublishStopped,
  StopRequested,
  TransientPlatformError,
} from '../platforms/errors';
import { PlatformNetworkError } from '../net/http';
import { recordAccessFailure } from '../platforms/connections';
import { profileContext } from '../platforms/profile-context';
import { connectors } from '../platforms/registry';
import { databaseProgressStore } from '../platforms/progress';
import { withRetry, type RetryOptions } from '../net/retry';
import { liveCapReader } from '../services/planning/posting-budget';
import { youtubeSpending } from '../services/statistics/quota-ledger';
import {
  awaitQuota,
  awaitReconnect,
  awaitRetry,
  claimPost,
  completePost,
  failPost,
  holdPost,
  publishJobName,
  recordNextAttempt,
  recordWait,
  type PublishJobData,
} from '../services/publishing/post-lifecycle';
import { publishKey, type Connector, type ConnectorContext, type Platform, type Published } from '../platforms/types';
import { stopCleanupMs } from '../platforms/client';
import type { JobContext } from './types';
import { DeferJob } from '../engine/runner';
import type { Cap } from '../platforms/types';
import { capOf, holdAfterRefusal, holdFor, type CapHold } from '../services/planning/posting-caps';
import { recordStopOutcome, stopRequested } from './publish-stops';
import { releaseLease, tryLease } from '../engine/liveness';
import { wordsOf } from '../../src/lib/post-texts';

/** Where pg-boss moves a publish job whose retries ran out, including one whose worker died. */
export const publishFailedJobName = 'publish-video-failed';

/** In-process retries of one run; longer waits (quotas, long Retry-After) reschedule the job instead. */
export const publishRetry: RetryOptions = { attempts: 4, baseDelayMs: 1000, maxDelayMs: 60_000 };
/** Hourly quota checks for two days, then the post fails rather than waiting forever. */
const maxRuns = 48;
/** A post whose profile is busy uploading to the same platform is woken when that upload ends, or after this. */
export const busyProfileWaitSeconds = 30;

/** What a failure is, as the post keeps it: the platform's kind and answer, the network's, or a generic one with the cause. */
export function failureOf(error: unknown): PostFailure {
  if (error instanceof PlatformError) return error.failure;
  if (error instanceof PlatformNetworkError) return { kind: error.failure };
  return { kind: 'gave_up', answer: (error as Error).message };
}

type Post = typeof videoPosts.$inferSelect;

/**
 * Publishes one video on one platform. Only the job holding the post's current token acts, and
 * only while the post is pending, so a duplicate, stale or repeated job publishes nothing; the
 * connector itself resumes saved progress or finds an upload whose answer was lost.
 * Transient failures are thrown for pg-boss to retry (the dead letter ends them), long waits are
 * rescheduled, and anything else fails the post with the platform's message.
 */
export async function publishPost(data: PublishJobData, context: JobContext): Promise<void> {
  const { db, jobId, engine } = context;
  const now = () => new Date(context.platforms.clock.now());
  const [waiting] = await db.orm
    .select({ accountId: videoPosts.accountId, platform: videoPosts.platform })
    .from(videoPosts)
    .where(and(eq(videoPosts.id, data.postId), eq(videoPosts.jobToken, data.token), eq(videoPosts.status, 'pending')));
  if (!waiting) return;
  // A delete of the post's request or profile is deciding: wait for its answer (see publish-stops.ts).
  if (await stopRequested(db, data.postId, now())) throw new DeferJob(1);
  // Platforms dislike parallel uploads from one account: one upload per profile and platform, across every worker.
  const lease = `upload:${waiting.accountId ?? `post-${data.postId}`}:${waiting.platform}`;
  if (!(await tryLease(db, lease, jobId, engine))) {
    // Woken as soon as the other upload ends; the fallback is the latest it will be tried.
    await recordWait(db, data, { kind: 'busy', detail: {} }, new Date(context.platforms.clock.now() + busyProfileWaitSeconds * 1000));
    throw new DeferJob(busyProfileWaitSeconds, lease);
  }
  try {
    const hold = await capHold(context, waiting);
    if (hold) return await holdAtCap(context, data, hold);
    await publishHoldingLease(data, context);
  } catch (error) {
    // Stopped by a delete, or published while one was deciding and deleted again (recordPublished).
    if (!(context.signal.reason instanceof StopRequested) && !(error instanceof PublishStopped)) throw error;
    await recordStopOutcome(db, data.postId, error instanceof PublishStopped && error.live ? 'live' : 'stopped', now());
    throw new DeferJob(1);
  } finally {
    await releaseLease(db, lease, jobId, publishJobName);
  }
}

type Account = typeof accounts.$inferSelect;

/** The cap that applies to a profile on a platform now; null where the platform cannot tell (Instagram unreachable). */
async function capNow({ db, keys, platforms }: JobContext, platform: Platform, account: Account): Promise<Cap | null> {
  const figure = await liveCapReader(db, { secretsKey: keys.secretsAtRest, platforms })(account, platform);
  return capOf(platform, account, figure, platforms.postingCaps);
}

/** Whether the post's profile has used up its cap on the platform, checked before any upload starts. */
async function capHold(context: JobContext, post: { accountId: number | null; platform: Platform }): Promise<CapHold | null> {
  if (post.accountId === null) return null;
  const [account] = await context.db.orm.select().from(accounts).where(eq(accounts.id, post.accountId));
  if (!account) return null;
  const cap = await capNow(context, post.platform, account);
  return cap ? holdFor(context.db, post.platform, cap, new Date(context.platforms.clock.now())) : null;
}

/** A post past a cap waits for its window to free; a cap is never a failure. */
async function holdAtCap({ db, queue, log, platforms }: JobContext, job: PublishJobData, cap: CapHold) {
  await holdPost(db, queue, job, cap, new Date(platforms.clock.now()));
  log.info({ postId: job.postId, until: cap.until, cap: cap.detail }, 'publish held by a posting cap');
}

async function publishHoldingLease({ postId, token }: PublishJobData, context: JobContext): Promise<void> {
  const { db, media, platforms } = context;
  const post = await claimPost(db, { postId, token }, new Date(platforms.clock.now()));
  if (!post) return;
  const fail = (failure: PostFailure) => failPost(db, post, token, failure, new Date(platforms.clock.now()));

  const [video] = await db.orm
    .select({
      fileKey: videos.fileKey,
      title: creationRequests.title,
      description: creationRequests.description,
      tags: creationRequests.tags,
    })
    .from(videos)
    .innerJoin(creationRequests, eq(creationRequests.id, videos.requestId))
    .where(eq(videos.id, post.videoId));
  const [account] = post.accountId === null ? [] : await db.orm.select().from(accounts).where(eq(accounts.id, post.accountId));
  if (!video) return;
  if (!account) return fail({ kind: 'profile_deleted' });
  const size = video.fileKey ? await media.storage.size(video.fileKey) : null;
  if (!video.fileKey || !size) return fail({ kind: 'file_missing' });

  // From a remote store the file is copied to this machine for the upload, and removed after it.
  const scratch = await media.storage.scratch();
  try {
    const file = await media.storage.localFile(video.fileKey, scratch);
    await uploadPost(context, post, token, account, { ...video, path: file, size });
  } finally {
    await scratch.dispose();
  }
}

async function uploadPost(
  context: JobContext,
  post: Post,
  token: string,
  account: Account,
  video: { path: string; size: number; title: string | null; description: string; tags: string[] },
): Promise<void> {
  const { db, log, keys, platforms, queue, signal, engine } = context;
  const postId = post.id;
  const connector = connectors[post.platform];
  const upload = {
    path: video.path,
    size: video.size,
    contentType: 'video/mp4',
    ...wordsOf(post, video),
    publishKey: publishKey(post.videoId, post.platform),
    options: { [post.platform]: post.options ?? {} } as PostOptions,
  };
  const progress = databaseProgressStore(db, platforms.clock);
  // The last attempt's context, credentials included, serves the calls after it: the profile may be gone by then.
  let attempt: ConnectorContext | undefined;
  let published: Published;
  try {
    published = await withRetry(
      async () => {
        attempt = {
          ...(await profileContext(account, post.platform, { db, secretsKey: keys.secretsAtRest, settings: platforms, progress })),
          signal,
          spendUnits: youtubeSpending(db, account, engine.statsSync, platforms.clock, log),
        };
        return connector.publish(attempt, upload);
      },
      {
        ...publishRetry,
        signal,
        sleep: platforms.clock.sleep,
        onRetry: async ({ attempt, delayMs, error }) => {
          log.warn({ postId, attempt, delayMs, err: error }, 'publish attempt failed, retrying');
          const retry: PostWait = { kind: 'retry', detail: { failure: failureOf(error) } };
          await recordWait(db, { postId, token }, retry, new Date(platforms.clock.now() + delayMs));
        },
      },
    );
  } catch (error) {
    if (signal.reason instanceof StopRequested) throw error;
    const failure = failureOf(error);
    const fail = () => failPost(db, post, token, failure, new Date(platforms.clock.now()));
    if (error instanceof ProfileAuthError) {
      const learnt = { accountId: account.id, platform: post.platform, source: 'publish', detail: error.detail } as const;
      await recordAccessFailure(db.sql, { ...learnt, at: new Date(platforms.clock.now()) });
      if (await awaitReconnect(db, post, token, new Date(platforms.clock.now()))) {
        log.info({ postId, accountId: account.id, platform: post.platform }, 'publish waits for the profile to be connected again');
        return;
      }
      return fail();
    }
    if (error instanceof PermanentPlatformError) return fail();
    if (error instanceof PostingCapError) {
      const cap = await capNow(context, post.platform, account);
      return holdAtCap(context, { postId, token }, await holdAfterRefusal(db, post.platform, cap, new Date(platforms.clock.now())));
    }
    const waitMs = error instanceof TransientPlatformError ? (error.retryAfterMs ?? 0) : 0;
    if (waitMs > publishRetry.maxDelayMs!) {
      if (post.attempts >= maxRuns) return fail();
      const now = new Date(platforms.clock.now());
      const at = new Date(now.getTime() + waitMs);
      await awaitQuota(db, queue, { postId, token }, { now, at }, failure);
      log.info({ postId, at }, 'publish rescheduled after the platform asked to wait');
      return;
    }
    await awaitRetry(db, { postId, token }, failure, new Date(platforms.clock.now()));
    throw error;
  }
  await recordPublished(context, post, token, account.id, published, {
    // The job's signal may fire at any moment now that a delete is deciding: the clean-up has its own.
    cleanup: () => ({ ...attempt!, signal: AbortSignal.timeout(stopCleanupMs) }),
    forgetProgress: () => progress.save(upload.publishKey, {}),
  });
}

/**
 * Records what the platform took; a publish that went through proves the profile's access on this
 * platform works again. An upload that completed while a delete of its post was deciding, or after
 * the delete took the post (a run that went on after its job was handed to another worker, which the
 * delete no longer waits for), must not stay online without a record: YouTube's copy is deleted
 * again, and the delete goes on; TikTok and Instagram have no call that deletes a post, so the post
 * is recorded and the delete refused with 409 (completePost), or, the post already gone, the video
 * is logged for the operator to remove by hand. A copy whose delete failed is kept like TikTok's.
 */
async function recordPublished(
  { db, log, platforms }: JobContext,
  post: Post,
  token: string,
  accountId: number,
  published: Published,
  { cleanup, forgetProgress }: { cleanup: () => ConnectorContext; forgetProgress: () => Promise<void> },
): Promise<void> {
  const connector = connectors[post.platform];
  const where = { postId: post.id, videoId: post.videoId, platform: post.platform, remoteId: published.remoteId, url: published.url };
  const record = (recordWhileStopping: boolean) =>
    completePost(db, post, token, accountId, published, { recordWhileStopping, at: new Date(platforms.clock.now()) });
  const completion = await record(!connector.deleteVideo);
  if (completion === 'done') return log.info(where, 'published');
  if (completion === 'stale') return;
  const deleted = await deleteAgain(connector, cleanup, published.remoteId).catch((error: unknown) => {
    log.warn({ ...where, err: error }, 'could not delete the video its deleted post published');
    return false;
  });
  if (completion === 'gone') {
    if (deleted) return log.warn(where, 'published after its post was deleted, and deleted again');
    return log.error(where, 'published after its post was deleted: remove it on the platform by hand');
  }
  if (!deleted) {
    await record(true);
    return log.info(where, 'published while its delete was deciding: recorded, and the delete refused');
  }
  // Should the delete be refused after all, the next run uploads again rather than find this copy.
  await forgetProgress();
  throw new PublishStopped(post.platform, false, `published while its delete was deciding: ${published.remoteId} deleted again`);
}

/** True once the platform's copy is deleted; false where the platform has no call for it. */
async function deleteAgain(connector: Connector, context: () => ConnectorContext, remoteId: string): Promise<boolean> {
  if (!connector.deleteVideo) return false;
  await connector.deleteVideo(context(), remoteId);
  return true;
}

/** pg-boss put a failed run back with its backoff: the post's wait gets that time. */
export async function markPublishRetried({ postId, token }: PublishJobData, at: Date, { db }: Pick<JobContext, 'db'>): Promise<void> {
  await recordNextAttempt(db, { postId, token }, at);
}

/** After the last pg-boss retry (or a worker that died on it): the post fails with the last failure it had. */
export async function markPublishFailed(
  { postId, token }: PublishJobData,
  { db, platforms }: Pick<JobContext, 'db' | 'platforms'>,
): Promise<void> {
  const [post] = await db.orm.select().from(videoPosts).where(eq(videoPosts.id, postId));
  if (!post) return;
  const failure: PostFailure = post.failure ? storedFailure(post.failure, post.failureDetail) : { kind: 'gave_up' };
  await failPost(db, post, token, failure, new Date(platforms.clock.now()));
}
