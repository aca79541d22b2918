import { constants } from 'node:fs';
import { access, mkdir, open, readFile, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { writingBody } from './body.ts';
import {
  errorCode,
  filesUnder,
  isMissing,
  moveInto,
  pruneEmptyFolders,
  removeStaleTemporaries,
  writeTemporary,
} from './disk-files.ts';
import { checkObjectKey, checkObjectPrefix } from './object-key.ts';
import {
  DEFAULT_CONTENT_TYPE,
  type ObjectBody,
  type ObjectHead,
  ObjectKeyError,
  type ObjectStore,
  ObjectStoreClosedError,
  ObjectStoreUnavailableError,
  type PutOptions,
} from './object-store.ts';

/** Temporary files older than this were left by a crash, not by a write still going on. */
const STALE_TEMPORARY_MS = 24 * 60 * 60 * 1000;
const DELETE_CONCURRENCY = 16;

/**
 * Objects as files under a directory: `data/<key>` holds the bytes, `content-types/<key>` a content type other
 * than the default, and `tmp/` the writes in progress, each moved into place by one rename when complete.
 * Unlike S3, a key cannot also be a folder of other keys (`a` and `a/b`): that is an `ObjectKeyError`.
 */
export class DiskObjectStore implements ObjectStore {
  private readonly dataRoot: string;
  private readonly typesRoot: string;
  private readonly tmpRoot: string;
  private started: Promise<void> | undefined;
  private closed = false;

  constructor(readonly root: string) {
    const base = resolve(root);
    this.dataRoot = join(base, 'data');
    this.typesRoot = join(base, 'content-types');
    this.tmpRoot = join(base, 'tmp');
  }

  put(key: string, body: ObjectBody, options: PutOptions = {}): Promise<void> {
    return writingBody(body, () => this.write(key, body, options));
  }

  private async write(key: string, body: ObjectBody, options: PutOptions): Promise<void> {
    const target = this.dataPath(key);
    await this.start();
    const contentType = options.contentType ?? DEFAULT_CONTENT_TYPE;
    const temporaryData = await writeTemporary(this.tmpRoot, body);
    const temporaryType =
      contentType === DEFAULT_CONTENT_TYPE ? undefined : await writeTemporary(this.tmpRoot, contentType);
    try {
      await moveInto(temporaryData, target);
      const typePath = this.pathIn(this.typesRoot, key);
      if (temporaryType) await moveInto(temporaryType, typePath);
      else await removeFile(typePath);
    } catch (error) {
      await Promise.all([temporaryData, temporaryType].map((path) => path && rm(path, { force: true })));
      throw this.collision(key, error);
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    const path = this.dataPath(key);
    return readFile(path).catch(absentIfMissing);
  }

  async getStream(key: string): Promise<Readable | undefined> {
    const path = this.dataPath(key);
    // Opened first, so that a missing object is known before a stream is handed out.
    const file = await open(path, 'r').catch(absentIfMissing);
    if (!file) return undefined;
    const info = await file.stat();
    if (!info.isFile()) {
      await file.close();
      return undefined;
    }
    return file.createReadStream();
  }

  async head(key: string): Promise<ObjectHead | undefined> {
    const path = this.dataPath(key);
    const info = await stat(path).catch(absentIfMissing);
    if (!info?.isFile()) return undefined;
    const contentType = await readFile(this.pathIn(this.typesRoot, key), 'utf8').catch(absentIfMissing);
    return { size: info.size, contentType: contentType ?? DEFAULT_CONTENT_TYPE };
  }

  async list(prefix: string): Promise<string[]> {
    this.checkOpen();
    checkObjectPrefix(prefix);
    const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    const files = await filesUnder(
      folder ? this.pathIn(this.dataRoot, folder.slice(0, -1)) : this.dataRoot,
      this.dataRoot,
    );
    return files.filter((key) => key.startsWith(prefix)).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }

  async delete(key: string): Promise<void> {
    const path = this.dataPath(key);
    const typePath = this.pathIn(this.typesRoot, key);
    await Promise.all([removeFile(path), removeFile(typePath)]);
    await Promise.all([
      pruneEmptyFolders(dirname(path), this.dataRoot),
      pruneEmptyFolders(dirname(typePath), this.typesRoot),
    ]);
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (prefix === '') throw new ObjectKeyError('deletePrefix needs a prefix: it would delete every object');
    const keys = await this.list(prefix);
    for (let start = 0; start < keys.length; start += DELETE_CONCURRENCY) {
      await Promise.all(keys.slice(start, start + DELETE_CONCURRENCY).map((key) => this.delete(key)));
    }
    return keys.length;
  }

  async ping(): Promise<void> {
    this.checkOpen();
    try {
      await mkdir(this.dataRoot, { recursive: true });
      await access(this.dataRoot, constants.R_OK | constants.W_OK);
    } catch (error) {
      throw new ObjectStoreUnavailableError(
        `The object store directory ${this.root} cannot be used: ${errorCode(error) ?? String(error)}`,
      );
    }
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** The first write clears what crashed writes left behind. */
  private start(): Promise<void> {
    this.started ??= removeStaleTemporaries(this.tmpRoot, STALE_TEMPORARY_MS);
    return this.started;
  }

  private dataPath(key: string): string {
    this.checkOpen();
    checkObjectKey(key);
    return this.pathIn(this.dataRoot, key);
  }

  /** The path of a checked key under `base`; never outside it, whatever the key. */
  private pathIn(base: string, key: string): string {
    const path = join(base, ...key.split('/'));
    if (!path.startsWith(base + sep)) throw new ObjectKeyError(`Invalid object key ${JSON.stringify(key)}`);
    return path;
  }

  private collision(key: string, error: unknown): unknown {
    const code = errorCode(error);
    if (code !== 'ENOTDIR' && code !== 'EEXIST' && code !== 'EISDIR') return error;
    return new ObjectKeyError(
      `Object key ${JSON.stringify(key)} collides with another key on disk: a key cannot also be a folder of keys`,
    );
  }

  private checkOpen(): void {
    if (this.closed) throw new ObjectStoreClosedError();
  }
}

function absentIfMissing(error: unknown): undefined {
  if (isMissing(error)) return undefined;
  throw error;
}

async function removeFile(path: string): Promise<void> {
  await unlink(path).catch((error: unknown) => {
    if (!isMissing(error)) throw error;
  });
}
