import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { PostOptions } from '../../src/lib/contract';
import { t } from '../../src/lib/i18n';
import type { PostWait } from '../../src/lib/post-waits';
import type { Database, RunSql } from '../db/connect';
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
import { PlatformNetworkError } from '../platforms/http';
import { clearPlatformFailure, recordPlatformFailure } from '../platforms/connections';
import { instagram } from '../platforms/instagram/connector';
import { profileContext } from '../platforms/profile-context';
import { connectors } from '../platforms/registry';
import { databaseProgressStore, memoryProgressStore } from '../platforms/progress';
import { withRetry, type RetryOptions } from '../platforms/retry';
import { youtubeSpending } from '../services/quota-ledger';
import { refreshVideoStatus } from '../services/video-status';
import { publishKey, type Platform } from '../platforms/types';
import { publishJobName, type JobContext } from './types';
import { DeferJob } from './engine';
import { instagramLimit } from '../platforms/instagram/caps';
import type { Cap } from '../platforms/types';
import { capOf, holdAfterRefusal, holdFor, type CapHold } from '../services/posting-caps';
import { recordStopOutcome, stopRequested } from './publish-stops';
import { releaseLease, tryLease } from './workers';

/** Where pg-boss moves a publish job whose retries ran out, including one whose worker died. */
export const publishFailedJobName = 'publish-video-failed';

export interface PublishJobData {
  postId: number;
  /** The post's job_token when the job was sent: a job whose token was replaced does nothing. */
  token: string;
}

/** In-process retries of one run; longer waits (quotas, long Retry-After) reschedule the job instead. */
export const publishRetry: RetryOptions = { attempts: 4, baseDelayMs: 1000, maxDelayMs: 60_000 };
/** Hourly quota checks for two days, then the post fails rather than waiting forever. */
const maxRuns = 48;
/** A post whose profile is busy uploading to the same platform is woken when that upload ends, or after this. */
export const busyProfileWaitSeconds = 30;

export const videoColumns = {
  youtube: { url: 'url_youtube', error: 'error' },
  instagram: { url: 'url_instagram', error: 'error_instagram' },
  tiktok: { url: 'url_tiktok', error: 'error_tiktok' },
} as const satisfies Record<Platform, { url: string; error: string }>;

/** Sends the job of a post at its scheduled time (at once when that has passed), in the caller's transaction if given. */
export async function sendPublishJob(boss: PgBoss, post: { id: number; token: string; scheduledAt: Date }, executeSql?: RunSql) {
  const data: PublishJobData = { postId: post.id, token: post.token };
  await boss.send(publishJobName, data, {
    ...(post.scheduledAt.getTime() > Date.now() ? { startAfter: post.scheduledAt } : {}),
    ...(executeSql ? { db: { executeSql } } : {}),
  });
}

/** What the operator reads for a failure: the platform's own Ukrainian message, or a generic one with the cause. */
function reasonOf(platform: Platform, error: unknown): string {
  if (error instanceof PlatformError) return error.message;
  const name = t.platform.names[platform];
  if (error instanceof PlatformNetworkError) return `${name}: ${error.message}`;
  return `${name}: ${t.platform.gaveUp} (${(error as Error).message})`;
}

type Post = typeof videoPosts.$inferSelect;

async function failPost(db: Database, post: Pick<Post, 'id' | 'videoId' | 'platform'>, token: string, reason: string) {
  await db.transaction(async (run) => {
    const { rows } = await run(
      `UPDATE video_posts SET status = 'error', error = $3, wait_kind = NULL, wait_detail = NULL, next_attempt_at = NULL, updated_at = now()
       WHERE id = $1 AND job_token = $2 AND status = 'pending' RETURNING id`,
      [post.id, token, reason],
    );
    if (rows.length === 0) return;
    await run(`UPDATE videos SET ${videoColumns[post.platform].error} = $2 WHERE id = $1`, [post.videoId, reason]);
    await refreshVideoStatus(run, post.videoId);
  });
}

/**
 * Publishes one video on one platform. Only the job holding the post's current token acts, and
 * only while the post is pending, so a duplicate, stale or repeated job publishes nothing; the
 * connector itself resumes saved progress or finds an upload whose answer was lost.
 * Transient failures are thrown for pg-boss to retry (the dead letter ends them), long waits are
 * rescheduled, and anything else fails the post with the platform's message.
 */
export async function publishPost(data: PublishJobData, context: JobContext): Promise<void> {
  const { db, jobId, engine } = context;
  const [waiting] = await db.orm
    .select({ accountId: videoPosts.accountId, platform: videoPosts.platform })
    .from(videoPosts)
    .where(and(eq(videoPosts.id, data.postId), eq(videoPosts.jobToken, data.token), eq(videoPosts.status, 'pending')));
  if (!waiting) return;
  // A delete of the post's request or profile is deciding: wait for its answer (see publish-stops.ts).
  if (await stopRequested(db, data.postId)) throw new DeferJob(1);
  // Platforms dislike parallel uploads from one account: one upload per profile and platform, across every worker.
  const lease = `upload:${waiting.accountId ?? `post-${data.postId}`}:${waiting.platform}`;
  if (!(await tryLease(db, lease, jobId, engine))) {
    // Woken as soon as the other upload ends; the fallback is the latest it will be tried.
    await waitFor(db, data, { kind: 'busy', detail: {} }, new Date(Date.now() + busyProfileWaitSeconds * 1000));
    throw new DeferJob(busyProfileWaitSeconds, lease);
  }
  try {
    const hold = await capHold(context, waiting);
    if (hold) return await holdPost(context, data, hold);
    await publishHoldingLease(data, context);
  } catch (error) {
    if (!(context.signal.reason instanceof StopRequested)) throw error;
    await recordStopOutcome(db, data.postId, error instanceof PublishStopped && error.live ? 'live' : 'stopped');
    throw new DeferJob(1);
  } finally {
    await releaseLease(db, lease, jobId, publishJobName);
  }
}

type Account = typeof accounts.$inferSelect;

/** The cap that applies to a profile on a platform now; null where the platform cannot tell (Instagram unreachable). */
async function capNow({ db, keys, platforms }: JobContext, platform: Platform, account: Account): Promise<Cap | null> {
  const figure =
    platform === 'instagram'
      ? await instagramLimit(String(account.id), async () =>
          instagram.publishingLimit(
            await profileContext(account, 'instagram', {
              db,
              secretsKey: keys.secretsAtRest,
              settings: platforms,
              progress: memoryProgressStore(),
            }),
          ),
        )
      : null;
  return capOf(platform, account, figure, platforms.postingCaps);
}

/** Whether the post's profile has used up its cap on the platform, checked before any upload starts. */
async function capHold(context: JobContext, post: { accountId: number | null; platform: Platform }): Promise<CapHold | null> {
  if (post.accountId === null) return null;
  const [account] = await context.db.orm.select().from(accounts).where(eq(accounts.id, post.accountId));
  if (!account) return null;
  const cap = await capNow(context, post.platform, account);
  return cap ? holdFor(context.db, post.platform, cap) : null;
}

/**
 * A post past a cap waits for its window to free: a new job at that time (same transaction rules
 * as reschedule), the reason said on the set's page, and no error — a cap is never a failure.
 */
async function holdPost({ db, queue, log }: JobContext, { postId, token }: PublishJobData, hold: CapHold) {
  const next = crypto.randomUUID();
  await db.transaction(async (run) => {
    const { rows } = await run(
      `UPDATE video_posts SET job_token = $3, scheduled_at = $4, next_attempt_at = $4, wait_kind = 'cap', wait_detail = $5,
              error = NULL, updated_at = now()
       WHERE id = $1 AND job_token = $2 AND status = 'pending' RETURNING id`,
      [postId, token, next, hold.until, JSON.stringify(hold.detail)],
    );
    if (rows.length > 0) await sendPublishJob(queue, { id: postId, token: next, scheduledAt: hold.until }, run);
  });
  log.info({ postId, until: hold.until, cap: hold.detail }, 'publish held by a posting cap');
}

async function publishHoldingLease({ postId, token }: PublishJobData, context: JobContext): Promise<void> {
  const { db, media } = context;
  const [post] = await db.orm
    .update(videoPosts)
    .set({
      attempts: sql`${videoPosts.attempts} + 1`,
      // From here on the post is the job's: its date and profile can no longer be changed (409).
      startedAt: sql`coalesce(${videoPosts.startedAt}, now())`,
      waitKind: null,
      waitDetail: null,
      nextAttemptAt: null,
      updatedAt: new Date(),
    })
    .where(and(eq(videoPosts.id, postId), eq(videoPosts.jobToken, token), eq(videoPosts.status, 'pending')))
    .returning();
  if (!post) return;

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
  const name = t.platform.names[post.platform];
  if (!video) return;
  if (!account) return failPost(db, post, token, `${name}: ${t.platform.profileDeleted}`);
  const size = video.fileKey ? await media.storage.size(video.fileKey) : null;
  if (!video.fileKey || !size) return failPost(db, post, token, `${name}: ${t.platform.fileMissing}`);

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
    title: video.title ?? '',
    description: video.description,
    tags: video.tags,
    publishKey: publishKey(post.videoId, post.platform),
    options: { [post.platform]: post.options ?? {} } as PostOptions,
  };
  const progress = databaseProgressStore(db);
  try {
    const published = await withRetry(
      async () =>
        connector.publish(
          {
            ...(await profileContext(account, post.platform, { db, secretsKey: keys.secretsAtRest, settings: platforms, progress })),
            signal,
            spendUnits: youtubeSpending(db, account, engine.statsSync, log),
          },
          upload,
        ),
      {
        ...publishRetry,
        signal,
        sleep: platforms.clock.sleep,
        onRetry: async ({ attempt, delayMs, error }) => {
          log.warn({ postId, attempt, delayMs, err: error }, 'publish attempt failed, retrying');
          const retry: PostWait = { kind: 'retry', detail: { reason: reasonOf(post.platform, error) } };
          await waitFor(db, { postId, token }, retry, new Date(platforms.clock.now() + delayMs));
        },
      },
    );
    await db.transaction(async (run) => {
      const { rows } = await run(
        `UPDATE video_posts SET status = 'done', remote_id = $3, url = $4, error = NULL, wait_kind = NULL, wait_detail = NULL, next_attempt_at = NULL,
                published_at = now(), updated_at = now()
         WHERE id = $1 AND job_token = $2 AND status = 'pending' RETURNING id`,
        [postId, token, published.remoteId, published.url],
      );
      if (rows.length === 0) return;
      const columns = videoColumns[post.platform];
      await run(`UPDATE videos SET ${columns.url} = $2, ${columns.error} = NULL WHERE id = $1`, [post.videoId, published.url]);
      // A publish that went through proves the profile's access on this platform works again.
      await clearPlatformFailure(run, account.id, post.platform);
      await refreshVideoStatus(run, post.videoId);
    });
    log.info({ postId, videoId: post.videoId, platform: post.platform, remoteId: published.remoteId }, 'published');
  } catch (error) {
    if (signal.reason instanceof StopRequested) throw error;
    const reason = reasonOf(post.platform, error);
    if (error instanceof ProfileAuthError) {
      await recordPlatformFailure(db.sql, account.id, post.platform, reason);
      if (await waitForReconnect(db, post, token)) {
        log.info({ postId, accountId: account.id, platform: post.platform }, 'publish waits for the profile to be connected again');
        return;
      }
      return failPost(db, post, token, reason);
    }
    if (error instanceof PermanentPlatformError) return failPost(db, post, token, reason);
    if (error instanceof PostingCapError) {
      const cap = await capNow(context, post.platform, account);
      return holdPost(context, { postId, token }, await holdAfterRefusal(db, post.platform, cap));
    }
    const waitMs = error instanceof TransientPlatformError ? (error.retryAfterMs ?? 0) : 0;
    if (waitMs > publishRetry.maxDelayMs!) {
      if (post.attempts >= maxRuns) return failPost(db, post, token, reason);
      await reschedule(db, queue, post, token, new Date(Date.now() + waitMs), reason);
      log.info({ postId, at: new Date(Date.now() + waitMs) }, 'publish rescheduled after the platform asked to wait');
      return;
    }
    // Kept as the reason the dead letter will give if every pg-boss retry fails the same way; the
    // wait's time is written once pg-boss has set it (markPublishRetried).
    await db.orm
      .update(videoPosts)
      .set({ error: reason, waitKind: 'retry', waitDetail: { reason }, nextAttemptAt: null, updatedAt: new Date() })
      .where(and(eq(videoPosts.id, postId), eq(videoPosts.jobToken, token), eq(videoPosts.status, 'pending')));
    throw error;
  }
}

/**
 * A grant the platform no longer honours, on a profile connected through the platform's consent
 * page: the post waits, with no next attempt, until the profile is connected again
 * (resumeWaitingPosts) or the post is cancelled; it counts as not started, so it can still be
 * moved or cancelled. False when the profile's access is not such a link: the post then fails.
 */
async function waitForReconnect(db: Database, post: Post, token: string): Promise<boolean> {
  const { rows } = await db.sql(
    `UPDATE video_posts SET wait_kind = 'reconnect', wait_detail = '{}', next_attempt_at = NULL, started_at = NULL, updated_at = now()
      WHERE id = $1 AND job_token = $2 AND status = 'pending'
        AND EXISTS (SELECT 1 FROM account_connections c
                     WHERE c.account_id = video_posts.account_id AND c.platform = $3 AND c.method = 'oauth' AND c.state = 'revoked')
      RETURNING id`,
    [post.id, token, post.platform],
  );
  return rows.length > 0;
}

/** The profile is connected to the platform again: its posts that waited for it go out at once, each with a new job. */
export async function resumeWaitingPosts(db: Database, queue: PgBoss, accountId: number, platform: Platform): Promise<number> {
  return db.transaction(async (run) => {
    const { rows } = await run(
      `SELECT id FROM video_posts
        WHERE account_id = $1 AND platform = $2 AND status = 'pending' AND wait_kind = 'reconnect' AND next_attempt_at IS NULL
        FOR UPDATE`,
      [accountId, platform],
    );
    for (const { id } of rows) {
      const token = crypto.randomUUID();
      await run(
        `UPDATE video_posts SET job_token = $2, wait_kind = NULL, wait_detail = NULL, error = NULL, updated_at = now() WHERE id = $1`,
        [id, token],
      );
      await sendPublishJob(queue, { id, token, scheduledAt: new Date() }, run);
    }
    return rows.length;
  });
}

async function reschedule(db: Database, queue: PgBoss, post: Post, token: string, at: Date, reason: string) {
  const next = crypto.randomUUID();
  await db.transaction(async (run) => {
    const { rows } = await run(
      `UPDATE video_posts SET job_token = $3, scheduled_at = $4, error = $5, wait_kind = 'quota', wait_detail = $6, next_attempt_at = $4,
              updated_at = now()
       WHERE id = $1 AND job_token = $2 AND status = 'pending' RETURNING id`,
      [post.id, token, next, at, reason, JSON.stringify({ reason })],
    );
    if (rows.length > 0) await sendPublishJob(queue, { id: post.id, token: next, scheduledAt: at }, run);
  });
}

/**
 * Why a pending post has not gone out yet and when it is tried next, for the set's page. Other
 * waits (caps, revoked grants, the platform's own) write the same columns; a post's next run clears them.
 */
export async function waitFor(db: Database, { postId, token }: PublishJobData, wait: PostWait, at: Date | null) {
  await db.sql(
    `UPDATE video_posts SET wait_kind = $3, wait_detail = $4, next_attempt_at = $5 WHERE id = $1 AND job_token = $2 AND status = 'pending'`,
    [postId, token, wait.kind, JSON.stringify(wait.detail), at],
  );
}

/** pg-boss put a failed run back with its backoff: the post's wait gets that time. */
export async function markPublishRetried({ postId, token }: PublishJobData, at: Date, { db }: Pick<JobContext, 'db'>): Promise<void> {
  await db.sql(`UPDATE video_posts SET next_attempt_at = $3 WHERE id = $1 AND job_token = $2 AND status = 'pending'`, [postId, token, at]);
}

/** After the last pg-boss retry (or a worker that died on it): the post fails with the last reason it had. */
export async function markPublishFailed({ postId, token }: PublishJobData, { db }: Pick<JobContext, 'db'>): Promise<void> {
  const [post] = await db.orm.select().from(videoPosts).where(eq(videoPosts.id, postId));
  if (!post) return;
  await failPost(db, post, token, post.error ?? `${t.platform.names[post.platform]}: ${t.platform.gaveUp}`);
}
