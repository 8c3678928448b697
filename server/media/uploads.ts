import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { t } from '../messages';
import { HttpError } from '../http-error';
import type { Scratch } from './storage';

export interface ReceivedFile {
  /** The scratch path the bytes were streamed to. */
  path: string;
  /** What the browser declared; only a first filter, the bytes are checked afterwards. */
  name: string;
  type: string;
}

export interface ReceivedForm {
  files: ReceivedFile[];
  fields: Record<string, string>;
}

interface ReceiveOptions {
  fileField: string;
  maxFileBytes: number;
  /** The message when more files arrive than the route takes. */
  tooManyFiles: string;
  /** How long parsing may go on once the whole body has arrived (tests shorten it). */
  parseAfterBodyMs?: number;
}

/**
 * Once the request's last byte has arrived, what is left of parsing is the buffers already read:
 * milliseconds. A clean CI run and about one local run in five of the malformed-body property
 * (tests/server/upload-faults.test.ts) saw one upload never answer, its scratch left behind, and
 * @fastify/multipart's tracker has had several such hangs (fastify-multipart#497, #594). A parser
 * still busy this long after the body is taken as lost, and the body as malformed.
 */
const defaultParseAfterBodyMs = 30_000;

/**
 * Streams every file part of a multipart request into `scratch`, never holding a whole file in
 * memory, and collects the text fields. Multipart limit errors become the operator's messages.
 */
export async function receiveForm(request: FastifyRequest, scratch: Scratch, options: ReceiveOptions): Promise<ReceivedForm> {
  const form: ReceivedForm = { files: [], fields: {} };
  let current: MultipartFile | undefined;
  const parsing = (async () => {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        form.fields[part.fieldname] = String(part.value);
        continue;
      }
      current = part;
      if (part.fieldname !== options.fileField) {
        await drain(part);
        continue;
      }
      const path = scratch.file(`upload-${form.files.length}`);
      await pipeline(part.file, fs.createWriteStream(path));
      form.files.push({ path, name: part.filename, type: part.mimetype });
    }
    return form;
  })();
  const stall = stalledAfterBody(request, options.parseAfterBodyMs ?? defaultParseAfterBodyMs);
  try {
    return await Promise.race([parsing, stall.stalled]);
  } catch (error) {
    if (error === stalledParse) {
      request.log.warn({ files: form.files.length, fields: Object.keys(form.fields) }, 'multipart parsing stalled after the body ended');
      // Ends the part being written, so its scratch file is closed before the route removes the folder.
      current?.file.destroy(new Error('multipart parsing stalled'));
      parsing.catch(() => undefined);
      throw new HttpError(400, t.upload.malformed);
    }
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, t.media.fileTooLarge(options.maxFileBytes));
    if (code === 'FST_FILES_LIMIT') throw new HttpError(400, options.tooManyFiles);
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_PARTS_LIMIT') throw new HttpError(400, t.server.badJson);
    // A system call failed (a full disk writing scratch, say): this machine's fault, not the body's.
    if ((error as { syscall?: string }).syscall !== undefined) throw error;
    // Everything else here is busboy reading the body ('Unexpected end of multipart data', 'Multipart:
    // Boundary not found', a part cut short) or the request stream ending early: the sender's fault.
    throw new HttpError(400, t.upload.malformed);
  } finally {
    stall.cancel();
  }
}

const stalledParse = new Error('multipart parsing stalled after the body ended');

/** Rejects with `stalledParse` once `ms` have passed since the request's body ended; `cancel` stops it. */
function stalledAfterBody(request: FastifyRequest, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  let onEnd = () => undefined as void;
  const stalled = new Promise<never>((_, reject) => {
    onEnd = () => {
      timer = setTimeout(() => reject(stalledParse), ms);
    };
    if (request.raw.readableEnded) onEnd();
    else request.raw.once('end', onEnd);
  });
  return {
    stalled,
    cancel() {
      clearTimeout(timer);
      request.raw.off('end', onEnd);
    },
  };
}

async function drain(part: MultipartFile): Promise<void> {
  for await (const chunk of part.file) void chunk;
}
