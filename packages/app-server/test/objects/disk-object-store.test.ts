import { mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DiskObjectStore,
  ObjectKeyError,
  ObjectStoreUnavailableError,
  openObjectStore,
} from '../../src/objects/index.ts';
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
