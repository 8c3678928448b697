import type { PostingSlots } from '../../../src/lib/contract';
import { kyivWallTime } from '../../../src/lib/kyiv-time';
import { t } from '../../messages';
import type { Database } from '../../db/connect';
import type { Platform } from '../../platforms/types';
import { profileSlots } from './posting-slots';

/**
 * Duplicates (issue 43.5): what an operator would regret sending, warned before it is saved and
 * saved anyway only when they say so (a publish's `checkDuplicates` left out, a move's `allowDuplicates`).
 *
 * What counts, and why:
 * - `repeat`: the video already has a post on that platform that is waiting or went out. One
 *   rendered file twice on a platform is what the platforms flag as re-uploaded content, and
 *   video_posts keeps one post per video and platform, so a plan row or a publish naming it again
 *   is a mistake, whichever profile it names. Two candidates of one batch naming the same video
 *   and platform are the same mistake. A failed post is not counted: it never reached the
 *   audience, and sending it again is what the operator's retry is for.
 * - `gap`: another video's post of the same profile within the profile's minimum gap (its
 *   posting slots, minGapMinutes), before or after. Its audience gets two posts at once, which the
 *   gap exists to prevent; a video's own posts on its other platforms go out together by design
 *   and are not counted, as the slot plan counts them as one.
 * The other variants of the same source going to one profile are NOT counted: they differ by
 * their backgrounds, and spreading a request's variants over its profiles (several each, over
 * days) is this product's everyday use; the gap keeps them apart in time. Nor is a source uploaded
 * again: the source file is deleted once rendered and no fingerprint of it is kept, and its name
 * alone ('video.mp4') would warn about strangers.
 */

export interface DuplicateCandidate {
  videoId: number;
  accountId: number;
  platform: Platform;
  /** When it would go out, ms. */
  at: number;
  /** False: checked for repeats only, not for its own gap (a post of a set published at once; see the publish route). Others' gaps still count it. */
  gap?: boolean;
}

/** A post a candidate collides with: one already saved (`videoId`'s post) or another candidate of the same batch (`candidate`, its index). */
export interface Collision {
  videoId: number;
  accountId: number | null;
  platform: Platform;
  at: number;
  /** The index of the colliding candidate when it is one of the batch, else null (a saved post). */
  candidate: number | null;
}

export type Duplicate = ({ kind: 'repeat' } | { kind: 'gap'; minutes: number }) & { with: Collision };

export interface DuplicateOptions {
  installationSlots: PostingSlots;
  /** Videos whose saved posts do not count: the ones being moved, whose posts leave their old places. */
  skipVideos?: number[];
}

const minute = 60_000;

interface SavedPost {
  videoId: number;
  accountId: number | null;
  platform: Platform;
  at: number;
}

/** When a saved post counts: a waiting one when it is due, one that went out when it did. */
const postTime = `CASE WHEN p.status = 'done' THEN coalesce(p.published_at, p.scheduled_at) ELSE p.scheduled_at END`;

/**
 * For each candidate, what it duplicates (none: an empty list), in three queries whatever the
 * number of candidates: the candidates' videos' posts, the profiles' slots, and the profiles'
 * posts around the candidates' times.
 */
export async function findDuplicates(db: Database, candidates: DuplicateCandidate[], options: DuplicateOptions): Promise<Duplicate[][]> {
  if (candidates.length === 0) return [];
  const skipped = new Set(options.skipVideos ?? []);
  const videoIds = [...new Set(candidates.map((candidate) => candidate.videoId))];
  const accountIds = [...new Set(candidates.map((candidate) => candidate.accountId))];
  const slots = await profileSlots(db, accountIds, options.installationSlots);
  const gapOf = (accountId: number) => (slots.get(accountId)?.minGapMinutes ?? options.installationSlots.minGapMinutes) * minute;
  const widest = Math.max(...accountIds.map(gapOf));
  const times = candidates.map((candidate) => candidate.at);
  const [ofVideos, ofProfiles] = await Promise.all([
    db.sql(
      `SELECT p.video_id, p.account_id, p.platform, ${postTime} AS at
         FROM video_posts p
        WHERE p.video_id = ANY($1::int[]) AND p.status IN ('pending', 'done')`,
      [videoIds],
    ),
    widest === 0
      ? Promise.resolve({ rows: [] as Record<string, unknown>[] })
      : db.sql(
          `SELECT p.video_id, p.account_id, p.platform, ${postTime} AS at
             FROM video_posts p
            WHERE p.account_id = ANY($1::int[]) AND p.status IN ('pending', 'done')
              AND ${postTime} > $2 AND ${postTime} < $3`,
          [accountIds, new Date(Math.min(...times) - widest), new Date(Math.max(...times) + widest)],
        ),
  ]);
  const saved = (rows: Record<string, unknown>[]): SavedPost[] =>
    rows
      .filter((row) => !skipped.has(row.video_id as number))
      .map((row) => ({
        videoId: row.video_id as number,
        accountId: row.account_id as number | null,
        platform: row.platform as Platform,
        at: new Date(row.at as string).getTime(),
      }));

  const postsOfVideo = new Map<string, SavedPost>();
  for (const post of saved(ofVideos.rows)) postsOfVideo.set(`${post.videoId}:${post.platform}`, post);
  const postsOfProfile = new Map<number, SavedPost[]>();
  for (const post of saved(ofProfiles.rows)) postsOfProfile.set(post.accountId!, [...(postsOfProfile.get(post.accountId!) ?? []), post]);
  const candidatesOfProfile = new Map<number, number[]>();
  for (const [index, candidate] of candidates.entries()) {
    candidatesOfProfile.set(candidate.accountId, [...(candidatesOfProfile.get(candidate.accountId) ?? []), index]);
  }

  const firstOf = new Map<string, number>();
  return candidates.map((candidate, index) => {
    const found: Duplicate[] = [];
    const key = `${candidate.videoId}:${candidate.platform}`;
    const savedPost = postsOfVideo.get(key);
    if (savedPost) found.push({ kind: 'repeat', with: { ...savedPost, candidate: null } });
    const earlier = firstOf.get(key);
    if (earlier === undefined) firstOf.set(key, index);
    else found.push({ kind: 'repeat', with: { ...candidates[earlier]!, candidate: earlier } });

    const gapMs = gapOf(candidate.accountId);
    if (gapMs > 0 && candidate.gap !== false) {
      const near = (other: { videoId: number; at: number }) =>
        other.videoId !== candidate.videoId && Math.abs(other.at - candidate.at) < gapMs;
      // One warning per other video: its posts on several platforms are one post for the gap.
      const seen = new Set<number>();
      for (const post of postsOfProfile.get(candidate.accountId) ?? []) {
        if (near(post) && !seen.has(post.videoId)) {
          seen.add(post.videoId);
          found.push({ kind: 'gap', minutes: gapMs / minute, with: { ...post, candidate: null } });
        }
      }
      for (const other of candidatesOfProfile.get(candidate.accountId)!) {
        const post = candidates[other]!;
        if (other !== index && near(post) && !seen.has(post.videoId)) {
          seen.add(post.videoId);
          found.push({ kind: 'gap', minutes: gapMs / minute, with: { ...post, candidate: other } });
        }
      }
    }
    return found;
  });
}

/** A moment as the warnings show it: Kyiv's `dd.mm HH:MM`. */
function shownTime(at: number): string {
  const wall = kyivWallTime(at);
  return `${wall.slice(8, 10)}.${wall.slice(5, 7)} ${wall.slice(11, 16)}`;
}

/**
 * The duplicates in words, one line each and each once: a pair of the batch's own candidates is
 * named by the first of them that checks its gap, and a video's several platforms make one line for the gap.
 * `nameOf` names a candidate ('Відео 2'), `profileOf` a profile.
 */
export function duplicateLines(
  candidates: DuplicateCandidate[],
  found: Duplicate[][],
  nameOf: (index: number) => string,
  profileOf: (accountId: number | null) => string,
): string[] {
  const lines = new Set<string>();
  for (const [index, duplicates] of found.entries()) {
    const candidate = candidates[index]!;
    for (const duplicate of duplicates) {
      const other = duplicate.with;
      if (duplicate.kind === 'repeat') {
        lines.add(
          other.candidate === null
            ? t.spread.duplicateRepeat(nameOf(index), t.platform.names[other.platform], profileOf(other.accountId), shownTime(other.at))
            : t.spread.duplicateTwice(nameOf(index), t.platform.names[other.platform]),
        );
      } else if (other.candidate === null || other.candidate > index || candidates[other.candidate]!.gap === false) {
        const otherName = other.candidate === null ? t.spread.savedVideo(other.videoId) : nameOf(other.candidate).toLowerCase();
        lines.add(t.spread.duplicateGap(nameOf(index), profileOf(candidate.accountId), otherName, shownTime(other.at), duplicate.minutes));
      }
    }
  }
  return [...lines];
}
