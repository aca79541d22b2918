import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';

type S3Module = typeof import('@aws-sdk/client-s3');

/** Parts of a multipart upload: at least S3's 5 MiB minimum; a body smaller than one part is one plain PUT. */
export const PART_SIZE_BYTES = 8 * 1024 * 1024;

export interface UploadTarget {
  Bucket: string;
  Key: string;
  ContentType: string;
}

/**
 * Uploads a stream of unknown length holding one part in memory at a time. S3 makes a multipart upload visible
 * only when completed, so a failed upload (aborted here) leaves the previous object in place.
 */
export async function uploadStream(client: S3Client, s3: S3Module, target: UploadTarget, body: Readable) {
  const chunks = partsOf(body);
  const first = await chunks.next();
  const firstPart = first.done ? Buffer.alloc(0) : first.value;
  if (firstPart.length < PART_SIZE_BYTES) {
    await client.send(new s3.PutObjectCommand({ ...target, Body: firstPart, ContentLength: firstPart.length }));
    return;
  }
  const { UploadId } = await client.send(new s3.CreateMultipartUploadCommand(target));
  const upload = { Bucket: target.Bucket, Key: target.Key, UploadId };
  try {
    const parts: { ETag?: string; PartNumber: number }[] = [];
    let part: Buffer | undefined = firstPart;
    while (part) {
      const PartNumber = parts.length + 1;
      const { ETag } = await client.send(
        new s3.UploadPartCommand({ ...upload, PartNumber, Body: part, ContentLength: part.length }),
      );
      parts.push({ ETag, PartNumber });
      const next = await chunks.next();
      part = next.done ? undefined : next.value;
    }
    await client.send(new s3.CompleteMultipartUploadCommand({ ...upload, MultipartUpload: { Parts: parts } }));
  } catch (error) {
    await chunks.return(undefined);
    await client.send(new s3.AbortMultipartUploadCommand(upload)).catch(() => undefined);
    throw error;
  }
}

/** The stream cut into parts of at least `PART_SIZE_BYTES` (the last one may be smaller). */
async function* partsOf(body: Readable): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let size = 0;
  let yielded = false;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    pending.push(bytes);
    size += bytes.length;
    if (size >= PART_SIZE_BYTES) {
      yield Buffer.concat(pending);
      yielded = true;
      pending = [];
      size = 0;
    }
  }
  if (size > 0 || !yielded) yield Buffer.concat(pending);
}
