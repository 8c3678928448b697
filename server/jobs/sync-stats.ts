import { eq } from 'drizzle-orm';
import { accounts } from '../db/schema';
import { memoryProgressStore } from '../platforms/progress';
import { profileContext } from '../platforms/profile-context';
import { connectors, serverPlatforms } from '../platforms/registry';
import { platformIds, platformOf } from '../../src/lib/platforms';
import { ProfileAuthError } from '../platforms/errors';
import { recordAccessFailure, recordConnection } from '../platforms/connections';
import type { ConnectorContext, Platform } from '../platforms/types';
import { recordStats } from '../services/statistics/stats-points';
import { purgeQuotaLedger, quotaAccount, takeQuota } from '../services/statistics/quota-ledger';
import { judgeReach, markUnseenPosts } from '../services/statistics/reach';
import type { JobContext } from './types';
import { releaseLease, tryLease } from '../engine/liveness';

/** The cron job: it only plans, enqueuing one sync per profile and platform with posts due. */
export const syncStatsJobName = 'sync-stats';
export const syncProfileStatsJobName = 'sync-profile-stats';

export interface SyncProfileStatsData {
  accountId: number;
  platform: Platform;
}

export interface SyncResult {
  updated: number;
  failed: number;
  /** Why the sync ended before every due post was read, if it did. */
  stoppedBy?: 'signal' | 'quota' | 'revoked' | 'running';
}

/** The platforms whose figures are read. */
const platforms = platformIds.filter((platform) => platformOf(platform).can.statistics);

/** A batch of figures read, one row per video, as parameters $1 to $4. */
const readFigures = `unnest($1::integer[], $2::integer[], $3::integer[], $4::integer[]) AS read(video_id, views, likes, comments)`;

/** Posts read from the database at once: memory stays flat however many a profile has. */
const pageSize = 500;

/** A batch's figures into the videos' columns of their platform (views/likes/comments are YouTube's). */
function writeStats(platform: Platform): string {
  const { views, likes, comments } = platformOf(platform).columns;
  return `UPDATE videos SET ${views} = read.views, ${likes} = read.likes, ${comments} = read.comments
            FROM ${readFigures} WHERE videos.id = read.video_id`;
}

/**
 * Enqueues a sync for each profile and platform that has posts due at `at` (the injected clock's
 * now). The queue keeps at most one
 * waiting job per profile and platform (policy "short" with the pair as singleton key), so a sync
 * that falls behind its interval gains no second one per tick; each profile's own proxy then
 * delays only its own figures, and the syncs spread over the workers.
 */
export async function planStatsSyncs({ db, queue }: Pick<JobContext, 'db' | 'queue'>, at: number): Promise<number> {
  await purgeQuotaLedger(db, new Date(at));
  const { rows } = await db.sql(
    `SELECT a.id AS account_id, p.platform FROM accounts AS a CROSS JOIN unnest($1::text[]) AS p(platform)
      WHERE EXISTS (SELECT 1 FROM video_posts AS v
                     WHERE v.account_id = a.id AND v.platform = p.platform AND v.status = 'done' AND v.remote_id IS NOT NULL
                       AND coalesce(v.stats_due_at, '-infinity') <= $2)
      ORDER BY a.id, p.platform`,
    [platforms, new Date(at)],
  );
  let queued = 0;
  for (const row of rows) {
    const data: SyncProfileStatsData = { accountId: row.account_id, platform: row.platform };
    const id = await queue.send(syncProfileStatsJobName, data, { singletonKey: `${row.account_id}:${row.platform}` });
    if (id) queued++;
  }
  return queued;
}

/**
 * Reads the due posts of one profile on one platform, as many per call as the platform takes,
 * page by page in the order of the due index. Each read adds a point to the post's history when
 * its figures changed (services/statistics/stats-points.ts) and sets when the post is next due by its age.
 * Every call first takes its units from the quota ledger; a refusal ends the sync, the rest stays
 * due. A revoked grant marks the profile as a failed publish does, which notifies its owner;
 * figures read again clear that platform's failure, as a publish that went through does. Stops
 * between calls once `signal` fires (expiry, shutdown); a lease keeps a second sync of the same
 * profile and platform from running beside it.
 */
export async function syncProfileStats({ accountId, platform }: SyncProfileStatsData, context: JobContext): Promise<SyncResult> {
  const { db, log, engine, jobId } = context;
  const lease = `stats:${accountId}:${platform}`;
  if (!(await tryLease(db, lease, jobId, engine))) return { updated: 0, failed: 0, stoppedBy: 'running' };
  try {
    return await readDuePosts(accountId, platform, context);
  } finally {
    await releaseLease(db, lease, jobId, syncProfileStatsJobName).catch((error) =>
      log.warn({ err: error }, 'could not release a sync lease'),
    );
  }
}

async function readDuePosts(accountId: number, platform: Platform, context: JobContext): Promise<SyncResult> {
  const { db, log, keys, platforms: settings, signal, engine } = context;
  const [account] = await db.orm.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) return { updated: 0, failed: 0 };
  const connector = connectors[platform];
  const markRevoked = (error: unknown) =>
    error instanceof ProfileAuthError
      ? recordAccessFailure(db.sql, { accountId, platform, source: 'stats', detail: error.detail, at: new Date(settings.clock.now()) })
      : undefined;

  const result: SyncResult = { updated: 0, failed: 0 };
  let ctx: ConnectorContext;
  try {
    ctx = {
      ...(await profileContext(account, platform, { db, secretsKey: keys.secretsAtRest, settings, progress: memoryProgressStore() })),
      signal,
    };
  } catch (error) {
    await markRevoked(error);
    log.warn({ err: error, accountId, platform }, 'statistics of a profile not read');
    const { rows } = await db.sql(
      `SELECT count(*)::int AS n FROM video_posts WHERE ${dueOf} AND coalesce(stats_due_at, '-infinity') <= $3`,
      [accountId, platform, new Date(settings.clock.now())],
    );
    return { updated: 0, failed: rows[0].n, stoppedBy: error instanceof ProfileAuthError ? 'revoked' : undefined };
  }

  const startedAt = new Date(settings.clock.now()).toISOString();
  const cadence = engine.statsSync;
  let after = { due: '-infinity', id: 0 };
  pages: for (;;) {
    const { rows: page } = await db.sql(
      `SELECT id, video_id, remote_id, coalesce(stats_due_at, '-infinity')::text AS due FROM video_posts
        WHERE ${dueOf} AND coalesce(stats_due_at, '-infinity') <= $3::timestamptz
          AND (coalesce(stats_due_at, '-infinity'), id) > ($4::timestamptz, $5::integer)
        ORDER BY coalesce(stats_due_at, '-infinity'), id LIMIT ${pageSize}`,
      [accountId, platform, startedAt, after.due, after.id],
    );
    if (page.length === 0) break;
    after = { due: page.at(-1).due, id: page.at(-1).id };
    for (let start = 0; start < page.length; start += connector.statsBatchSize) {
      if (signal.aborted) {
        result.stoppedBy = 'signal';
        break pages;
      }
      const chunk = page.slice(start, start + connector.statsBatchSize);
      const units = serverPlatforms[platform].statsReadUnits(chunk.length);
      if (!(await takeQuota(db, quotaAccount(platform, account, cadence, new Date(settings.clock.now())), units))) {
        log.warn({ accountId, platform }, 'statistics reads stopped: the quota they may spend is used up; the rest stays due');
        result.stoppedBy = 'quota';
        break pages;
      }
      let found;
      try {
        found = await connector.fetchStatsOf(
          ctx,
          chunk.map((post) => post.remote_id),
        );
      } catch (error) {
        if (signal.aborted) {
          result.stoppedBy = 'signal';
          break pages;
        }
        result.failed += chunk.length;
        await markRevoked(error);
        log.warn({ err: error, accountId, platform, posts: chunk.length }, 'statistics of videos not read');
        if (error instanceof ProfileAuthError) {
          result.stoppedBy = 'revoked';
          break pages;
        }
        continue;
      }
      const read = [];
      for (const post of chunk) {
        const stats = found.get(post.remote_id);
        if (stats) read.push({ postId: post.id, videoId: post.video_id, ...stats });
        else log.warn({ accountId, platform, postId: post.id }, 'statistics of a video not read: the platform no longer knows it');
      }
      if (read.length > 0) {
        await db.sql(writeStats(platform), [
          read.map((entry) => entry.videoId),
          read.map((entry) => entry.views),
          read.map((entry) => entry.likes),
          read.map((entry) => entry.comments),
        ]);
        await recordStats(db, read, new Date(settings.clock.now()));
        // Issue 32.2: a post read with no views once settled is marked, on the clock the workers go by.
        await markUnseenPosts(
          db,
          read.map((entry) => entry.postId),
          engine.reach,
          settings.clock.now(),
        );
      }
      result.updated += read.length;
      result.failed += chunk.length - read.length;
      await db.sql(
        `UPDATE video_posts SET stats_due_at = $7::timestamptz + make_interval(secs => 60 * CASE
            WHEN scheduled_at >= $7::timestamptz - make_interval(secs => 3600 * $2::float8) THEN $3::float8
            WHEN scheduled_at >= $7::timestamptz - make_interval(secs => 86400 * $4::float8) THEN $5::float8
            ELSE $6::float8 END)
          WHERE id = ANY($1::integer[])`,
        [
          chunk.map((post) => post.id),
          cadence.freshHours,
          cadence.freshEveryMinutes,
          cadence.recentDays,
          cadence.recentEveryMinutes,
          cadence.oldEveryMinutes,
          new Date(settings.clock.now()),
        ],
      );
    }
  }
  if (result.updated > 0) {
    const at = new Date(settings.clock.now());
    await recordConnection(db.sql, { accountId, platform, state: 'connected', kind: null, source: 'stats', at });
    // Reach is judged on the figures just read (issue 32.2).
    await judgeReach(db, accountId, platform, engine.reach, settings.clock.now());
  }
  return result;
}

/** The posts of profile $1 on platform $2 that have figures to read; the due index covers exactly these. */
const dueOf = `account_id = $1 AND platform = $2 AND status = 'done' AND remote_id IS NOT NULL`;
