import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { t } from '../../server/messages';
import { makeScratch, type Scratch } from '../../server/media/storage';
import { receiveForm } from '../../server/media/uploads';

let root: string;
let scratch: Scratch;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-uploads-'));
  scratch = await makeScratch(root);
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

/** A request whose body has `ended` or not, and whose parser hands over one file part whose bytes are `file`. */
function requestWith(file: PassThrough, { ended }: { ended: boolean }) {
  const raw = Readable.from([]);
  if (ended) raw.resume();
  const warn = vi.fn();
  const request = {
    raw,
    log: { warn },
    async *parts() {
      yield { type: 'file', fieldname: 'file', filename: 'clip.mp4', mimetype: 'video/mp4', file };
    },
  } as unknown as FastifyRequest;
  return { request, warn, bodyEnded: new Promise((resolve) => raw.once('end', resolve)) };
}

const options = { fileField: 'file', maxFileBytes: 1_000_000, tooManyFiles: 'too many', parseAfterBodyMs: 100 };

it('refuses as malformed a body whose parser is still busy after its last byte, and closes the part it was writing', async () => {
  const file = new PassThrough();
  const { request, warn, bodyEnded } = requestWith(file, { ended: true });
  file.write('the first bytes, then nothing more');
  await bodyEnded;
  await expect(receiveForm(request, scratch, options)).rejects.toMatchObject({ statusCode: 400, message: t.upload.malformed });
  expect(file.destroyed).toBe(true);
  expect(warn).toHaveBeenCalledOnce();
});

it('lets a part take as long as its body keeps arriving', async () => {
  const file = new PassThrough();
  const { request } = requestWith(file, { ended: false });
  setTimeout(() => file.end('every byte, slowly'), 400);
  const form = await receiveForm(request, scratch, options);
  expect(form.files).toHaveLength(1);
  expect(await fs.readFile(form.files[0]!.path, 'utf8')).toBe('every byte, slowly');
});
