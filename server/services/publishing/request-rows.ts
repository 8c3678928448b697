import { and, asc, eq, getTableColumns, inArray, isNotNull, sql } from 'drizzle-orm';
import type { SessionUser } from '../../../src/lib/contract';
import type { FailedPost } from '../../../src/lib/post-failures';
import type { Database } from '../../db/connect';
import { creationRequests, videos } from '../../db/schema';
import { visibleTo } from '../../auth/ownership';
import { failedPostsColumn } from '../profiles/account-views';

/** A creation request's row and its videos' as the create and publish routes read them; their changes are in post-lifecycle.ts. */

export type RequestRow = typeof creationRequests.$inferSelect;
export type VideoRow = typeof videos.$inferSelect;

// The outer columns are written out with their tables: in a one-table select Drizzle renders a
// column as a bare "id", which inside these subqueries would name the subquery's own column.

/**
 * The videos a publication took in: those with posts, and those whose posts were cancelled, which
 * keep the date the publication gave them; a rendered video left out of it has neither.
 */
const inPublication = sql`(EXISTS (SELECT 1 FROM video_posts WHERE video_posts.video_id = videos.id) OR videos.date IS NOT NULL)`;

/** The request `idUpload` when the user sees it, only once published when `published`; undefined otherwise. */
export async function visibleRequest(
  db: Database,
  user: SessionUser,
  idUpload: string,
  published: boolean,
): Promise<RequestRow | undefined> {
  const [row] = await db.orm
    .select()
    .from(creationRequests)
    .where(
      and(
        eq(creationRequests.idUpload, idUpload),
        visibleTo(user, creationRequests.userId),
        published ? isNotNull(creationRequests.publishedAt) : undefined,
      ),
    );
  return row;
}

/** Whether request `id` exists and the user sees it. */
export async function requestVisible(db: Database, user: SessionUser, id: number): Promise<boolean> {
  const [visible] = await db.orm
    .select({ id: creationRequests.id })
    .from(creationRequests)
    .where(and(eq(creationRequests.id, id), visibleTo(user, creationRequests.userId)));
  return visible !== undefined;
}

export async function requestById(db: Database, id: number): Promise<RequestRow | undefined> {
  const [row] = await db.orm.select().from(creationRequests).where(eq(creationRequests.id, id));
  return row;
}

/** The request's videos in order, each with its failed posts (failedPostsColumn). */
export async function videosWithFailures(db: Database, requestId: number) {
  return db.orm
    .select({ ...getTableColumns(videos), failed: sql<FailedPost[] | null>`${sql.raw(failedPostsColumn)}` })
    .from(videos)
    .where(eq(videos.requestId, requestId))
    .orderBy(asc(videos.position));
}

/** The videos the request's publication took in (see inPublication), in order. */
export async function publishedVideosOf(db: Pick<Database, 'orm'>, requestId: number): Promise<VideoRow[]> {
  return db.orm
    .select()
    .from(videos)
    .where(and(eq(videos.requestId, requestId), inPublication))
    .orderBy(asc(videos.position));
}

export async function videoById(db: Database, id: number): Promise<VideoRow | undefined> {
  const [row] = await db.orm.select().from(videos).where(eq(videos.id, id));
  return row;
}

/** Those of `ids` that are the request's videos, with their place, length, frame rate and frame. */
export async function videosOfRequestAmong(db: Database, requestId: number, ids: number[]) {
  return db.orm
    .select({
      id: videos.id,
      position: videos.position,
      durationSeconds: videos.durationSeconds,
      fps: videos.frameRate,
      width: videos.width,
      height: videos.height,
    })
    .from(videos)
    .where(and(inArray(videos.id, ids), eq(videos.requestId, requestId)));
}
