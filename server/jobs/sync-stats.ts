import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { accounts, videoPosts } from '../db/schema';
import { memoryProgressStore } from '../platforms/progress';
import { connectors, profileContext } from '../platforms/profile-context';
import { ProfileAuthError } from '../platforms/errors';
import type { Platform } from '../platforms/types';
import { recordStats } from '../services/stats-points';
import { t } from '../../src/lib/i18n';
import type { JobContext } from './definitions';

export const syncStatsJobName = 'sync-stats';

/**
 * YouTube and TikTok share the video's views/likes/comments columns, as the contract has no
 * TikTok ones: YouTube's figures win when a video is on both, TikTok's fill them otherwise.
 */
const writeStats: Record<Platform, string> = {
  youtube: `UPDATE videos SET views = $2, likes = $3, comments = $4 WHERE id = $1`,
  tiktok: `UPDATE videos SET views = $2, likes = $3, comments = $4 WHERE id = $1
           AND NOT EXISTS (SELECT 1 FROM video_posts WHERE video_id = $1 AND platform = 'youtube' AND status = 'done')`,
  instagram: `UPDATE videos SET views_instagram = $2, likes_instagram = $3, comments_instagram = $4 WHERE id = $1`,
};

/**
 * Reads views, likes and comments of every published post, one profile and platform at a time,
 * so one broken profile (revoked, proxy down) costs only its own figures, logged. Each read adds
 * a point to the post's history when its figures changed (services/stats-points.ts). A revoked
 * grant marks the profile as a failed publish does, which notifies its owner; figures read again
 * clear that platform's failure, as a publish that went through does.
 */
export async function syncStats(context: JobContext): Promise<{ updated: number; failed: number }> {
  const { db, log, keys, platforms } = context;
  const rows = await db.orm
    .select({ post: videoPosts, account: accounts })
    .from(videoPosts)
    .innerJoin(accounts, eq(accounts.id, videoPosts.accountId))
    .where(and(eq(videoPosts.status, 'done'), isNotNull(videoPosts.remoteId)))
    .orderBy(asc(videoPosts.accountId), asc(videoPosts.platform), asc(videoPosts.id));
  const groups = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.account.id}:${row.post.platform}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }

  let updated = 0;
  let failed = 0;
  const markRevoked = (accountId: number, error: unknown) =>
    error instanceof ProfileAuthError
      ? db.sql('UPDATE accounts SET platform_error = $2, updated_at = now() WHERE id = $1', [accountId, error.message])
      : undefined;
  for (const group of groups.values()) {
    const { account, post: first } = group[0]!;
    const platform = first.platform;
    const readBefore = updated;
    try {
      const ctx = await profileContext(account, platform, {
        db,
        secretsKey: keys.secretsAtRest,
        settings: platforms,
        progress: memoryProgressStore(),
      });
      for (const { post } of group) {
        try {
          const stats = await connectors[platform].fetchStats(ctx, post.remoteId!);
          await db.sql(writeStats[platform], [post.videoId, stats.views, stats.likes, stats.comments]);
          await recordStats(db, post.id, stats);
          updated++;
        } catch (error) {
          failed++;
          await markRevoked(account.id, error);
          log.warn({ err: error, accountId: account.id, platform, postId: post.id }, 'statistics of a video not read');
        }
      }
    } catch (error) {
      failed += group.length;
      await markRevoked(account.id, error);
      log.warn({ err: error, accountId: account.id, platform }, 'statistics of a profile not read');
    }
    if (updated > readBefore) {
      await db.sql(`UPDATE accounts SET platform_error = NULL WHERE id = $1 AND starts_with(platform_error, $2)`, [
        account.id,
        `${t.platform.names[platform]}:`,
      ]);
    }
  }
  return { updated, failed };
}
