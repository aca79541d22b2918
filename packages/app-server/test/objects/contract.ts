import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ObjectKeyError, type ObjectStore, ObjectStoreClosedError } from '../../src/objects/index.ts';
import { openedPerTest } from '../support/per-test.ts';
import { eachLimited, failingBody, sha256Of, streamedBody } from './bodies.ts';

const BAD_KEYS: [string, string][] = [
  ['empty', ''],
  ['absolute', '/etc/passwd'],
  ['parent segment', 'a/../b'],
  ['only a parent', '..'],
  ['escaping', '../outside'],
  ['current segment', 'a/./b'],
  ['empty segment', 'a//b'],
  ['trailing slash', 'a/'],
  ['NUL', 'a\u0000b'],
  ['newline', 'a\nb'],
  ['backslash', 'a\\..\\b'],
  ['too long', `${'x/'.repeat(512)}x`],
  ['too long in UTF-8', `${'é/'.repeat(341)}é`],
  ['long segment', 'x'.repeat(256)],
];

/** What every ObjectStore must do, wherever the objects are kept. */
export function objectStoreContract(name: string, open: () => Promise<ObjectStore>): void {
  describe(`${name}: the ObjectStore contract`, () => {
    const fresh = openedPerTest(open, (store) => store.close());

    it('keeps a Buffer, a string and a stream, with their size and content type', async () => {
      const store = await fresh();
      const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      await store.put('conversations/c1/binary', bytes);
      await store.put('conversations/c1/events.jsonl', '{"id":"é"}\n', { contentType: 'application/x-ndjson' });
      await store.put('conversations/c1/streamed', Readable.from([Buffer.from('par'), Buffer.from('ts')]));
      await store.put('empty', '');
      expect(await store.get('conversations/c1/binary')).toEqual(bytes);
      expect((await store.get('conversations/c1/events.jsonl'))?.toString()).toBe('{"id":"é"}\n');
      expect((await store.get('conversations/c1/streamed'))?.toString()).toBe('parts');
      expect(await store.get('empty')).toEqual(Buffer.alloc(0));
      expect(await store.head('conversations/c1/binary')).toEqual({
        size: 256,
        contentType: 'application/octet-stream',
      });
      expect(await store.head('conversations/c1/events.jsonl')).toEqual({
        size: 12,
        contentType: 'application/x-ndjson',
      });
      const stream = await store.getStream('conversations/c1/binary');
      expect(stream && Buffer.concat(await stream.toArray())).toEqual(bytes);
    });

    it('answers undefined for a key with no object, and for a key that is only a folder of others', async () => {
      const store = await fresh();
      await store.put('folder/inside', 'x');
      for (const key of ['missing', 'folder', 'folder/inside/deeper']) {
        expect(await store.get(key)).toBeUndefined();
        expect(await store.getStream(key)).toBeUndefined();
        expect(await store.head(key)).toBeUndefined();
      }
    });

    it('keeps keys of any characters S3 allows, and dots inside names', async () => {
      const store = await fresh();
      const keys = ['with space/ünïcødé 🚀', '.hidden/a..b', 'a-b_c=d+e,f;g@h&i$j', `${'s'.repeat(255)}/x`];
      for (const key of keys) await store.put(key, key);
      for (const key of keys) expect((await store.get(key))?.toString()).toBe(key);
    });

    it('an overwrite replaces bytes and content type', async () => {
      const store = await fresh();
      await store.put('k', 'first version', { contentType: 'text/plain' });
      await store.put('k', 'second');
      expect((await store.get('k'))?.toString()).toBe('second');
      expect(await store.head('k')).toEqual({ size: 6, contentType: 'application/octet-stream' });
    });

    it('streams 20 MB in and out intact', async () => {
      const store = await fresh();
      const size = 20 * 1024 * 1024 + 123;
      const { body, sha256 } = streamedBody(size);
      await store.put('archives/workspace.tar.gz', body, { contentType: 'application/gzip' });
      expect(await store.head('archives/workspace.tar.gz')).toEqual({ size, contentType: 'application/gzip' });
      const stream = await store.getStream('archives/workspace.tar.gz');
      expect(stream && (await sha256Of(stream))).toBe(sha256);
      expect((await store.get('archives/workspace.tar.gz'))?.length).toBe(size);
    });

    it('a write whose stream fails leaves the previous object, and no trace of the failed one', async () => {
      const store = await fresh();
      await store.put('archives/a', 'previous');
      await expect(store.put('archives/a', failingBody(9 * 1024 * 1024))).rejects.toThrow();
      await expect(store.put('archives/b', failingBody(1024))).rejects.toThrow();
      expect((await store.get('archives/a'))?.toString()).toBe('previous');
      expect(await store.head('archives/b')).toBeUndefined();
      expect(await store.list('')).toEqual(['archives/a']);
    });

    it('lists by prefix, in byte order, a prefix matching inside a name too', async () => {
      const store = await fresh();
      const keys = ['b/5', 'a/2', 'ab/4', 'a/b/3', 'a/1', 'a/Z', 'a/é'];
      for (const key of keys) await store.put(key, key);
      expect(await store.list('a/')).toEqual(['a/1', 'a/2', 'a/Z', 'a/b/3', 'a/é']);
      expect(await store.list('a')).toEqual(['a/1', 'a/2', 'a/Z', 'a/b/3', 'a/é', 'ab/4']);
      expect(await store.list('a/b')).toEqual(['a/b/3']);
      expect(await store.list('')).toEqual(['a/1', 'a/2', 'a/Z', 'a/b/3', 'a/é', 'ab/4', 'b/5']);
      expect(await store.list('nothing/')).toEqual([]);
    });

    it('lists and deletes more keys than one page holds', async () => {
      const store = await fresh();
      const keys = Array.from({ length: 1_100 }, (_, i) => `many/${String(i).padStart(4, '0')}`);
      await eachLimited(keys, 50, (key) => store.put(key, 'x'));
      await store.put('other', 'kept');
      expect(await store.list('many/')).toEqual(keys);
      expect(await store.deletePrefix('many/')).toBe(1_100);
      expect(await store.list('')).toEqual(['other']);
    }, 180_000);

    it('deletes one object, quietly when there is none', async () => {
      const store = await fresh();
      await store.put('deep/ly/nested', 'x');
      await store.put('deep/sibling', 'y');
      await store.delete('deep/ly/nested');
      await store.delete('deep/ly/nested');
      await store.delete('never/there');
      expect(await store.get('deep/ly/nested')).toBeUndefined();
      expect(await store.list('')).toEqual(['deep/sibling']);
      await store.put('deep/ly/nested', 'again');
      expect((await store.get('deep/ly/nested'))?.toString()).toBe('again');
    });

    it('refuses to delete everything with an empty prefix', async () => {
      const store = await fresh();
      await store.put('k', 'x');
      await expect(store.deletePrefix('')).rejects.toThrow(ObjectKeyError);
      expect(await store.list('')).toEqual(['k']);
    });

    it.each(BAD_KEYS)('refuses a bad key (%s) in every operation, storing nothing', async (_kind, key) => {
      const store = await fresh();
      await expect(store.put(key, 'x')).rejects.toThrow(ObjectKeyError);
      const body = Readable.from(['x']);
      await expect(store.put(key, body)).rejects.toThrow(ObjectKeyError);
      expect(body.destroyed).toBe(true);
      await expect(store.get(key)).rejects.toThrow(ObjectKeyError);
      await expect(store.getStream(key)).rejects.toThrow(ObjectKeyError);
      await expect(store.head(key)).rejects.toThrow(ObjectKeyError);
      await expect(store.delete(key)).rejects.toThrow(ObjectKeyError);
      expect(await store.list('')).toEqual([]);
    });

    it('refuses a bad prefix, but not one ending inside a name or after a "/"', async () => {
      const store = await fresh();
      for (const prefix of ['/abs', 'a/../', '../', 'a//', 'a\u0000']) {
        await expect(store.list(prefix)).rejects.toThrow(ObjectKeyError);
        await expect(store.deletePrefix(prefix)).rejects.toThrow(ObjectKeyError);
      }
      await store.put('a/..b', 'x');
      expect(await store.list('a/..')).toEqual(['a/..b']);
    });

    it('answers ping, and once closed refuses every operation', async () => {
      const store = await fresh();
      await store.ping();
      await store.close();
      await store.close();
      await expect(store.put('k', 'x')).rejects.toThrow(ObjectStoreClosedError);
      await expect(store.get('k')).rejects.toThrow(ObjectStoreClosedError);
      await expect(store.list('')).rejects.toThrow(ObjectStoreClosedError);
      await expect(store.ping()).rejects.toThrow(ObjectStoreClosedError);
    });
  });
}
