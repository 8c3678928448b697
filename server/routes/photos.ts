import crypto from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import type { Paged, Photo } from '../../src/lib/contract';
import { t } from '../messages';
import { photoUploadSchema } from '../../src/lib/schemas';
import { currentUser, requireUser } from '../auth/guards';
import { HttpError, parseBody } from '../http-error';
import { imageDecodes } from '../media/probe';
import { probeImage, type ImageInfo } from '../media/image-probe';
import { signMediaUrl } from '../media/signed-urls';
import { receiveForm } from '../media/uploads';
import { pageFromQuery } from '../services/lists/paging';
import { photoPage } from '../services/lists/photo-list';
import { deletePhotoRow, insertPhotos } from '../services/library/photos';
import { photoSchemas } from '../../src/lib/contract/media';

/** Files one upload may carry; the form sends what the operator picked at once. */
const maxPhotosPerUpload = 100;

export const photoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, media, keys } = app;
  const { storage, settings } = media;
  const urlOf = (fileKey: string) => signMediaUrl(keys.mediaUrl, fileKey, settings.mediaUrlTtlSeconds, app.clock.now());

  await app.register(multipart, {
    limits: { fileSize: settings.maxImageBytes, files: maxPhotosPerUpload, fields: 10, fieldSize: 1024 },
  });
  app.addHook('preHandler', requireUser);

  app.get('/', { schema: photoSchemas.list }, async (request): Promise<Paged<Photo>> =>
    photoPage(db, currentUser(request), pageFromQuery(request.query), urlOf),
  );

  app.post('/', { schema: photoSchemas.upload }, async (request, reply) => {
    const user = currentUser(request);
    const scratch = await storage.scratch();
    const stored: string[] = [];
    try {
      const form = await receiveForm(request, scratch, {
        fileField: 'files',
        maxFileBytes: settings.maxImageBytes,
        tooManyFiles: t.upload.tooManyFiles(maxPhotosPerUpload),
      });
      parseBody(photoUploadSchema, { files: form.files });

      const checked: Array<{ path: string; info: ImageInfo }> = [];
      for (const file of form.files) {
        const info = await probeImage(file.path);
        if (!info) throw new HttpError(400, t.photos.mustBeImage);
        if (info.width * info.height > settings.maxImagePixels) {
          throw new HttpError(400, t.media.imageTooLarge(settings.maxImagePixels));
        }
        if (!(await imageDecodes(media.tools, file.path, info))) throw new HttpError(400, t.photos.mustBeImage);
        checked.push({ path: file.path, info });
      }

      const values = [];
      for (const { path, info } of checked) {
        const fileKey = `photos/${user.id}/${crypto.randomUUID()}.${info.extension}`;
        await storage.put(fileKey, path);
        stored.push(fileKey);
        values.push({ userId: user.id, fileKey, contentType: info.contentType, width: info.width, height: info.height });
      }
      const rows = await insertPhotos(db, values);
      stored.length = 0;
      return reply.status(201).send({ data: rows.map((row) => ({ id: row.id, url: urlOf(row.fileKey) })) });
    } finally {
      // Whatever failed, nothing of this request stays: neither scratch files nor half of the batch.
      await Promise.all(stored.map((fileKey) => storage.delete(fileKey)));
      await scratch.dispose();
    }
  });

  app.delete('/:id', { schema: photoSchemas.remove }, async (request, reply) => {
    const user = currentUser(request);
    const removed = await deletePhotoRow(db, user, request.params.id);
    if (!removed) throw new HttpError(404, t.server.notFound);
    await storage.delete(removed.fileKey);
    return reply.status(204).send();
  });
};
