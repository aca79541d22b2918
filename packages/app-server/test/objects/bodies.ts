import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

/** A deterministic body of `size` bytes streamed in 64 KiB chunks, and the SHA-256 it must have. */
export function streamedBody(size: number): { body: Readable; sha256: string } {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  for (let offset = 0, n = 0; offset < size; offset += 64 * 1024, n++) {
    const chunk = Buffer.alloc(Math.min(64 * 1024, size - offset), n % 251);
    chunk.writeUInt32BE(n, 0);
    hash.update(chunk);
    chunks.push(chunk);
  }
  return { body: Readable.from(chunks), sha256: hash.digest('hex') };
}

/** A stream that sends `bytesBeforeFailing` bytes, then fails as a broken upload does. */
export function failingBody(bytesBeforeFailing: number): Readable {
  async function* chunks() {
    for (let sent = 0; sent < bytesBeforeFailing; sent += 64 * 1024) yield Buffer.alloc(64 * 1024, 7);
    throw new Error('the client went away');
  }
  return Readable.from(chunks());
}

export async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Runs `task` for each item, `concurrency` at a time. */
export async function eachLimited<T>(items: T[], concurrency: number, task: (item: T) => Promise<unknown>) {
  for (let start = 0; start < items.length; start += concurrency) {
    await Promise.all(items.slice(start, start + concurrency).map(task));
  }
}
