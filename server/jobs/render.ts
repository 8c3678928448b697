import crypto from 'node:crypto';
import fs from 'node:fs';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { RenderFailure } from '../../src/lib/render-failures';
import { creationRequests, photos, videos } from '../db/schema';
import type { Database } from '../db/connect';
import type { Clock } from '../clock';
import { isDiskFull } from '../http-error';
import { noLimits, probeVideo, type VideoInfo } from '../media/probe';
import { coversFrame, renderVariants, variantFrame } from '../media/render';
import type { MediaServices } from '../media/services';
import type { MediaStorage, Scratch } from '../media/storage';

export const renderJobName = 'render-request';
/** Where pg-boss moves a render job whose retries ran out, including one whose worker died. */
export const renderFailedJobName = 'render-request-failed';

export interface RenderJobData {
  requestId: number;
  /**
   * What the upload's probe found, so the render does not read the stored source twice more
   * (ffprobe and a decode of its last second).
   */
  source?: VideoInfo;
}

export interface RenderContext {
  db: Database;
  media: MediaServices;
  clock: Clock;
  signal?: AbortSignal;
}

export function requestPrefix(idUpload: string): string {
  return `requests/${idUpload}`;
}

/**
 * How long pg-boss waits before it takes a render for dead and retries it: longer than all its
 * passes may take, so a slow render is never run twice at once.
 */
export function renderExpirySeconds(countVideo: number, settings: MediaServices['settings']): number {
  return Math.ceil(countVideo / settings.renderOutputsPerPass) * settings.renderTimeoutSeconds + 10 * 60;
}

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = crypto.randomInt(index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let index = 0; index < items.length; index += size) result.push(items.slice(index, index + size));
  return result;
}

/** Variants that share a background are the same composition: it is encoded once and copied. */
interface Composition {
  background: string | null;
  positions: number[];
}

export function planCompositions(positions: number[], backgroundKeys: string[]): Composition[] {
  const order = shuffled(backgroundKeys);
  const byBackground = new Map<string | null, number[]>();
  for (const position of positions) {
    const background = order.length > 0 ? order[position % order.length]! : null;
    byBackground.set(background, [...(byBackground.get(background) ?? []), position]);
  }
  return [...byBackground].map(([background, grouped]) => ({ background, positions: grouped }));
}

/**
 * Renders the still-pending variants of one creation request. Finished files reach their final
 * keys only by one `storage.put`, so a worker killed mid-render leaves nothing that counts as
 * done, and a retry renders just what is still `loading`. Throws when any pass failed, so pg-boss
 * retries; a full disk instead ends the request at once, as no retry would find room.
 */
export async function renderRequest(
  { requestId, source: probed }: RenderJobData,
  { db, media, clock, signal }: RenderContext,
): Promise<void> {
  const { storage } = media;
  const [request] = await db.orm.select().from(creationRequests).where(eq(creationRequests.id, requestId));
  if (!request || request.status !== 'loading') return;

  const pending = await db.orm
    .select({ id: videos.id, position: videos.position })
    .from(videos)
    .where(and(eq(videos.requestId, requestId), eq(videos.status, 'loading')))
    .orderBy(asc(videos.position));
  const chosen = request.backgroundIds === null ? undefined : inArray(photos.id, request.backgroundIds);
  const backgrounds = await db.orm
    .select({ fileKey: photos.fileKey })
    .from(photos)
    .where(and(eq(photos.userId, request.userId), chosen))
    .orderBy(asc(photos.id));
  if (chosen && backgrounds.length === 0) {
    // Every chosen image was deleted: no retry brings them back, and a background the operator
    // did not choose would not be what they asked for.
    await failRequest(db, requestId, 'backgrounds_gone', ['loading'], new Date(clock.now()));
    return;
  }

  try {
    const scratch = await storage.scratch();
    try {
      await renderPending(request, probed, pending, backgrounds, scratch, { db, media, clock, signal });
    } finally {
      // Before the catch below: ffmpeg's partial outputs give a full disk its room back first.
      await scratch.dispose();
    }
  } catch (error) {
    if (signal?.aborted || !isDiskFull(error)) throw error;
    // The files go before the rows change: the database may live on the same full disk.
    await deleteVariants(storage, request);
    await failRequest(db, requestId, 'disk_full', ['loading', 'noactive'], new Date(clock.now()));
  }
}

/** Where a variant's files are stored: its video, its poster and the poster's small copy. */
const variantKeys = (prefix: string, position: number) => ({
  video: `${prefix}/${position}.mp4`,
  poster: `${prefix}/${position}.jpg`,
  thumbnail: `${prefix}/${position}-small.jpg`,
});

/** Deletes every variant and poster of the request, whichever attempt stored them, and one whose row never learnt of it. */
async function deleteVariants(storage: MediaStorage, request: typeof creationRequests.$inferSelect): Promise<void> {
  const prefix = requestPrefix(request.idUpload);
  for (let position = 0; position < request.countVideo; position++) {
    for (const key of Object.values(variantKeys(prefix, position))) await storage.delete(key);
  }
}

async function renderPending(
  request: typeof creationRequests.$inferSelect,
  probed: VideoInfo | undefined,
  pending: { id: number; position: number }[],
  backgrounds: { fileKey: string }[],
  scratch: Scratch,
  { db, media, clock, signal }: RenderContext,
): Promise<void> {
  const { storage, settings, tools } = media;
  const requestId = request.id;
  const source = await storage.localFile(request.sourceKey, scratch);
  // Jobs queued before the probe was carried, or before it held the picture's size the graph is built from, probe again.
  const info = probed?.width
    ? probed
    : await probeVideo(tools, source, noLimits).catch(async (error: Error) => {
        await keepReason(db, requestId, error.message, new Date(clock.now()));
        throw error;
      });
  const idOf = new Map(pending.map((video) => [video.position, video.id]));
  // A clip that fills the frame hides every background: all variants are one picture, encoded once.
  const compositions = planCompositions(
    pending.map((video) => video.position),
    coversFrame(info) ? [] : backgrounds.map((photo) => photo.fileKey),
  );

  const prefix = requestPrefix(request.idUpload);
  const failures: string[] = [];
  const localBackgrounds = new Map<string, string>();
  for (const { background } of compositions) {
    if (background !== null) localBackgrounds.set(background, await storage.localFile(background, scratch));
  }
  for (const pass of chunks(compositions, settings.renderOutputsPerPass)) {
    const targets = pass.map((composition, index) => ({
      background: composition.background === null ? null : localBackgrounds.get(composition.background)!,
      video: scratch.file(`variant-${index}.mp4`),
      poster: scratch.file(`variant-${index}.jpg`),
      thumbnail: scratch.file(`variant-${index}-small.jpg`),
    }));
    try {
      await renderVariants({
        tools,
        source,
        info,
        targets,
        preset: settings.renderPreset,
        timeoutMs: settings.renderTimeoutSeconds * 1000,
        signal,
      });
    } catch (error) {
      if (signal?.aborted || isDiskFull(error)) throw error;
      const reason = (error as Error).message;
      failures.push(reason);
      const ids = pass.flatMap((composition) => composition.positions.map((position) => idOf.get(position)!));
      await db.orm.update(videos).set({ renderFailure: 'failed', renderFailureDetail: reason }).where(inArray(videos.id, ids));
      continue;
    }
    for (const [index, composition] of pass.entries()) {
      for (const position of composition.positions) {
        const keys = variantKeys(prefix, position);
        for (const kind of ['video', 'poster', 'thumbnail'] as const) {
          const copy = scratch.file(`copy-${position}-${kind}`);
          await fs.promises.copyFile(targets[index]![kind], copy, fs.constants.COPYFILE_FICLONE);
          await storage.put(keys[kind], copy);
        }
        // Rendered, not published: no post yet (services/publishing/video-status.ts).
        const updated = await db.orm
          .update(videos)
          .set({
            status: 'noactive',
            fileKey: keys.video,
            posterKey: keys.poster,
            thumbnailKey: keys.thumbnail,
            renderFailure: null,
            renderFailureDetail: null,
            durationSeconds: info.durationSeconds,
            frameRate: info.fps,
            width: variantFrame.width,
            height: variantFrame.height,
          })
          .where(eq(videos.id, idOf.get(position)!))
          .returning({ id: videos.id });
        if (updated.length === 0) {
          // The request was deleted while it rendered: what was just written belongs to nobody.
          await storage.deleteAll(prefix);
          return;
        }
      }
    }
  }

  if (failures.length > 0) {
    await keepReason(db, requestId, failures[0]!, new Date(clock.now()));
    throw new Error(failures.join('\n'));
  }
  await db.orm
    .update(creationRequests)
    .set({ status: 'success', renderFailure: null, renderFailureDetail: null, updatedAt: new Date(clock.now()) })
    .where(and(eq(creationRequests.id, requestId), eq(creationRequests.status, 'loading')));
  // Every variant now stands on its own; the upload is no longer needed and may be gigabytes.
  await storage.delete(request.sourceKey);
}

/** The request keeps why its last attempt failed (the words of what failed), for the error it ends in when retries run out. */
async function keepReason(db: Database, requestId: number, detail: string, at: Date): Promise<void> {
  await db.orm
    .update(creationRequests)
    .set({ renderFailure: 'failed', renderFailureDetail: detail, updatedAt: at })
    .where(eq(creationRequests.id, requestId));
}

/**
 * Ends a request that cannot render: the request and its videos in `statuses` become errors of
 * this kind, together, so no video is left 'loading' beside a failed request. A video taken from
 * 'noactive' loses its files' keys, as the caller deleted them.
 */
async function failRequest(
  db: Database,
  requestId: number,
  failure: RenderFailure,
  statuses: ('loading' | 'noactive')[],
  at: Date,
): Promise<void> {
  await db.transaction(async (sql) => {
    const { rows } = await sql(
      `UPDATE creation_requests SET status = 'error', render_failure = $2, render_failure_detail = NULL, updated_at = $3
        WHERE id = $1 AND status = 'loading' RETURNING id`,
      [requestId, failure, at],
    );
    if (rows.length === 0) return;
    await sql(
      `UPDATE videos SET status = 'error', render_failure = $2, render_failure_detail = NULL, file_key = NULL, poster_key = NULL, thumbnail_key = NULL
        WHERE request_id = $1 AND status = ANY($3::text[])`,
      [requestId, failure, statuses],
    );
  });
}

/** After the last retry (or a worker that died on it): what did not render is an error, with its reason. */
export async function markRenderFailed({ requestId }: RenderJobData, { db, clock }: Pick<RenderContext, 'db' | 'clock'>): Promise<void> {
  await db.sql(
    `UPDATE videos SET status = 'error', render_failure = coalesce(render_failure, 'interrupted') WHERE request_id = $1 AND status = 'loading'`,
    [requestId],
  );
  await db.sql(
    `UPDATE creation_requests SET status = 'error', render_failure = coalesce(render_failure, 'interrupted'), updated_at = $2
     WHERE id = $1 AND status = 'loading'`,
    [requestId, new Date(clock.now())],
  );
}
