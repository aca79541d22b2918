import { mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DiskObjectStore,
  ObjectKeyError,
  ObjectStoreUnavailableError,
  openObjectStore,
} from '../../src/objects/index.ts';
import { waitUntil } from '../cache/wait.ts';
import { objectStoreContract } from './contract.ts';

const directories: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bosun-objects-'));
  directories.push(dir);
  return dir;
}
afterAll(() => Promise.all(directories.map((dir) => rm(dir, { recursive: true, force: true }))));

objectStoreContract('disk', async () => openObjectStore({ dataDir: await freshDir() }));

describe('disk object store', () => {
  it('is what openObjectStore gives without S3, in the data directory, as plain files', async () => {
    const dataDir = await freshDir();
    const store = await openObjectStore({ dataDir });
    expect(store).toBeInstanceOf(DiskObjectStore);
    await store.put('conversations/c1/events.jsonl', 'line\n');
    expect(await readFile(join(dataDir, 'objects/data/conversations/c1/events.jsonl'), 'utf8')).toBe('line\n');
  });

  // S3 makes a PUT visible whole by itself; s3rver does not (a GET during a PUT of the same key is cut off).
  it('a reader during an overwrite sees the old object or the new one, never a mix', async () => {
    const store = await openObjectStore({ dataDir: await freshDir() });
    const size = 1024 * 1024;
    await store.put('archive', Buffer.alloc(size, 'a'));
    let reads = 0;
    // Each part is sent only after one more read finished, so reads and the write surely overlap.
    async function* slowly() {
      for (let part = 0; part < size / (64 * 1024); part++) {
        await waitUntil('a read during the write', () => reads > part);
        yield Buffer.alloc(64 * 1024, 'b');
      }
    }
    let writing = true;
    const write = store.put('archive', Readable.from(slowly())).finally(() => {
      writing = false;
    });
    const seen = new Set<string>();
    while (writing) {
      const read = (await store.get('archive')) as Buffer;
      expect(read.length).toBe(size);
      const first = read.toString('latin1', 0, 1);
      expect(read.equals(Buffer.alloc(size, first))).toBe(true);
      seen.add(first);
      reads++;
    }
    await write;
    expect(seen.has('a')).toBe(true);
    expect((await store.get('archive'))?.equals(Buffer.alloc(size, 'b'))).toBe(true);
  });

  it('never writes outside its directory, whatever the key', async () => {
    const parent = await freshDir();
    const store = new DiskObjectStore(join(parent, 'objects'));
    for (const key of ['../escape', 'a/../../escape', '/tmp/escape', 'a\\..\\..\\escape']) {
      await expect(store.put(key, 'x')).rejects.toThrow(ObjectKeyError);
    }
    expect(await readdir(parent)).toEqual([]);
  });

  it('refuses a key that is a folder of other keys there, or a key under another key, keeping both', async () => {
    const store = new DiskObjectStore(join(await freshDir(), 'objects'));
    await store.put('a', 'object a');
    await store.put('b/c', 'object b/c');
    await expect(store.put('a/b', 'x')).rejects.toThrow(/collides/);
    await expect(store.put('b', 'x')).rejects.toThrow(ObjectKeyError);
    expect((await store.get('a'))?.toString()).toBe('object a');
    expect((await store.get('b/c'))?.toString()).toBe('object b/c');
    expect(await store.list('')).toEqual(['a', 'b/c']);
  });

  it('removes folders left empty by deletes', async () => {
    const root = join(await freshDir(), 'objects');
    const store = new DiskObjectStore(root);
    await store.put('x/y/z', 'x', { contentType: 'text/plain' });
    await store.put('x/kept', 'x');
    await store.deletePrefix('x/y/');
    expect(await readdir(join(root, 'data/x'))).toEqual(['kept']);
    expect(await readdir(join(root, 'content-types'))).toEqual([]);
  });

  it('clears what crashed writes left behind, but not a write that may be going on', async () => {
    const root = join(await freshDir(), 'objects');
    const store = new DiskObjectStore(root);
    await store.put('first', 'x');
    const [stale, recent] = [join(root, 'tmp/stale'), join(root, 'tmp/recent')];
    await writeFile(stale, 'half');
    await writeFile(recent, 'half');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    await utimes(stale, twoDaysAgo, twoDaysAgo);
    const restarted = new DiskObjectStore(root);
    await restarted.put('second', 'x');
    expect(await readdir(join(root, 'tmp'))).toEqual(['recent']);
  });

  it('ping fails clearly when the directory cannot be made', async () => {
    const parent = await freshDir();
    await writeFile(join(parent, 'a-file'), 'not a directory');
    const store = await openObjectStore({ dataDir: join(parent, 'a-file') });
    await expect(store.ping()).rejects.toThrow(ObjectStoreUnavailableError);
    await expect(store.ping()).rejects.toThrow(/a-file.*ENOTDIR/);
  });
});
