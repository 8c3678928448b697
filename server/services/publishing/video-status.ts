import { failureText, storedFailure } from '../../../src/lib/post-failures';
import type { PostCounts, PostState, VideoPost, VideoStatus } from '../../../src/lib/contract';
import { platformIds } from '../../../src/lib/platforms';
import {
  countPosts,
  noPosts,
  postKindOf,
  postStateOf,
  setStatusOf,
  setStatusRules,
  videoStatusOf,
  type StoredPost,
} from '../../../src/lib/post-states';
import type { RunSql } from '../../db/connect';

/**
 * Where every status a list or screen shows for a post, a video or a set is read, by the functions
 * of src/lib/post-states.ts: a post's from its row, a video's from its posts, a set's from its videos.
 *
 * `videos.status` tells what happened to the video's publication, and nothing else: 'loading'
 * while it renders (and 'error' when its render failed), then whatever its posts say, written
 * here only. A rendered video with no post is 'noactive' (SPEC's word for it), or 'cancelled' when
 * the operator cancelled its publication (it keeps the posts to put back in `cancelled_posts`), so
 * 'success' means published and nothing else; whether a video is rendered is its file (`file_key`). The status
 * stays a stored column, written in the same transaction as every change of a post, rather than
 * derived at read time: the set lists' filters ask it for every set of an owner, as index-only
 * probes of videos (request_id, status), where a derivation would join each set's posts.
 */

/**
 * The columns of video_posts `post` (its alias) a post's state is read from: a count of posts
 * grouped by them (GROUP BY 1, 2, 3) gives their states by countsOfGroups.
 */
export const postStateColumns = (post = 'p') => `${post}.status, ${post}.started_at IS NOT NULL AS started, ${post}.wait_kind`;

/** With its kind's too (StoredPost). */
export const storedPostColumns = (post = 'p') => `${postStateColumns(post)}, ${post}.failure, ${post}.failure_detail`;

const storedPost = (row: Record<string, any>): StoredPost => ({
  status: row.status,
  started: row.started,
  waitKind: row.wait_kind,
  failure: row.failure ?? null,
});

/** Posts counted by state, from rows of postStateColumns with their `count`. */
export function countsOfGroups(rows: Record<string, any>[], counts = noPosts()): PostCounts {
  for (const row of rows) countPosts(counts, postStateOf(storedPost(row)), row.count);
  return counts;
}

/**
 * Writes the video's status from its posts (videoStatusOf). The caller holds the video's row (each
 * transition of post-lifecycle.ts locks or updates it first), so the posts read here are the
 * latest: a transition on another of its posts waits for this one's commit.
 */
export async function refreshVideoStatus(run: RunSql, videoId: number) {
  await refreshVideoStatuses(run, [videoId]);
}

/** refreshVideoStatus for many videos in two statements, whatever their number: a confirmed plan's thousands. */
export async function refreshVideoStatuses(run: RunSql, videoIds: number[]) {
  if (videoIds.length === 0) return;
  const { rows } = await run(
    `SELECT v.id AS video_id, v.cancelled_posts IS NOT NULL AS cancelled, ${storedPostColumns()}
       FROM videos AS v LEFT JOIN video_posts AS p ON p.video_id = v.id
      WHERE v.id = ANY($1::int[])`,
    [videoIds],
  );
  const statesOf = new Map<number, PostState[]>();
  for (const row of rows) {
    const states = statesOf.get(row.video_id) ?? (row.cancelled ? ['cancelled' as const] : []);
    if (row.status !== null) states.push(postStateOf(storedPost(row)));
    statesOf.set(row.video_id, states);
  }
  if (statesOf.size === 0) return;
  await run(`UPDATE videos AS v SET status = s.status FROM unnest($1::int[], $2::text[]) AS s(id, status) WHERE v.id = s.id`, [
    [...statesOf.keys()],
    [...statesOf.values()].map(videoStatusOf),
  ]);
}

/** Videos of the set $requestId in one of `statuses`: an index-only probe of videos (request_id, status). */
const anyVideo = (requestId: string, statuses: readonly string[]) =>
  `EXISTS (SELECT 1 FROM videos WHERE videos.request_id = ${requestId} AND videos.status IN (${statuses.map((status) => `'${status}'`).join(', ')}))`;

/**
 * The set's status (setStatusOf) as SQL on the set $requestId: the first of setStatusRules one of
 * whose statuses a video of the set has.
 */
export const setStatusSql = (requestId: string) =>
  `CASE ${setStatusRules.map(([status, statuses]) => `WHEN ${anyVideo(requestId, statuses)} THEN '${status}'`).join(' ')} ELSE 'noactive' END`;

/**
 * The status filter of the set lists: the sets setStatusOf gives that status, as a condition on
 * creation_requests: a video in one of the rule's statuses, none in an earlier rule's.
 */
export const setStatusConditions: Record<string, string> = Object.fromEntries(
  setStatusRules.map(([status, statuses], index) => {
    const earlier = setStatusRules.slice(0, index).flatMap(([, before]) => before);
    const own = anyVideo('creation_requests.id', statuses);
    return [status, earlier.length === 0 ? own : `NOT ${anyVideo('creation_requests.id', earlier)} AND ${own}`];
  }),
);

const isoOf = (moment: string | Date) => new Date(moment).toISOString();

/** A cancelled post as `videos.cancelled_posts` keeps it (post-lifecycle.ts, cancelPosts). */
interface KeptPost {
  platform: VideoPost['platform'];
  scheduledAt: string;
}

/**
 * A post as the answers give it, from its row's platform, url, scheduled_at, published_at and the
 * columns of storedPostColumns: its address once out, its failure once failed.
 */
export function videoPostOf(row: Record<string, any>): VideoPost {
  const stored = storedPost(row);
  const state = postStateOf(stored);
  const ownWords = row.title != null || row.description != null || row.tags != null;
  return {
    platform: row.platform,
    state,
    kind: postKindOf(stored),
    url: state === 'published' ? row.url : null,
    error: state === 'failed' && row.failure !== null ? failureText(row.platform, storedFailure(row.failure, row.failure_detail)) : null,
    date: isoOf(row.published_at ?? row.scheduled_at),
    ...(ownWords ? { words: { title: row.title ?? null, description: row.description ?? null, tags: row.tags ?? null } } : {}),
  };
}

/**
 * A video's posts as two columns of a query over videos `video`, read back by postsOfRow: its
 * posts as one JSON array, and those it keeps cancelled for the undo. A page of a list reads them
 * in its own statement, so its posts cost no second round trip.
 */
export const postsColumns = (video = 'videos', { words = false } = {}) =>
  `(SELECT coalesce(jsonb_agg(jsonb_build_object('platform', p.platform, 'status', p.status, 'started', p.started_at IS NOT NULL,
            'wait_kind', p.wait_kind, 'failure', p.failure, 'failure_detail', p.failure_detail, 'url', p.url,
            'scheduled_at', p.scheduled_at, 'published_at', p.published_at${words ? `, 'title', p.title, 'description', p.description, 'tags', p.tags` : ''})), '[]'::jsonb)
     FROM video_posts AS p WHERE p.video_id = ${video}.id) AS posts, ${video}.cancelled_posts`;

/**
 * The posts of a row read with postsColumns, one per platform in the registry's order; a video
 * whose publication was cancelled answers the posts it keeps for the undo.
 */
export function postsOfRow(row: { posts: Record<string, any>[]; cancelled_posts: KeptPost[] | null }): VideoPost[] {
  const posts = row.posts.map(videoPostOf);
  for (const kept of row.cancelled_posts ?? []) {
    posts.push({ platform: kept.platform, state: 'cancelled', kind: null, url: null, error: null, date: isoOf(kept.scheduledAt) });
  }
  return posts.sort((a, b) => platformIds.indexOf(a.platform) - platformIds.indexOf(b.platform));
}

/** The posts of each of `videoIds`, in one query. */
export async function postsOfVideos(run: RunSql, videoIds: number[]): Promise<Map<number, VideoPost[]>> {
  const posts = new Map<number, VideoPost[]>(videoIds.map((id) => [id, []]));
  if (videoIds.length === 0) return posts;
  // A set's own page shows each post's own words (issue 43.2); the lists, which show none, do not read them.
  const { rows } = await run(`SELECT videos.id, ${postsColumns('videos', { words: true })} FROM videos WHERE videos.id = ANY($1::int[])`, [
    videoIds,
  ]);
  for (const row of rows) posts.set(row.id, postsOfRow(row));
  return posts;
}

/** A set's status, its posts by state, and the first and last of its posts' own dates (ISO; null without posts). */
export interface SetPosts {
  status: VideoStatus;
  posts: PostCounts;
  postsFrom: string | null;
  postsTo: string | null;
}

/**
 * The status and the posts by state of each of the sets `requestIds`, in one query: a page of a
 * set list asks it once for its rows: its videos' statuses and the posts they keep cancelled, by
 * videos (request_id, …); its posts, grouped by the columns their state is read from.
 */
export async function postsOfSets(run: RunSql, requestIds: number[]): Promise<Map<number, SetPosts>> {
  const sets = new Map<number, { statuses: VideoStatus[]; posts: PostCounts; dates: number[] }>(
    requestIds.map((id) => [id, { statuses: [], posts: noPosts(), dates: [] }]),
  );
  if (requestIds.length > 0) {
    // A post's own date, as videoPostOf gives it: when it went out, else when it is planned.
    const { rows } = await run(
      `SELECT v.request_id, v.status AS video_status, NULL AS status, NULL::boolean AS started, NULL AS wait_kind,
              coalesce(sum(jsonb_array_length(v.cancelled_posts)), 0)::int AS count,
              NULL::timestamptz AS first_at, NULL::timestamptz AS last_at
         FROM videos AS v WHERE v.request_id = ANY($1::int[])
        GROUP BY v.request_id, v.status
       UNION ALL
       SELECT v.request_id, NULL, ${postStateColumns()}, count(*)::int,
              min(coalesce(p.published_at, p.scheduled_at)), max(coalesce(p.published_at, p.scheduled_at))
         FROM videos AS v JOIN video_posts AS p ON p.video_id = v.id
        WHERE v.request_id = ANY($1::int[])
        GROUP BY 1, 3, 4, 5`,
      [requestIds],
    );
    for (const row of rows) {
      const set = sets.get(row.request_id)!;
      if (row.video_status === null) {
        countsOfGroups([row], set.posts);
        for (const at of [row.first_at, row.last_at]) if (at !== null) set.dates.push(new Date(at).getTime());
      } else {
        set.statuses.push(row.video_status);
        countPosts(set.posts, 'cancelled', row.count);
      }
    }
  }
  const isoOfTime = (dates: number[], pick: (...values: number[]) => number) =>
    dates.length > 0 ? new Date(pick(...dates)).toISOString() : null;
  return new Map(
    [...sets].map(([id, { statuses, posts, dates }]) => [
      id,
      { status: setStatusOf(statuses), posts, postsFrom: isoOfTime(dates, Math.min), postsTo: isoOfTime(dates, Math.max) },
    ]),
  );
}
