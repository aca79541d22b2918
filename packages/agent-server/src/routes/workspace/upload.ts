import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { HttpError, InputError } from '@bosun/http';
import busboy, { type Busboy } from 'busboy';
import type { FastifyRequest } from 'fastify';

/** The largest file an upload may carry. */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

/**
 * Writes the multipart field `file` of `request` to `target` (parents created): into a temporary file beside
 * it first, renamed over it once complete, so a failed or refused upload changes nothing.
 */
export async function receiveUpload(request: FastifyRequest, target: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const temporary = join(dirname(target), `.${basename(target)}.${randomUUID()}.upload`);
  let received = false;
  let truncated = false;
  try {
    await new Promise<void>((resolve, reject) => {
      let parser: Busboy;
      try {
        parser = busboy({ headers: request.headers, limits: { files: 1, fileSize: MAX_UPLOAD_BYTES } });
      } catch (error) {
        reject(multipartError((error as Error).message));
        return;
      }
      const writes: Promise<void>[] = [];
      parser.on('file', (field, file) => {
        if (field !== 'file' || received) {
          file.resume();
          return;
        }
        received = true;
        file.on('limit', () => {
          truncated = true;
        });
        writes.push(pipeline(file, createWriteStream(temporary)));
      });
      parser.on('close', () => Promise.all(writes).then(() => resolve(), reject));
      parser.on('error', (error) => reject(multipartError((error as Error).message)));
      request.raw.pipe(parser);
    });
    if (!received) throw multipartError('Field required: the file is sent as the multipart field `file`');
    if (truncated) throw new HttpError(413, `The file is larger than ${MAX_UPLOAD_BYTES} bytes`);
    await rename(temporary, target);
  } finally {
    await rm(temporary, { force: true });
  }
}

function multipartError(msg: string): InputError {
  return new InputError([{ loc: ['body', 'file'], msg, type: 'value_error' }]);
}
