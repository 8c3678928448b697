import { eq } from 'drizzle-orm';
import type { Database, RunSql } from '../../db/connect';
import { creationRequests } from '../../db/schema';

/** A request as the upload makes it, before its render: the source file and what to render from it. */
export interface NewCreationRequest {
  idUpload: string;
  userId: number;
  countVideo: number;
  sourceKey: string;
  sourceName: string | null;
  /** The owner's images chosen as backgrounds; null when none was chosen. */
  backgroundIds: number[] | null;
}

/**
 * Writes the request, `loading`, with its `countVideo` videos, `loading` too, for the render job
 * to fill in, and sends that job (`sendRender`, given the request's id and the transaction): one
 * transaction, so either all exist or none. The request's id.
 */
export async function createCreationRequest(
  db: Database,
  request: NewCreationRequest,
  sendRender: (requestId: number, run: RunSql) => Promise<unknown>,
): Promise<number> {
  return db.transaction(async (run) => {
    const requestId = await insertCreationRequest(run, request);
    await sendRender(requestId, run);
    return requestId;
  });
}

async function insertCreationRequest(run: RunSql, request: NewCreationRequest): Promise<number> {
  const { rows } = await run(
    `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, source_name, background_ids)
     VALUES ($1, $2, 'loading', $3, $4, $5, $6) RETURNING id`,
    [request.idUpload, request.userId, request.countVideo, request.sourceKey, request.sourceName, request.backgroundIds],
  );
  const requestId = rows[0].id as number;
  await run(
    `INSERT INTO videos (request_id, user_id, position, status)
     SELECT $1, $2, position, 'loading' FROM generate_series(0, $3::int - 1) AS position`,
    [requestId, request.userId, request.countVideo],
  );
  return requestId;
}

/** Deletes the request's row and, by their foreign keys, its videos and posts; undefined when there was none. */
export async function deleteCreationRequest(run: RunSql, id: number): Promise<{ idUpload: string } | undefined> {
  const { rows } = await run(`DELETE FROM creation_requests WHERE id = $1 RETURNING id_upload`, [id]);
  return rows[0] && { idUpload: rows[0].id_upload as string };
}

/** The user's requests, by their upload id: where their files are. */
export async function requestsOfUser(db: Database, userId: number): Promise<{ idUpload: string }[]> {
  return db.orm.select({ idUpload: creationRequests.idUpload }).from(creationRequests).where(eq(creationRequests.userId, userId));
}
