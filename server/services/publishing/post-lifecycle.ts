import { platformOf, platforms as allPlatforms } from '../../../src/lib/platforms';
import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { t } from '../../messages';
import type { PostWait } from '../../../src/lib/post-waits';
import { failureColumns, failureText, type PostFailure } from '../../../src/lib/post-failures';
import type { Database, RunSql } from '../../db/connect';
import { videoPosts } from '../../db/schema';
import { HttpError } from '../../http-error';
import { recordConnection } from '../../platforms/connections';
import type { Platform } from '../../platforms/types';
import { accountOption } from '../profiles/account-views';
import type { CapHold } from '../planning/posting-caps';
import { planMove, type Move, type PlannedVideo, type PlatformFlags } from './publication-plan';
import { noteSetPosts } from './set-notices';
import { raisePostAlert } from '../../alerts/buckets';
import { refreshVideoStatus } from './video-status';
import { ownWords, type PlatformTexts, type PostText } from '../../../src/lib/post-texts';
import { ownWordsOf, refillWords } from './post-words';

/**
 * Every change of a post (a `video_posts` row), by name: a publication plans its posts, a move
 * replans them, a cancel or a retry is the operator's, and the publish job claims a post, then
 * completes, fails, holds it or makes it wait; an edit of a published set's texts goes to its
 * YouTube posts. Each is one guarded statement or one transaction, and each that changes what a
 * post is refreshes its video's status in the same transaction (and, when a post went out, failed or
 * was held, its set's entry in the bell: services/publishing/set-notices.ts, and its owner's alert at `at`,
 * the clock's time: alerts/buckets.ts). A publish job acts only while the
 * post holds the job's token and is pending: a job whose token was replaced (a move, a cancel, a
 * hold, a resume) changes nothing. Stopping uploads before a delete (jobs/publish-stops.ts) writes
 * stop requests, not posts: the posts go with what is deleted; a completed upload is recorded only
 * with those requests in view (completePost).
 */

/**
 * The publish queue. The stop of uploads in flight (jobs/publish-stops.ts) looks for its active
 * jobs, a move or a cancel removes its queued ones, and the publish job runs them.
 */
export const publishJobName = 'publish-video';

/**
 * The condition on a publish_stops row that its delete still stands behind it at `moment` (the
 * clock's time, as the statement's parameter that holds it, e.g. '$2'): one older than three
 * minutes was left by a delete whose process died, and holds nothing back any more.
 */
export const freshStop = (moment: string) => `requested_at > ${moment}::timestamptz - make_interval(secs => 180)`;

export interface PublishJobData {
  postId: number;
  /** The post's job_token when the job was sent: a job whose token was replaced does nothing. */
  token: string;
}

/** The queue of edits carried to published posts (jobs/edit-published.ts). */
export const editPublishedJobName = 'edit-published-video';

export interface EditPublishedJobData {
  postId: number;
}

type Post = typeof videoPosts.$inferSelect;

/**
 * Sends the job of a post in the caller's transaction: at `when.at` if that is still ahead of
 * `when.now`, the app's clock, else at once.
 *
 * A date already due is not handed to pg-boss, which judges `startAfter` by its database's own
 * now(): under an injected clock that runs ahead, a post due by the app would wait for the
 * database's time to catch up.
 */
export async function sendPublishJob(boss: PgBoss, post: { id: number; token: string }, run: RunSql, when?: { at: Date; now: Date }) {
  const { data, startAfter } = publishJobOf(post, when);
  await boss.send(publishJobName, data, { ...(startAfter ? { startAfter } : {}), db: { executeSql: run } });
}

/** A post's job: its data, and when it is to start if that is still ahead. */
function publishJobOf(post: { id: number; token: string }, when?: { at: Date; now: Date }) {
  const data: PublishJobData = { postId: post.id, token: post.token };
  const ahead = when !== undefined && when.at.getTime() > when.now.getTime();
  return { data, startAfter: ahead ? when.at : null };
}

/**
 * The jobs of many posts in one statement (pg-boss's insert), each as sendPublishJob sends it: the
 * same data and start, no singleton key, the queue's own retries, expiry and retention.
 */
export async function sendPublishJobs(boss: PgBoss, posts: { id: number; token: string; at: Date }[], run: RunSql, now: Date) {
  if (posts.length === 0) return;
  const jobs = posts.map((post) => {
    const { data, startAfter } = publishJobOf(post, { at: post.at, now });
    return { name: publishJobName, data, ...(startAfter ? { startAfter } : {}) };
  });
  await boss.insert(jobs, { db: { executeSql: run } });
}

/**
 * Writes a publication's plan (services/publishing/publication-plan.ts) and queues its posts. Only a request
 * still in `success` is taken: of two publishes at once, the second finds it published once the
 * first commits, and its whole transaction is undone. A post already out stays as it is. Answers
 * how many posts were queued.
 */
export async function planPosts(
  db: Database,
  queue: PgBoss,
  requestId: number,
  texts: { title: string; description: string; tags: string[] },
  flags: PlatformFlags,
  plan: PlannedVideo[],
  now: Date,
  words: {
    /** The publish's `texts` as typed, kept for the posts a move or a restore fills again; null when it gave none. */
    platformTexts: PlatformTexts | null;
    /** Each post's final words (services/publishing/post-words.ts), by video and platform; the post keeps those that are not the set's. */
    posts: Map<number, Map<Platform, PostText>>;
  },
): Promise<number> {
  const sent: { id: number; token: string; scheduledAt: Date }[] = [];
  await db.transaction(async (run) => {
    // Each platform's tick in its column (in_youtube…), from $6 on.
    const ticks = allPlatforms.map((platform, index) => `${platform.columns.ticked} = $${index + 7}`).join(', ');
    const { rows: taken } = await run(
      `UPDATE creation_requests SET title = $2, description = $3, tags = $4, published_at = $5, updated_at = $5,
         platform_texts = $6::jsonb, status = 'published', ${ticks}
        WHERE id = $1 AND status = 'success' RETURNING id`,
      [
        requestId,
        texts.title,
        texts.description,
        texts.tags,
        now,
        words.platformTexts && JSON.stringify(words.platformTexts),
        ...allPlatforms.map((platform) => flags[platform.fields.ticked] === true),
      ],
    );
    if (taken.length === 0) throw new HttpError(409, t.publish.alreadyPublished);
    for (const item of plan) {
      // Posts still waiting for a platform the video no longer goes to are dropped; published ones stay.
      await run(`DELETE FROM video_posts WHERE video_id = $1 AND status <> 'done' AND NOT (platform = ANY($2::text[]))`, [
        item.videoId,
        item.platforms,
      ]);
      for (const platform of item.platforms) {
        const token = crypto.randomUUID();
        const own = ownWords(words.posts.get(item.videoId)?.get(platform) ?? texts, texts);
        const { rows: upserted } = await run(
          `INSERT INTO video_posts (video_id, platform, account_id, scheduled_at, job_token, options, title, description, tags)
           VALUES ($1, $2, $3, $4, $5, $6::jsonb, $8, $9, $10)
           ON CONFLICT (video_id, platform) DO UPDATE SET account_id = EXCLUDED.account_id,
             scheduled_at = EXCLUDED.scheduled_at, job_token = EXCLUDED.job_token, status = 'pending',
             failure = NULL, failure_detail = NULL, attempts = 0, options = EXCLUDED.options, title = EXCLUDED.title,
             description = EXCLUDED.description, tags = EXCLUDED.tags, updated_at = $7
           WHERE video_posts.status <> 'done'
           RETURNING id`,
          [
            item.videoId,
            platform,
            item.accountId,
            item.scheduledAt,
            token,
            JSON.stringify(item.options.get(platform)),
            now,
            own.title,
            own.description,
            own.tags,
          ],
        );
        if (upserted.length > 0) sent.push({ id: upserted[0].id, token, scheduledAt: item.scheduledAt });
      }
      await run(`UPDATE videos SET account_id = $2, date = $3, publish_note = $4 WHERE id = $1`, [
        item.videoId,
        item.accountId,
        item.scheduledAt,
        item.note,
      ]);
      await refreshVideoStatus(run, item.videoId);
    }
    for (const post of sent) await sendPublishJob(queue, post, run, { at: post.scheduledAt, now });
  });
  return sent.length;
}

async function lockedVideo(run: RunSql, requestId: number, videoId: number) {
  const { rows } = await run('SELECT id, account_id FROM videos WHERE id = $1 AND request_id = $2 FOR UPDATE', [videoId, requestId]);
  if (rows.length === 0) throw new HttpError(404, t.server.notFound);
  return rows[0] as { id: number; account_id: number | null };
}

/**
 * The posts of a video that still wait unstarted (or its one post on `platform`), locked: the job
 * claims a post with an UPDATE of the same row (setting started_at), so a move or a cancel either
 * runs before the claim (whose token no longer matches: the stale job does nothing) or sees it
 * started and is refused.
 */
async function scheduledPosts(run: RunSql, videoId: number, platform?: Platform) {
  const { rows: posts } = await run(
    `SELECT id, platform, account_id, status, started_at, scheduled_at, options FROM video_posts
      WHERE video_id = $1 AND ($2::text IS NULL OR platform = $2) ORDER BY id FOR UPDATE`,
    [videoId, platform ?? null],
  );
  const named = platform && t.platform.names[platform];
  if (posts.length === 0) throw new HttpError(409, named ? t.postTruth.postNotScheduled(named) : t.postTruth.nothingScheduled);
  if (posts.some((post) => post.status !== 'pending' || post.started_at !== null)) {
    throw new HttpError(409, named ? t.postTruth.postAlreadyStarted(named) : t.postTruth.alreadyStarted);
  }
  // Their queued jobs go with them; a job already fetched finds its token replaced and does nothing.
  await run(`DELETE FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry') AND (data->>'postId')::int = ANY($2::int[])`, [
    publishJobName,
    posts.map((post) => post.id),
  ]);
  return posts.map((post) => ({
    id: post.id as number,
    platform: post.platform as Platform,
    accountId: post.account_id as number | null,
    scheduledAt: new Date(post.scheduled_at),
    options: post.options,
  }));
}

/** A post a cancel removed, as `videos.cancelled_posts` keeps it for the undo. */
interface CancelledPost {
  platform: Platform;
  accountId: number | null;
  scheduledAt: string;
  options: unknown;
  /** When it was cancelled: the undo of a whole video puts back the posts of its latest cancel, not an earlier one's. */
  cancelledAt?: string;
}

/**
 * Moves a scheduled video of the request to another date and/or profile until its publication
 * starts (planMove says where): each post gets a new token and job, sent in the same transaction
 * that removed the old job.
 */
export async function replanPosts(
  db: Database,
  queue: PgBoss,
  requestId: number,
  move: Omit<Move, 'accountId' | 'posts'>,
  now: Date,
): Promise<void> {
  const { videoId } = move;
  await db.transaction(async (run) => {
    const video = await lockedVideo(run, requestId, videoId);
    const posts = await scheduledPosts(run, videoId);
    const { accountId, scheduledAt, options, note } = planMove({ ...move, accountId: video.account_id, posts });
    const own = await ownWordsOf(
      run,
      posts.map((post) => post.id),
    );
    await run(`DELETE FROM video_posts WHERE video_id = $1`, [videoId]);
    const moved: number[] = [];
    for (const [platform, chosen] of options) {
      const token = crypto.randomUUID();
      const { rows } = await run(
        `INSERT INTO video_posts (video_id, platform, account_id, scheduled_at, job_token, options)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING id`,
        [videoId, platform, accountId, scheduledAt, token, JSON.stringify(chosen)],
      );
      moved.push(rows[0].id);
      await sendPublishJob(queue, { id: rows[0].id, token }, run, { at: scheduledAt, now });
    }
    // Its words name its new profile and date, but a post's own words (an imported row's) stay its own.
    await refillWords(run, moved, own);
    await run(`UPDATE videos SET account_id = $2, date = $3 WHERE id = $1`, [videoId, accountId, scheduledAt]);
    if (note !== undefined) await run(`UPDATE videos SET publish_note = $2 WHERE id = $1`, [videoId, note]);
    await refreshVideoStatus(run, videoId);
  });
}

/**
 * Moves one post of a video (its post on `platform`) to `at`, the video's other posts staying
 * where they are (issue 40.1: a move acts on the post it names). The profile stays the video's:
 * a post goes where its video goes. The post gets a new token and job, sent in the transaction
 * that removed the old job, and loses any wait it had; the video's date becomes its earliest post
 * still to go.
 */
export async function movePost(
  db: Database,
  queue: PgBoss,
  requestId: number,
  { videoId, platform, at }: { videoId: number; platform: Platform; at: Date },
  now: Date,
): Promise<void> {
  await db.transaction(async (run) => {
    await lockedVideo(run, requestId, videoId);
    const [post] = await scheduledPosts(run, videoId, platform);
    const own = await ownWordsOf(run, [post!.id]);
    const token = crypto.randomUUID();
    const { rows } = await run(
      // A post held (a cap, a quota) or waiting to be tried again starts afresh at its new time, as a moved video's posts do.
      `UPDATE video_posts SET scheduled_at = $3, job_token = $4, wait_kind = NULL, wait_detail = NULL, next_attempt_at = NULL,
              attempts = 0, updated_at = $5
        WHERE video_id = $1 AND platform = $2 RETURNING id`,
      [videoId, platform, at, token, now],
    );
    await sendPublishJob(queue, { id: rows[0].id, token }, run, { at, now });
    await refillWords(run, [rows[0].id], own);
    await run(
      `UPDATE videos SET date = (SELECT min(scheduled_at) FROM video_posts WHERE video_id = $1 AND status = 'pending') WHERE id = $1`,
      [videoId],
    );
    await refreshVideoStatus(run, videoId);
  });
}

/**
 * Cancels a scheduled video's publication before it starts, or (`platform`) its post on that
 * platform alone, the others going out as planned: the posts and their jobs go at once, and the
 * video keeps them as they were for restorePosts, beside any it kept from an earlier cancel. A
 * video with no post left is 'cancelled'.
 *
 * The undo is a restore on the server rather than a cancel the page holds back for its 10 s: held
 * in the page, a closed tab or a lost connection would leave the post scheduled while the operator
 * had read 'Скасовано', every other list would show it scheduled meanwhile, and a post due within
 * those seconds would go out. Cancelled at once, every list says 'Скасовано' from the answer on, and
 * nothing depends on the page staying open.
 */
export async function cancelPosts(
  db: Database,
  requestId: number,
  { videoId, platform }: { videoId: number; platform?: Platform },
  at: Date,
): Promise<void> {
  await db.transaction(async (run) => {
    await lockedVideo(run, requestId, videoId);
    const posts = await scheduledPosts(run, videoId, platform);
    const platforms = posts.map((post) => post.platform);
    const cancelledAt = at.toISOString();
    const earlier = (await keptPosts(run, videoId)).filter((post) => !platforms.includes(post.platform));
    const kept: CancelledPost[] = posts.map((post) => ({ ...post, scheduledAt: post.scheduledAt.toISOString(), cancelledAt }));
    await run(`DELETE FROM video_posts WHERE video_id = $1 AND platform = ANY($2::text[])`, [videoId, platforms]);
    await run(`UPDATE videos SET cancelled_posts = $2::jsonb WHERE id = $1`, [videoId, JSON.stringify([...earlier, ...kept])]);
    await refreshVideoStatus(run, videoId);
  });
}

async function keptPosts(run: RunSql, videoId: number): Promise<CancelledPost[]> {
  const { rows } = await run(`SELECT cancelled_posts FROM videos WHERE id = $1`, [videoId]);
  return (rows[0]?.cancelled_posts ?? []) as CancelledPost[];
}

/**
 * Puts back what a cancel took, as it was: the post on `platform`, or without one the posts of
 * the video's latest cancel (an earlier cancel's stay cancelled): the same platforms, profile, date
 * and options, each post with a new token and job (at once when its date passed meanwhile, as it
 * would have gone). Refused when nothing was kept or the profile was deleted since.
 */
export async function restorePosts(
  db: Database,
  queue: PgBoss,
  requestId: number,
  { videoId, platform }: { videoId: number; platform?: Platform },
  now: Date,
): Promise<void> {
  await db.transaction(async (run) => {
    await lockedVideo(run, requestId, videoId);
    const { rows: present } = await run(`SELECT platform FROM video_posts WHERE video_id = $1`, [videoId]);
    // A platform posted again since (a move to a profile that has it) is no longer the cancel's to put back.
    const kept = (await keptPosts(run, videoId)).filter((post) => !present.some((row) => row.platform === post.platform));
    const latest = kept.reduce((last, post) => ((post.cancelledAt ?? '') > last ? (post.cancelledAt ?? '') : last), '');
    const chosen = kept.filter((post) => (platform ? post.platform === platform : (post.cancelledAt ?? '') === latest));
    if (chosen.length === 0) {
      throw new HttpError(409, platform ? t.postTruth.postNothingCancelled(t.platform.names[platform]) : t.postTruth.nothingCancelled);
    }
    const profiles = [...new Set(chosen.map((post) => post.accountId))];
    const { rows: found } = await run(`SELECT id FROM accounts WHERE id = ANY($1::int[])`, [profiles]);
    if (found.length !== profiles.length) throw new HttpError(409, t.postTruth.restoreProfileDeleted);
    for (const post of chosen) {
      const token = crypto.randomUUID();
      const scheduledAt = new Date(post.scheduledAt);
      const { rows: inserted } = await run(
        `INSERT INTO video_posts (video_id, platform, account_id, scheduled_at, job_token, options)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING id`,
        [videoId, post.platform, post.accountId, scheduledAt, token, JSON.stringify(post.options)],
      );
      await sendPublishJob(queue, { id: inserted[0].id, token }, run, { at: scheduledAt, now });
      await refillWords(run, [inserted[0].id]);
    }
    const left = kept.filter((post) => !chosen.includes(post));
    await run(`UPDATE videos SET cancelled_posts = $2::jsonb WHERE id = $1`, [videoId, left.length > 0 ? JSON.stringify(left) : null]);
    await refreshVideoStatus(run, videoId);
  });
}

/** Publishes a failed video of the request again: its failed posts go back to pending, as they were, at once. */
export async function retryPosts(db: Database, queue: PgBoss, requestId: number, videoId: number, now: Date): Promise<void> {
  await db.transaction(async (run) => {
    const { rows: video } = await run('SELECT id FROM videos WHERE id = $1 AND request_id = $2 FOR UPDATE', [videoId, requestId]);
    if (video.length === 0) throw new HttpError(404, t.server.notFound);
    // A retry bound to fail again is refused with the reason: the profile is gone, or its access
    // on that platform failed and has not been restored (a publish or a profile check clears it).
    const { rows: failed } = await run(
      `SELECT p.platform, a.id AS account_id, a.comments, a.youtube_login, a.instagram_login,
              EXISTS (SELECT 1 FROM connection_states AS s WHERE s.account_id = p.account_id AND s.platform = p.platform
                         AND s.state = 'down' AND s.kind IN ('revoked', 'refused')) AS failing
         FROM video_posts AS p LEFT JOIN accounts AS a ON a.id = p.account_id
        WHERE p.video_id = $1 AND p.status = 'error'`,
      [videoId],
    );
    for (const post of failed) {
      const platform = t.platform.names[post.platform as Platform];
      if (post.account_id === null) throw new HttpError(409, t.postTruth.retryProfileDeleted);
      if (post.failing) {
        const { title } = accountOption({
          id: post.account_id,
          comments: post.comments,
          youtubeLogin: post.youtube_login,
          instagramLogin: post.instagram_login,
        });
        throw new HttpError(409, t.postTruth.retryRevoked(title, platform));
      }
    }
    const { rows: posts } = await run(
      `UPDATE video_posts SET status = 'pending', job_token = gen_random_uuid(), scheduled_at = $2, failure = NULL, failure_detail = NULL,
         attempts = 0, started_at = NULL, wait_kind = NULL, wait_detail = NULL, next_attempt_at = NULL, updated_at = $2
       WHERE video_id = $1 AND status = 'error' RETURNING id, platform, job_token, scheduled_at`,
      [videoId, now],
    );
    if (posts.length === 0) throw new HttpError(409, t.publish.nothingToRetry);
    await refreshVideoStatus(run, videoId);
    for (const post of posts) {
      await sendPublishJob(queue, { id: post.id, token: post.job_token }, run);
    }
  });
}

/**
 * The publish job takes its post: one more attempt, and from here on the post is the job's, so
 * its date and profile can no longer be changed (409). Undefined when the job's token was
 * replaced or the post is no longer pending.
 */
export async function claimPost(db: Database, { postId, token }: PublishJobData, at: Date): Promise<Post | undefined> {
  const [post] = await db.orm
    .update(videoPosts)
    .set({
      attempts: sql`${videoPosts.attempts} + 1`,
      startedAt: sql`coalesce(${videoPosts.startedAt}, ${at})`,
      waitKind: null,
      waitDetail: null,
      nextAttemptAt: null,
      updatedAt: at,
    })
    .where(and(eq(videoPosts.id, postId), eq(videoPosts.jobToken, token), eq(videoPosts.status, 'pending')))
    .returning();
  return post;
}

/**
 * How a completed upload was recorded: `done`, out at its address; `stopping`, not recorded because
 * a delete of the post is deciding; `gone`, the post deleted meanwhile; `stale`, the post no longer
 * this job's (another run recorded it, or its token was replaced).
 */
export type Completion = 'done' | 'stopping' | 'gone' | 'stale';

/**
 * The platform took the post: it is out, at its address, and the profile's access on that platform
 * works again. Not while a delete of the post is deciding (jobs/publish-stops.ts), which would
 * otherwise delete the record and leave the video online: the answer is `stopping`, so the caller
 * takes the copy back off the platform; or, with `recordWhileStopping` (a platform with no call that
 * deletes a post), the post is recorded and the stop answered 'live', so the delete is refused.
 */
export async function completePost(
  db: Database,
  post: Pick<Post, 'id' | 'videoId' | 'platform'>,
  token: string,
  accountId: number,
  published: { remoteId: string; url: string },
  { recordWhileStopping, at }: { recordWhileStopping: boolean; at: Date },
): Promise<Completion> {
  return db.transaction(async (run) => {
    // The post is locked before its stop requests are read, in a statement of its own: a delete
    // locks the posts it writes them for, so one written before this lock is seen here, and one
    // written after it finds the post done and leaves it out.
    const { rows: found } = await run(`SELECT job_token, status FROM video_posts WHERE id = $1 FOR UPDATE`, [post.id]);
    if (found.length === 0) return 'gone';
    if (found[0].job_token !== token || found[0].status !== 'pending') return 'stale';
    const { rows: stops } = await run(`SELECT 1 FROM publish_stops WHERE post_id = $1 AND ${freshStop('$2')} LIMIT 1`, [post.id, at]);
    if (stops.length > 0) {
      if (!recordWhileStopping) return 'stopping';
      await run(`UPDATE publish_stops SET outcome = 'live' WHERE post_id = $1 AND outcome IS NULL AND ${freshStop('$2')}`, [post.id, at]);
    }
    await run(
      `UPDATE video_posts SET status = 'done', remote_id = $2, url = $3, failure = NULL, failure_detail = NULL, wait_kind = NULL,
              wait_detail = NULL, next_attempt_at = NULL, published_at = $4, updated_at = $4
       WHERE id = $1`,
      [post.id, published.remoteId, published.url, at],
    );
    await run(`UPDATE videos SET ${platformOf(post.platform).columns.url} = $2 WHERE id = $1`, [post.videoId, published.url]);
    await recordConnection(run, { accountId, platform: post.platform, state: 'connected', kind: null, source: 'publish', at });
    await refreshVideoStatus(run, post.videoId);
    await noteSetPosts(run, post.videoId);
    await raisePostAlert(run, post.id, 'post.published', { url: published.url }, at);
    return 'done';
  });
}

/** The post failed: its failure's kind and the platform's answer, which the post and its video are read with. */
export async function failPost(
  db: Database,
  post: Pick<Post, 'id' | 'videoId' | 'platform'>,
  token: string,
  failure: PostFailure,
  at: Date,
) {
  const { kind, detail } = failureColumns(failure);
  await db.transaction(async (run) => {
    const { rows } = await run(
      `UPDATE video_posts SET status = 'error', failure = $3, failure_detail = $4, wait_kind = NULL, wait_detail = NULL, next_attempt_at = NULL,
              updated_at = $5
       WHERE id = $1 AND job_token = $2 AND status = 'pending' RETURNING id`,
      [post.id, token, kind, JSON.stringify(detail), at],
    );
    if (rows.length === 0) return;
    await refreshVideoStatus(run, post.videoId);
    await noteSetPosts(run, post.videoId);
    await raisePostAlert(run, post.id, 'post.failed', { failure: kind, error: failureText(post.platform, failure) }, at);
  });
}

/**
 * A post past a cap waits for its window to free: a new job at that time, the reason said on the
 * set's page, and no error — a cap is never a failure.
 */
export async function holdPost(db: Database, queue: PgBoss, { postId, token }: PublishJobData, hold: CapHold, at: Date): Promise<void> {
  const next = crypto.randomUUID();
  await db.transaction(async (run) => {
    const { rows } = await run(
      `UPDATE video_posts SET job_token = $3, scheduled_at = $4, next_attempt_at = $4, wait_kind = 'cap', wait_detail = $5,
              failure = NULL, failure_detail = NULL, updated_at = $6
       WHERE id = $1 AND job_token = $2 AND status = 'pending' RETURNING video_id`,
      [postId, token, next, hold.until, JSON.stringify(hold.detail), at],
    );
    if (rows.length === 0) return;
    await sendPublishJob(queue, { id: postId, token: next }, run, { at: hold.until, now: at });
    await noteSetPosts(run, rows[0].video_id);
    await raisePostAlert(run, postId, 'post.held', { until: hold.until.toISOString() }, at);
  });
}

/** The platform asked to wait longer than a run retries: the post goes again at `at`, with a new job, and says why. */
export async function awaitQuota(
  db: Database,
  queue: PgBoss,
  { postId, token }: PublishJobData,
  { now, at }: { now: Date; at: Date },
  failure: PostFailure,
): Promise<void> {
  const next = crypto.randomUUID();
  const { kind, detail } = failureColumns(failure);
  await db.transaction(async (run) => {
    const { rows } = await run(
      `UPDATE video_posts SET job_token = $3, scheduled_at = $4, failure = $5, failure_detail = $6, wait_kind = 'quota', wait_detail = $7,
              next_attempt_at = $4, updated_at = $8
       WHERE id = $1 AND job_token = $2 AND status = 'pending' RETURNING video_id`,
      [postId, token, next, at, kind, JSON.stringify(detail), JSON.stringify({ failure }), now],
    );
    if (rows.length === 0) return;
    await sendPublishJob(queue, { id: postId, token: next }, run, { at, now });
    await noteSetPosts(run, rows[0].video_id);
  });
}

/**
 * A grant the platform no longer honours, on a profile connected through the platform's consent
 * page: the post waits, with no next attempt, until the profile is connected again
 * (resumeWaitingPosts) or the post is cancelled; it counts as not started, so it can still be
 * moved or cancelled. False when the profile's access is not such a link: the post then fails.
 */
export async function awaitReconnect(db: Database, post: Pick<Post, 'id' | 'platform'>, token: string, at: Date): Promise<boolean> {
  return db.transaction(async (run) => {
    const { rows } = await run(
      `UPDATE video_posts SET wait_kind = 'reconnect', wait_detail = '{}', next_attempt_at = NULL, started_at = NULL, updated_at = $4
        WHERE id = $1 AND job_token = $2 AND status = 'pending'
          AND EXISTS (SELECT 1 FROM account_connections c
                       WHERE c.account_id = video_posts.account_id AND c.platform = $3 AND c.method = 'oauth' AND c.state = 'revoked')
        RETURNING video_id`,
      [post.id, token, post.platform, at],
    );
    if (rows.length === 0) return false;
    await noteSetPosts(run, rows[0].video_id);
    return true;
  });
}

/** The profile is connected to the platform again: its posts that waited for it go out at once, each with a new job. */
export async function resumeWaitingPosts(db: Database, queue: PgBoss, accountId: number, platform: Platform, at: Date): Promise<number> {
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
        `UPDATE video_posts SET job_token = $2, wait_kind = NULL, wait_detail = NULL, failure = NULL, failure_detail = NULL, updated_at = $3
          WHERE id = $1`,
        [id, token, at],
      );
      await sendPublishJob(queue, { id, token }, run);
    }
    return rows.length;
  });
}

/**
 * A run failed in a way pg-boss retries: the failure is kept as the one the dead letter will give
 * if every retry fails the same way; the wait's time is written once pg-boss has set it (recordNextAttempt).
 */
export async function awaitRetry(db: Database, { postId, token }: PublishJobData, failure: PostFailure, at: Date): Promise<void> {
  const { kind, detail } = failureColumns(failure);
  await db.orm
    .update(videoPosts)
    .set({ failure: kind, failureDetail: detail, waitKind: 'retry', waitDetail: { failure }, nextAttemptAt: null, updatedAt: at })
    .where(and(eq(videoPosts.id, postId), eq(videoPosts.jobToken, token), eq(videoPosts.status, 'pending')));
}

/**
 * Why a pending post has not gone out yet and when it is tried next, for the set's page. Other
 * waits (caps, revoked grants, the platform's own) write the same columns; a post's next run clears them.
 */
export async function recordWait(db: Database, { postId, token }: PublishJobData, wait: PostWait, at: Date | null): Promise<void> {
  await db.sql(
    `UPDATE video_posts SET wait_kind = $3, wait_detail = $4, next_attempt_at = $5 WHERE id = $1 AND job_token = $2 AND status = 'pending'`,
    [postId, token, wait.kind, JSON.stringify(wait.detail), at],
  );
}

/** pg-boss put a failed run back with its backoff: the post's wait gets that time. */
export async function recordNextAttempt(db: Database, { postId, token }: PublishJobData, at: Date): Promise<void> {
  await db.sql(`UPDATE video_posts SET next_attempt_at = $3 WHERE id = $1 AND job_token = $2 AND status = 'pending'`, [postId, token, at]);
}

/**
 * The set's new title, description and tags, for what is published from now on, carried to its
 * published YouTube posts: each is marked as waiting for the edit and gets one job, in the same
 * transaction. TikTok and Instagram offer no call that edits a published post, so theirs keep the
 * texts they went out with; the set's page says so.
 */
export async function editPublished(
  db: Database,
  queue: PgBoss,
  requestId: number,
  texts: { title: string; description: string; tags: string[] },
  at: Date,
): Promise<void> {
  await db.transaction(async (run) => {
    // The edit's one title, description and tags are every platform's from now on: the edit form shows no other to keep.
    await run(
      `UPDATE creation_requests SET title = $2, description = $3, tags = $4, platform_texts = NULL, updated_at = $5 WHERE id = $1`,
      [requestId, texts.title, texts.description, texts.tags, at],
    );
    // The posts still to go, and the YouTube ones the edit reaches, say the new words, filled for each.
    const { rows: refilled } = await run(
      `SELECT p.id FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id
        WHERE v.request_id = $1 AND (p.status <> 'done' OR (p.platform = 'youtube' AND p.remote_id IS NOT NULL))`,
      [requestId],
    );
    await refillWords(
      run,
      refilled.map((row) => Number(row.id)),
    );
    const { rows } = await run(
      `UPDATE video_posts SET edit_state = 'pending', edit_failure = NULL, edit_failure_detail = NULL, updated_at = $2
        WHERE platform = 'youtube' AND status = 'done' AND remote_id IS NOT NULL
          AND video_id IN (SELECT id FROM videos WHERE request_id = $1)
        RETURNING id`,
      [requestId, at],
    );
    for (const row of rows) {
      const data: EditPublishedJobData = { postId: Number(row.id) };
      await queue.send(editPublishedJobName, data, { db: { executeSql: run } });
    }
  });
}

/** An edit job ended: the post's texts on the platform are the set's (no failure), or the platform refused them (why, as a kind). */
export async function finishEdit(db: Database, postId: number, failure: PostFailure | null, at: Date): Promise<void> {
  const stored = failure && failureColumns(failure);
  await db.orm
    .update(videoPosts)
    .set({
      editState: stored ? 'error' : 'done',
      editFailure: stored?.kind ?? null,
      editFailureDetail: stored?.detail ?? null,
      updatedAt: at,
    })
    .where(and(eq(videoPosts.id, postId), eq(videoPosts.editState, 'pending')));
}
