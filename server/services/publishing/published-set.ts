import { and, eq, isNotNull } from 'drizzle-orm';
import type { PlatformEdit, SessionUser } from '../../../src/lib/contract';
import { platformIds, platformOf } from '../../../src/lib/platforms';
import type { StoredWait } from '../../../src/lib/post-waits';
import { failureText, storedFailure, type FailureKind } from '../../../src/lib/post-failures';
import type { Database } from '../../db/connect';
import { creationRequests } from '../../db/schema';
import { found, visibleTo } from '../../auth/ownership';
import type { Platform } from '../../platforms/types';

/** What a published set's page reads of its posts beside their states (video-status.ts). */

/** The id of the published set `idUpload` when the user sees it; one not published, or another operator's, is not found (404). */
export async function visiblePublishedSetId(db: Database, user: SessionUser, idUpload: string): Promise<number> {
  const [set] = await db.orm
    .select({ id: creationRequests.id })
    .from(creationRequests)
    .where(and(eq(creationRequests.idUpload, idUpload), isNotNull(creationRequests.publishedAt), visibleTo(user, creationRequests.userId)));
  return found(set).id;
}

export interface PostWaits {
  /** The soonest wait of the video's pending posts, with the platform it is on. */
  wait: StoredWait | null;
  next_attempt_at: string | Date | null;
  planned_at: string | Date;
  changeable: boolean;
}

/** Per video of a request (or its video `videoId`), what its posts wait for: the soonest wait, and whether all still wait unstarted. */
export async function postWaitsOf(db: Pick<Database, 'sql'>, requestId: number, videoId?: number): Promise<Map<number, PostWaits>> {
  const { rows } = await db.sql(
    `SELECT p.video_id,
            (array_agg(jsonb_build_object('platform', p.platform, 'kind', p.wait_kind, 'detail', p.wait_detail) ORDER BY p.next_attempt_at NULLS LAST)
               FILTER (WHERE p.status = 'pending' AND p.wait_kind IS NOT NULL))[1] AS wait,
            min(p.next_attempt_at) FILTER (WHERE p.status = 'pending') AS next_attempt_at,
            min(p.scheduled_at) AS planned_at,
            bool_and(p.status = 'pending' AND p.started_at IS NULL) AS changeable
       FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id
      WHERE v.request_id = $1 ${videoId === undefined ? '' : 'AND v.id = $2'}
      GROUP BY p.video_id`,
    videoId === undefined ? [requestId] : [requestId, videoId],
  );
  return new Map(rows.map((row) => [row.video_id as number, row as PostWaits]));
}

/** Per platform with published videos, where the set's last edit stands; only YouTube's API edits a published post. */
export async function publishedEditsOf(db: Database, requestId: number): Promise<PlatformEdit[]> {
  const { rows } = await db.sql(
    `SELECT p.platform,
            count(*) FILTER (WHERE p.edit_state = 'pending')::int AS pending,
            count(*) FILTER (WHERE p.edit_state = 'done')::int AS done,
            coalesce(jsonb_agg(jsonb_build_object('kind', p.edit_failure, 'detail', p.edit_failure_detail) ORDER BY p.video_id)
                       FILTER (WHERE p.edit_state = 'error'), '[]'::jsonb) AS errors
       FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id
      WHERE v.request_id = $1 AND p.status = 'done'
      GROUP BY p.platform`,
    [requestId],
  );
  return rows
    .map((row) => ({
      platform: row.platform as Platform,
      editable: platformOf(row.platform as Platform).can.editAfterPublish,
      pending: row.pending,
      done: row.done,
      errors: (row.errors as { kind: FailureKind; detail: unknown }[]).map(({ kind, detail }) =>
        failureText(row.platform, storedFailure(kind, detail)),
      ),
    }))
    .sort((a, b) => platformIds.indexOf(a.platform) - platformIds.indexOf(b.platform));
}

/** The posts of the request's video `videoId` that wait unstarted: what a move of the video moves. */
export async function unstartedPostsOf(
  db: Database,
  requestId: number,
  videoId: number,
): Promise<{ account_id: number; platform: Platform; scheduled_at: string | Date }[]> {
  const { rows } = await db.sql(
    `SELECT p.account_id, p.platform, p.scheduled_at FROM video_posts p JOIN videos v ON v.id = p.video_id
      WHERE p.video_id = $1 AND v.request_id = $2 AND p.status = 'pending' AND p.started_at IS NULL`,
    [videoId, requestId],
  );
  return rows;
}
