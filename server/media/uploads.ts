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
}

/**
 * Streams every file part of a multipart request into `scratch`, never holding a whole file in
 * memory, and collects the text fields. Multipart limit errors become the operator's messages.
 */
export async function receiveForm(request: FastifyRequest, scratch: Scratch, options: ReceiveOptions): Promise<ReceivedForm> {
  const form: ReceivedForm = { files: [], fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        form.fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== options.fileField) {
        await drain(part);
        continue;
      }
      const path = scratch.file(`upload-${form.files.length}`);
      await pipeline(part.file, fs.createWriteStream(path));
      form.files.push({ path, name: part.filename, type: part.mimetype });
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, t.media.fileTooLarge(options.maxFileBytes));
    if (code === 'FST_FILES_LIMIT') throw new HttpError(400, options.tooManyFiles);
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_PARTS_LIMIT') throw new HttpError(400, t.server.badJson);
    // A system call failed (a full disk writing scratch, say): this machine's fault, not the body's.
    if ((error as { syscall?: string }).syscall !== undefined) throw error;
    // Everything else here is busboy reading the body ('Unexpected end of multipart data', 'Multipart:
    // Boundary not found', a part cut short) or the request stream ending early: the sender's fault.
    throw new HttpError(400, t.upload.malformed);
  }
  return form;
}

async function drain(part: MultipartFile): Promise<void> {
  for await (const chunk of part.file) void chunk;
}
