import { randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { zipEntries } from '../../../test/support/unzip.ts';
import { type ZipEntry, zipStream } from '../src/zip-stream.ts';

const KB = 1024;

/** V8's full garbage collection, from a context made after the flag that exposes it. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('zipStream', () => {
  it('writes folders and files, text and bytes, in order, read back by a zip reader', async () => {
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const entries: ZipEntry[] = [
      { path: 'base_state.json', content: '{"id":"x"}' },
      { path: 'events/' },
      { path: 'events/ünïcode-1.json', content: '{"text":"héllo"}' },
      { path: 'events/bytes.bin', content: bytes.subarray(1) },
      { path: 'empty.json', content: '' },
    ];
    const read = await zipEntries(await buffer(zipStream(entries)));
    expect(read).toEqual([
      { path: 'base_state.json', content: '{"id":"x"}' },
      { path: 'events/', content: '' },
      { path: 'events/ünïcode-1.json', content: '{"text":"héllo"}' },
      { path: 'events/bytes.bin', content: Buffer.from([1, 2, 255]).toString() },
      { path: 'empty.json', content: '' },
    ]);
  });

  it('takes an entry only as the reader reads: what it took is never far ahead of what it wrote', async () => {
    const size = 64 * KB;
    let taken = 0;
    async function* entries(): AsyncGenerator<ZipEntry> {
      for (let index = 0; index < 100; index += 1) {
        taken += 1;
        // Random bytes do not deflate: what is written of an entry is about its size.
        yield { path: `event-${index}.bin`, content: randomBytes(size) };
      }
    }
    let written = 0;
    let furthestAhead = 0;
    for await (const chunk of zipStream(entries())) {
      written += (chunk as Buffer).length;
      furthestAhead = Math.max(furthestAhead, taken * size - written);
    }
    expect(taken).toBe(100);
    expect(written).toBeGreaterThan(100 * size);
    // The entry being written and the next one, plus the streams' buffers: never the 6.4 MB of all of them.
    expect(furthestAhead).toBeLessThan(4 * size);
  });

  it('lets go of an entry once it is written', async () => {
    const memories: WeakRef<ArrayBufferLike>[] = [];
    async function* entries(): AsyncGenerator<ZipEntry> {
      for (let index = 0; index < 100; index += 1) {
        const content = randomBytes(64 * KB);
        memories.push(new WeakRef(content.buffer));
        yield { path: `event-${index}.bin`, content };
      }
    }
    let held: number | undefined;
    for await (const _ of zipStream(entries())) {
      if (held === undefined && memories.length >= 60) {
        await nextTurn();
        collectGarbage();
        held = memories.slice(0, -5).filter((memory) => memory.deref()).length;
      }
    }
    expect(held).toBe(0);
  });

  it('is destroyed with the error of its entries', async () => {
    async function* entries(): AsyncGenerator<ZipEntry> {
      yield { path: 'first.json', content: '{}' };
      throw new Error('the store went away');
    }
    await expect(buffer(zipStream(entries()))).rejects.toThrow('the store went away');
  });

  it('closes its entries when its reader goes away', async () => {
    let closed!: () => void;
    const wasClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    let taken = 0;
    async function* entries(): AsyncGenerator<ZipEntry> {
      try {
        for (;;) {
          taken += 1;
          yield { path: `event-${taken}.bin`, content: randomBytes(64 * KB) };
        }
      } finally {
        closed();
      }
    }
    const stream = zipStream(entries());
    for await (const _ of stream) break;
    await wasClosed;
    expect(stream.destroyed).toBe(true);
    expect(taken).toBeLessThan(10);
  });
});
