import { type PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';

/** One entry of a zip: its path in the archive (`/`-separated; a folder's ends in `/`) and a file's content. */
export interface ZipEntry {
  path: string;
  content?: string | Uint8Array;
}

/**
 * A zip of `entries`, written while it is read: an entry is taken from `entries` only once the archive has reached
 * the one before it, and the archive moves on only as fast as its reader reads, so a long conversation is never
 * held in memory whole (nor written to disk). Entries are deflated.
 *
 * When `entries` throws, the stream is destroyed with its error (a response already under way is cut, not ended
 * as a valid zip); when the stream is destroyed (its reader went away), `entries` is closed.
 */
export function zipStream(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as PassThrough;
  zip.on('error', (error: Error) => output.destroy(error));
  fill(zip, output, entries).catch((error: Error) => output.destroy(error));
  return output;
}

async function fill(zip: ZipFile, output: PassThrough, entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>) {
  for await (const entry of entries) {
    if (entry.path.endsWith('/')) zip.addEmptyDirectory(entry.path);
    else await added(zip, output, entry.path, bytesOf(entry.content));
  }
  zip.end();
}

/** Adds the file and resolves when the archive starts writing it: the moment to take the next entry. */
function added(zip: ZipFile, output: PassThrough, path: string, content: Buffer): Promise<void> {
  // yazl keeps the function below with its entry until the archive ends, and with it what it can reach: so the
  // bytes are let go once given (and `content` is read by no function, so that none keeps it).
  let bytes: Buffer | undefined = content;
  return new Promise((resolve, reject) => {
    const closed = () => reject(new Error('The zip was closed before its end'));
    if (output.destroyed) return closed();
    output.once('close', closed);
    zip.addReadStreamLazy(path, (give) => {
      output.off('close', closed);
      resolve();
      give(null, Readable.from([bytes ?? Buffer.alloc(0)], { objectMode: false }));
      bytes = undefined;
    });
  });
}

function bytesOf(content: string | Uint8Array = ''): Buffer {
  return typeof content === 'string'
    ? Buffer.from(content)
    : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
}
