import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route passes its body on as it came (a reverse proxy): its Content-Encoding is the next server's. */
    forwardsBody?: boolean;
  }
}

/** The config of a route whose body is passed on as it came. */
export const FORWARDS_BODY = { forwardsBody: true };

/**
 * Request bodies sent with a `Content-Encoding`: a JSON body in gzip, deflate or br is decoded before it is
 * parsed, and the body limit counts the decoded bytes (a decompression bomb is a 413, stopped as soon as it
 * passes the limit); any other coding, or a coded body of another type (read as a stream by its route), is a 415.
 * Routes whose config has `forwardsBody` pass the body on unread.
 */
export function installContentEncoding(app: FastifyInstance): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    const codings = codingsOf(request.headers['content-encoding']);
    if (codings.length === 0 || request.routeOptions.config.forwardsBody) {
      return payload;
    }
    if (!isJson(request)) {
      throw new HttpError(415, 'Content-Encoding is only accepted on application/json bodies');
    }
    const unknown = codings.find((coding) => !DECODERS[coding]);
    if (unknown) throw new HttpError(415, `Unsupported Content-Encoding: ${unknown} (gzip, deflate or br)`);
    return decoded(payload, codings, request.routeOptions.bodyLimit);
  });
}

/** The codings in the order they were applied, `identity` left out. */
function codingsOf(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

function isJson(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return type !== undefined && type.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/**
 * `payload` decoded (the last coding applied first), cut with a 413 once it passes `limit` decoded bytes. The
 * stream tells Fastify how many bytes came (`receivedEncodedLength`), which it checks against Content-Length.
 */
function decoded(payload: Readable, codings: string[], limit: number): Readable {
  let out: Readable = payload;
  const stages: Transform[] = [];
  for (const coding of [...codings].reverse()) {
    const stage = (DECODERS[coding] as () => Transform)();
    stages.push(stage);
    out = out.pipe(stage);
  }
  // The rest of the body is read and dropped: the client gets its 413 rather than a reset connection.
  const counted = new DecodedBody(limit, () => {
    payload.unpipe();
    for (const stage of stages) stage.destroy();
    payload.resume();
  });
  payload.on('data', (chunk: Buffer) => {
    counted.receivedEncodedLength += chunk.length;
  });
  for (const stage of stages) {
    stage.on('error', (error: Error) =>
      counted.destroy(new HttpError(400, `The request body is not valid ${codings.join(', ')}: ${error.message}`)),
    );
  }
  payload.on('error', (error) => counted.destroy(error));
  return out.pipe(counted);
}

/** Passes decoded bytes on while they stay within the limit. */
class DecodedBody extends Transform {
  receivedEncodedLength = 0;
  private decodedLength = 0;
  constructor(
    private readonly limit: number,
    private readonly stopDecoding: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.decodedLength += chunk.length;
    if (this.decodedLength > this.limit) {
      this.stopDecoding();
      done(new HttpError(413, `The decoded request body is larger than ${this.limit} bytes`));
      return;
    }
    done(null, chunk);
  }
}
