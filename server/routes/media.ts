import path from 'node:path';
import type { Static } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { t } from '../messages';
import { errorBody, HttpError } from '../http-error';
import { verifyMediaSignature } from '../media/signed-urls';
import { mediaSchemas } from '../../src/lib/contract/media';

const contentTypes: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
};

type ByteRange = { start: number; end: number } | 'unsatisfiable' | null;

/** One `bytes=` range (what <video> sends); several ranges are answered with the whole file, as RFC 9110 allows. */
export function parseRange(header: string | undefined, size: number): ByteRange {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * Media by signed URL: the signature is the permission, because a <video>, an <img> or a new tab
 * cannot send the Bearer header. Supports Range so players can seek.
 */
/** The answer is the file's bytes, not JSON, so only the request is typed from the schema. */
type FileRequest = { Params: Static<typeof mediaSchemas.file.params>; Querystring: Static<typeof mediaSchemas.file.querystring> };

export const mediaRoutes: FastifyPluginAsync = async (app) => {
  const { storage } = app.media;

  app.get<FileRequest>('/*', { schema: mediaSchemas.file }, async (request, reply) => {
    const key = request.params['*'];
    const { exp, sig } = request.query;
    if (!verifyMediaSignature(app.keys.mediaUrl, key, exp, sig, app.clock.now())) throw new HttpError(403, t.media.linkInvalid);
    const size = await storage.size(key);
    if (size === null) throw new HttpError(404, t.server.notFound);

    reply
      .header('Accept-Ranges', 'bytes')
      .header('Content-Type', contentTypes[path.extname(key)] ?? 'application/octet-stream')
      .header('Cache-Control', `private, max-age=${Math.max(0, Number(exp) - Math.floor(app.clock.now() / 1000))}`);

    const range = parseRange(request.headers.range, size);
    if (range === 'unsatisfiable') {
      return reply
        .status(416)
        .header('Content-Range', `bytes */${size}`)
        .type('application/json; charset=utf-8')
        .send(errorBody(416, t.media.rangeOutside));
    }
    if (range) {
      return reply
        .status(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
        .header('Content-Length', range.end - range.start + 1)
        .send(await storage.read(key, range));
    }
    return reply.header('Content-Length', size).send(await storage.read(key));
  });
};
