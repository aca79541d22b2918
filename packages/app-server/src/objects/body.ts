import { Readable } from 'node:stream';
import type { ObjectBody } from './object-store.ts';

/** Runs a write of `body`. A put owns its body: a stream it did not finish (a bad key, a failed upload) is destroyed. */
export async function writingBody(body: ObjectBody, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (body instanceof Readable) body.destroy();
    throw error;
  }
}
