import { text } from 'node:stream/consumers';
import { type Entry, type ZipFile, fromBufferPromise } from 'yauzl';

/** A zip's entries in the archive's order, read with yauzl (so that a test needs no `unzip`); a folder's is ''. */
export async function zipEntries(bytes: Uint8Array): Promise<{ path: string; content: string }[]> {
  const zip = await fromBufferPromise(Buffer.from(bytes), { lazyEntries: true });
  const entries: { path: string; content: string }[] = [];
  try {
    for (let entry = await next(zip); entry; entry = await next(zip)) {
      const folder = entry.fileName.endsWith('/');
      entries.push({
        path: entry.fileName,
        content: folder ? '' : await text(await zip.openReadStreamPromise(entry)),
      });
    }
  } finally {
    zip.close();
  }
  return entries;
}

/** The files of a zip (folders left out) by path, in the archive's order. */
export async function unzipped(bytes: Uint8Array): Promise<Record<string, string>> {
  const files = (await zipEntries(bytes)).filter(({ path }) => !path.endsWith('/'));
  return Object.fromEntries(files.map(({ path, content }) => [path, content]));
}

function next(zip: ZipFile): Promise<Entry | undefined> {
  return new Promise((resolve, reject) => {
    const onEntry = (entry: Entry) => settle(() => resolve(entry));
    const onEnd = () => settle(() => resolve(undefined));
    const onError = (error: Error) => settle(() => reject(error));
    const settle = (then: () => void) => {
      zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
      then();
    };
    zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zip.readEntry();
  });
}
