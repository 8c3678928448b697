import crypto from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import type { BackgroundChoices, CreationRequestRow, Paged, PublicationRequestDetail } from '../../src/lib/contract';
import { t } from '../messages';
import { renderFailureText } from '../../src/lib/render-failures';
import { videoErrors } from '../../src/lib/post-failures';
import { createVideoSchema, maxBackgrounds } from '../../src/lib/schemas';
import { currentUser, requireUser } from '../auth/guards';
import { HttpError, parseBody } from '../http-error';
import { deleteStoppingUploads } from '../jobs/publish-stops';
import { renderExpirySeconds, renderJobName, requestPrefix } from '../jobs/render';
import { probeVideo } from '../media/probe';
import { signMediaUrl } from '../media/signed-urls';
import { receiveForm } from '../media/uploads';
import { pageFromQuery } from '../services/lists/paging';
import { requestListPage } from '../services/lists/request-list';
import { createCreationRequest, deleteCreationRequest } from '../services/publishing/creation-requests';
import { publishChoices } from '../services/publishing/publish-choices';
import { requestVisible, videosWithFailures, visibleRequest } from '../services/publishing/request-rows';
import { ownPhotoCount, ownPhotos } from '../services/library/photos';
import { createVideoSchemas } from '../../src/lib/contract/media';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The uploaded file's name as shown in lists: one line, printable, at most 255 characters (migration 0010). */
export function sourceNameOf(name: string | undefined): string | null {
  const clean = (name ?? '')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim()
    .slice(0, 255);
  return clean === '' ? null : clean;
}

export const createVideoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, media, keys, queue } = app;
  const { storage, settings } = media;
  const signed = (fileKey: string) => signMediaUrl(keys.mediaUrl, fileKey, settings.mediaUrlTtlSeconds, app.clock.now());
  const urlOf = (fileKey: string | null) => (fileKey ? signed(fileKey) : null);

  await app.register(multipart, {
    // A field is at most the JSON list of the chosen images' ids: up to `maxBackgrounds` of 10 digits.
    limits: { fileSize: settings.maxUploadBytes, files: 1, fields: 10, fieldSize: maxBackgrounds * 11 + 2 },
  });
  app.addHook('preHandler', requireUser);

  app.get('/', { schema: createVideoSchemas.list }, async (request): Promise<Paged<CreationRequestRow>> =>
    requestListPage(db, currentUser(request), pageFromQuery(request.query), urlOf, request.query),
  );

  /** What the create form offers: the caller's own images (an admin's too), newest first, as many as a request may use. */
  app.get('/backgrounds', { schema: createVideoSchemas.backgrounds }, async (request): Promise<BackgroundChoices> => {
    const rows = await ownPhotos(db, currentUser(request).id, maxBackgrounds);
    return { data: rows.map((row) => ({ id: row.id, url: signed(row.fileKey) })) };
  });

  /**
   * Refuses ids that are not the caller's images. Someone else's image gets the same answer as one
   * that does not exist, so the answer tells nothing about other users' images.
   */
  async function checkOwnImages(userId: number, photoIds: number[]): Promise<void> {
    if ((await ownPhotoCount(db, userId, photoIds)) !== photoIds.length) throw new HttpError(400, t.createVideo.unknownBackground);
  }

  app.get('/request/:idUpload', { schema: createVideoSchemas.detail }, async (request): Promise<PublicationRequestDetail> => {
    const user = currentUser(request);
    const { idUpload } = request.params;
    if (!uuidPattern.test(idUpload)) throw new HttpError(404, t.server.notFound);
    const found = await visibleRequest(db, user, idUpload, false);
    if (!found) throw new HttpError(404, t.server.notFound);
    const [items, choices] = await Promise.all([videosWithFailures(db, found.id), publishChoices(db, found.userId)]);
    return {
      ...choices,
      id: found.id,
      idUpload: found.idUpload,
      status: found.status,
      countVideo: found.countVideo,
      createdAt: found.createdAt.toISOString(),
      // The request's page names it by its file, as the list does (its delete asks by that name).
      sourceName: found.sourceName,
      error: renderFailureText(found.renderFailure, found.renderFailureDetail),
      video: items.map((item) => ({
        id: item.id,
        url: urlOf(item.fileKey),
        posterUrl: urlOf(item.posterKey),
        thumbnailUrl: urlOf(item.thumbnailKey),
        idUpload: found.idUpload,
        createdAt: item.createdAt.toISOString(),
        status: item.status,
        error: videoErrors(item.failed).error ?? renderFailureText(item.renderFailure, item.renderFailureDetail),
        errorInstagram: videoErrors(item.failed).errorInstagram,
        urlInstagram: item.urlInstagram,
        urlYouTube: item.urlYouTube,
        account: item.accountId === null ? null : { id: item.accountId },
        date: item.date?.toISOString() ?? null,
      })),
    };
  });

  app.post('/create', { schema: createVideoSchemas.create }, async (request, reply) => {
    const user = currentUser(request);
    if (!queue) throw new Error('creating videos needs the job queue');
    const scratch = await storage.scratch();
    try {
      const form = await receiveForm(request, scratch, {
        fileField: 'file',
        maxFileBytes: settings.maxUploadBytes,
        tooManyFiles: t.createVideo.atMostOne,
      });
      const { countVideo, photoIds } = parseBody(createVideoSchema(settings.maxVariants), {
        countVideo: form.fields.countVideo,
        photoIds: form.fields.photoIds,
        video: form.files,
      });
      // Without a choice (SPEC's shape), the request keeps none: the render then uses every image of
      // the owner, or a blurred copy of the source when they have none (server/jobs/render.ts).
      if (photoIds) await checkOwnImages(user.id, photoIds);
      const source = form.files[0]!.path;
      const info = await probeVideo(media.tools, source, { maxSeconds: settings.maxVideoSeconds, maxSide: settings.maxVideoSide });

      const idUpload = crypto.randomUUID();
      const sourceKey = `${requestPrefix(idUpload)}/source.${info.demuxer}`;
      try {
        await storage.put(sourceKey, source);
        const row = {
          idUpload,
          userId: user.id,
          countVideo,
          sourceKey,
          sourceName: sourceNameOf(form.files[0]!.name),
          backgroundIds: photoIds ?? null,
        };
        const id = await createCreationRequest(db, row, (requestId, executeSql) =>
          queue.send(
            renderJobName,
            { requestId, source: info },
            { expireInSeconds: renderExpirySeconds(countVideo, settings), db: { executeSql } },
          ),
        );
        queue.nudge(renderJobName);
        return reply.status(201).send({ id, idUpload });
      } catch (error) {
        await storage.deleteAll(requestPrefix(idUpload));
        throw error;
      }
    } finally {
      await scratch.dispose();
    }
  });

  /** Stops the request's uploads first, or refuses with 409: nothing of it goes live after the answer. */
  app.delete('/:id', { schema: createVideoSchemas.remove }, async (request, reply) => {
    const user = currentUser(request);
    const id = request.params.id;
    if (!(await requestVisible(db, user, id))) throw new HttpError(404, t.server.notFound);
    const removed = await deleteStoppingUploads(db, app.clock, 'request', id, (run) => deleteCreationRequest(run, id));
    if (!removed) throw new HttpError(404, t.server.notFound);
    await storage.deleteAll(requestPrefix(removed.idUpload));
    return reply.status(204).send();
  });
};
