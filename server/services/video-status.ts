import type { RunSql } from '../db/connect';
import { heldWaitKinds } from '../../src/lib/post-waits';

/**
 * Where every status a list or screen shows for a video or a set comes from.
 *
 * `videos.status` tells what happened to the video's publication, and nothing else: 'loading'
 * while it renders (and 'error' when its render failed), then whatever its posts say, written
 * here only. A rendered video with no post is 'noactive' (SPEC's word for it), or 'cancelled' when
 * the operator cancelled its publication (it keeps the posts to put back in `cancelled_posts`), so
 * 'success' means published and nothing else; whether a video is rendered is its file (`file_key`). The status
 * stays a stored column, written in the same transaction as every change of a post, rather than
 * derived at read time: the set lists ask it for a page of sets, and their filters for every set of
 * an owner, as index-only probes of videos (request_id, status), where a derivation would join
 * each set's posts.
 */
export async function refreshVideoStatus(run: RunSql, videoId: number) {
  await run(
    `UPDATE videos SET status = CASE
       WHEN EXISTS (SELECT 1 FROM video_posts WHERE video_id = $1 AND status = 'error') THEN 'error'
       WHEN EXISTS (SELECT 1 FROM video_posts WHERE video_id = $1 AND status = 'pending') THEN 'publication'
       WHEN EXISTS (SELECT 1 FROM video_posts WHERE video_id = $1) THEN 'success'
       WHEN cancelled_posts IS NOT NULL THEN 'cancelled'
       ELSE 'noactive' END
     WHERE id = $1`,
    [videoId],
  );
}

/** Videos of the set $requestId in one of `statuses`: an index-only probe of videos (request_id, status). */
const anyVideo = (requestId: string, statuses: string) =>
  `EXISTS (SELECT 1 FROM videos WHERE videos.request_id = ${requestId} AND videos.status IN (${statuses}))`;

/**
 * A set's status, from its videos' (so from their posts): in error when any post failed, under
 * way while any is, published only once every post went out, cancelled when nothing went out and
 * a publication was cancelled, else not active (no video got a post). A video left out of the
 * publication has no post and counts for nothing. Asked only for the rows of a page.
 */
export const setStatusOf = (requestId: string) => `CASE
  WHEN ${anyVideo(requestId, `'error'`)} THEN 'error'
  WHEN ${anyVideo(requestId, `'loading', 'publication'`)} THEN 'publication'
  WHEN ${anyVideo(requestId, `'success'`)} THEN 'success'
  WHEN ${anyVideo(requestId, `'cancelled'`)} THEN 'cancelled'
  ELSE 'noactive' END`;

/** The status filter of the set lists: the sets `setStatusOf` gives that status, as a condition on creation_requests. */
export const setStatusConditions: Record<string, string> = {
  error: anyVideo('creation_requests.id', `'error'`),
  publication: `NOT ${anyVideo('creation_requests.id', `'error'`)} AND ${anyVideo('creation_requests.id', `'loading', 'publication'`)}`,
  success: `NOT ${anyVideo('creation_requests.id', `'error', 'loading', 'publication'`)} AND ${anyVideo('creation_requests.id', `'success'`)}`,
  cancelled: `NOT ${anyVideo('creation_requests.id', `'error', 'loading', 'publication', 'success'`)} AND ${anyVideo('creation_requests.id', `'cancelled'`)}`,
};

/**
 * What the post row `post` is doing (the contract's PostState), from its status and why it waits:
 * failed once in error, out once done, held while it waits on one of `heldWaitKinds`, else due
 * (its time has not come, or it is tried again after a failure or behind its profile's other upload).
 */
export const postStateOf = (post: string) => `CASE ${post}.status
  WHEN 'error' THEN 'failed'
  WHEN 'done' THEN 'out'
  ELSE CASE WHEN ${post}.wait_kind IN (${heldWaitKinds.map((kind) => `'${kind}'`).join(', ')}) THEN 'held' ELSE 'due' END END`;
