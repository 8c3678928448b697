import type { JobContext } from '../../server/jobs/types';
import { syncProfileStats, type SyncResult } from '../../server/jobs/sync-stats';
import type { Platform } from '../../server/platforms/types';

/**
 * What a whole round of syncs does once every post is due again: each profile and platform with
 * published posts synced in turn (as the planner's jobs would be), their results summed.
 */
export async function syncEverything(context: JobContext): Promise<{ updated: number; failed: number }> {
  await context.db.sql(`UPDATE video_posts SET stats_due_at = NULL`, []);
  const { rows } = await context.db.sql(
    `SELECT DISTINCT account_id, platform FROM video_posts WHERE status = 'done' AND remote_id IS NOT NULL ORDER BY account_id, platform`,
    [],
  );
  const total = { updated: 0, failed: 0 };
  for (const row of rows) {
    const result: SyncResult = await syncProfileStats({ accountId: row.account_id, platform: row.platform as Platform }, context);
    total.updated += result.updated;
    total.failed += result.failed;
  }
  return total;
}
