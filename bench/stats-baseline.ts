/**
 * The statistics sync as it was before issue 23 (server/jobs/sync-stats.ts until then), kept for
 * bench/stats.ts only: it loads every published post at once, groups them by copying each
 * profile's list for every row, and reads each post's figures with its own request, one after
 * another. The one change: `accountIds` limits it to some profiles, so the bench can time it on a
 * count it finishes in minutes and extrapolate.
 */
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { accounts, videoPosts } from '../server/db/schema';
import type { JobContext } from '../server/jobs/types';
import { memoryProgressStore } from '../server/platforms/progress';
import { profileContext } from '../server/platforms/profile-context';
import { connectors } from '../server/platforms/registry';
import { recordStats } from '../server/services/statistics/stats-points';
import { platformOf, type Platform } from '../src/lib/platforms';

const writeStats: Partial<Record<Platform, string>> = {
  youtube: `UPDATE videos SET views = $2, likes = $3, comments = $4 WHERE id = $1`,
  tiktok: `UPDATE videos SET views = $2, likes = $3, comments = $4 WHERE id = $1
           AND NOT EXISTS (SELECT 1 FROM video_posts WHERE video_id = $1 AND platform = 'youtube' AND status = 'done')`,
  instagram: `UPDATE videos SET views_instagram = $2, likes_instagram = $3, comments_instagram = $4 WHERE id = $1`,
};

/** A platform added since the baseline was written: its own columns, as the baseline wrote Instagram's. */
function writeOwnColumns(platform: Platform): string {
  const { columns } = platformOf(platform);
  return `UPDATE videos SET ${columns.views} = $2, ${columns.likes} = $3, ${columns.comments} = $4 WHERE id = $1`;
}

export async function baselineSyncStats(context: JobContext, accountIds: number[]): Promise<{ updated: number; failed: number }> {
  const { db, keys, platforms } = context;
  const rows = await db.orm
    .select({ post: videoPosts, account: accounts })
    .from(videoPosts)
    .innerJoin(accounts, eq(accounts.id, videoPosts.accountId))
    .where(and(eq(videoPosts.status, 'done'), isNotNull(videoPosts.remoteId), inArray(videoPosts.accountId, accountIds)))
    .orderBy(asc(videoPosts.accountId), asc(videoPosts.platform), asc(videoPosts.id));
  const groups = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.account.id}:${row.post.platform}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  let updated = 0;
  let failed = 0;
  for (const group of groups.values()) {
    const { account, post: first } = group[0]!;
    const platform = first.platform;
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
          await db.sql(writeStats[platform] ?? writeOwnColumns(platform), [post.videoId, stats.views, stats.likes, stats.comments]);
          await recordStats(db, [{ postId: post.id, ...stats }], new Date(platforms.clock.now()));
          updated++;
        } catch {
          failed++;
        }
      }
    } catch {
      failed += group.length;
    }
  }
  return { updated, failed };
}
