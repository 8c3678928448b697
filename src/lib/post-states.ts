import type { PostCounts, PostState, VideoStatus, WaitKind } from './contract';
import { isHeld } from './post-waits';
import type { FailureKind } from './post-failures';

/**
 * Where every status a screen or an answer gives a post, a video or a set comes from: a post's
 * state is read from its `video_posts` row (which post-lifecycle.ts's named transitions alone
 * write), a video's SPEC status from its posts' states, a set's from its videos' statuses. Each is
 * one function here; the server's lists group the rows by the columns read here and count.
 */

export { postStates, type PostState } from './contract/lists';

/** The columns of a `video_posts` row a post's state is read from. */
export interface StoredPost {
  status: 'pending' | 'done' | 'error';
  /** Whether a publish job has claimed the post (started_at set). */
  started: boolean;
  waitKind: WaitKind | null;
  /** Why it failed, as stored (video_posts.failure; src/lib/post-failures.ts words it). */
  failure: FailureKind | null;
}

/**
 * A post's state: out once done, failed once in error; a pending one is held while it waits on a
 * cap, a quota or a reconnection, uploading once a job took it (a retry after a failed attempt
 * included), else scheduled. A cancelled post has no row: its video keeps it (cancelled_posts).
 */
export function postStateOf(post: Pick<StoredPost, 'status' | 'started' | 'waitKind'>): PostState {
  if (post.status === 'done') return 'published';
  if (post.status === 'error') return 'failed';
  if (isHeld(post.waitKind)) return 'held';
  return post.started ? 'uploading' : 'scheduled';
}

/** Why a failed post failed: its stored kind, which src/lib/post-failures.ts words. */
export const failureKindOf = (post: Pick<StoredPost, 'failure'>): FailureKind | null => post.failure;

/** Why a post is in its state: its wait's kind while it waits, its failure's kind once failed, else null. */
export function postKindOf(post: StoredPost): string | null {
  if (post.status === 'error') return failureKindOf(post);
  if (post.status === 'pending') return post.waitKind;
  return null;
}

/** An ordered list of rules: the first whose members include one of the given values decides. */
type Rules<Result extends string, Member extends string> = readonly (readonly [Result, readonly Member[]])[];

function firstRule<Result extends string, Member extends string>(
  rules: Rules<Result, Member>,
  present: Iterable<Member>,
  otherwise: Result,
): Result {
  const seen = new Set(present);
  return rules.find(([, members]) => members.some((member) => seen.has(member)))?.[0] ?? otherwise;
}

/**
 * A published video's SPEC status from its posts' states: `error` while any post failed (SPEC's
 * retry publishes those again), `publication` while any is on its way or held, `success` once
 * they all went out, `cancelled` when its publication was cancelled, `noactive` without posts.
 */
export const videoStatusRules = [
  ['error', ['failed']],
  ['publication', ['scheduled', 'uploading', 'held']],
  ['success', ['published']],
  ['cancelled', ['cancelled']],
] as const satisfies Rules<VideoStatus, PostState>;

export const videoStatusOf = (states: Iterable<PostState>): VideoStatus => firstRule(videoStatusRules, states, 'noactive');

/**
 * A set's status from its videos' statuses: in error when any video is, under way while any is
 * (a video still rendering included), published only once every video with posts is, cancelled
 * when nothing went out and a publication was cancelled, else not active. A video left out of the
 * publication (noactive) counts for nothing.
 */
export const setStatusRules = [
  ['error', ['error']],
  ['publication', ['loading', 'publication']],
  ['success', ['success']],
  ['cancelled', ['cancelled']],
] as const satisfies Rules<VideoStatus, VideoStatus>;

export const setStatusOf = (statuses: Iterable<VideoStatus>): VideoStatus => firstRule(setStatusRules, statuses, 'noactive');

/** Where a state is counted in a set's PostCounts: an upload under way is still on its way. */
const countedAs: Record<PostState, keyof PostCounts> = {
  scheduled: 'scheduled',
  uploading: 'scheduled',
  published: 'published',
  held: 'held',
  failed: 'failed',
  cancelled: 'cancelled',
};

export const noPosts = (): PostCounts => ({ published: 0, scheduled: 0, held: 0, failed: 0, cancelled: 0 });

/** Adds `count` posts in `state` to `counts`. */
export function countPosts(counts: PostCounts, state: PostState, count = 1): PostCounts {
  counts[countedAs[state]] += count;
  return counts;
}
