import type { RunSql } from '../../db/connect';
import { countsOfGroups, postStateColumns } from './video-status';

// Any fixed number: the first half of the advisory lock key that keeps one set's notices in turn.
const setNoticeLockId = 4_718_207;

/**
 * The bell's entry of the set that the video `videoId` belongs to, told to the set's owner after
 * one of its posts went out, failed or was held (services/publishing/post-lifecycle.ts): how many of the
 * set's posts are out (published), failed and held now, by their state (src/lib/post-states.ts). One entry per set: a change of the
 * counts replaces it with a new, unread one on top of the list; the same counts again (a held post
 * held once more) tell nothing. Two posts of a set finishing at once take their turns here, so the
 * second counts the first.
 */
export async function noteSetPosts(run: RunSql, videoId: number): Promise<void> {
  const { rows: sets } = await run(
    `SELECT r.id, r.user_id FROM videos AS v JOIN creation_requests AS r ON r.id = v.request_id WHERE v.id = $1`,
    [videoId],
  );
  if (sets.length === 0) return;
  const { id: requestId, user_id: userId } = sets[0];
  await run('SELECT pg_advisory_xact_lock($1, $2)', [setNoticeLockId, requestId]);
  const { rows } = await run(
    `SELECT ${postStateColumns()}, count(*)::int AS count
       FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id WHERE v.request_id = $1
      GROUP BY 1, 2, 3`,
    [requestId],
  );
  const counts = countsOfGroups(rows);
  const posts = JSON.stringify({ published: counts.published, failed: counts.failed, held: counts.held });
  const { rows: same } = await run(
    `SELECT 1 FROM notifications WHERE user_id = $1 AND kind = 'set_posts' AND request_id = $2 AND posts = $3::jsonb`,
    [userId, requestId, posts],
  );
  if (same.length > 0) return;
  await run(`DELETE FROM notifications WHERE user_id = $1 AND kind = 'set_posts' AND request_id = $2`, [userId, requestId]);
  await run(`SELECT add_notification($1, 'set_posts', $2, NULL, NULL, NULL, $3::jsonb)`, [userId, requestId, posts]);
}
