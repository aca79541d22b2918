import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.ts';
import { RedisCache } from '../../src/cache/redis-cache.ts';
import { openObjectStore } from '../../src/objects/index.ts';
import { S3ObjectStore } from '../../src/objects/s3-object-store.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Imports evaluated when a module loads: static `import`/`export … from`, not type-only ones, not `import()`. */
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\s)(?:[^;'"]*?\sfrom\s*)?['"]([^'"]+)['"]/gm;

/** Every package a module loads, following its relative imports. */
async function packagesLoadedBy(entry: string): Promise<Set<string>> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = async (file: string): Promise<void> => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, specifier] of (await readFile(file, 'utf8')).matchAll(STATIC_IMPORT)) {
      if (specifier?.startsWith('.')) await visit(resolve(dirname(file), specifier));
      else if (specifier) packages.add(specifier);
    }
  };
  await visit(join(SRC, entry));
  return packages;
}

describe('heavy clients load only when configured', () => {
  it('sees static imports and skips type-only ones (the check itself works)', async () => {
    const loaded = await packagesLoadedBy('objects/s3-upload.ts');
    expect(loaded).toEqual(new Set());
    expect(await packagesLoadedBy('cache/redis-cache.ts')).toContain('node:crypto');
  });

  it.each(['cache/index.ts', 'objects/index.ts', 'rate-limit/index.ts'])(
    '%s loads neither ioredis nor the AWS SDK',
    async (entry) => {
      const loaded = [...(await packagesLoadedBy(entry))];
      expect(loaded.filter((name) => name === 'ioredis' || name.startsWith('@aws-sdk/'))).toEqual([]);
    },
  );

  it('loads them when Redis or S3 is configured', async () => {
    const cache = await openCache({ redisUrl: 'redis://127.0.0.1:6379', keyPrefix: 'bosun-test-unused:' });
    expect(cache).toBeInstanceOf(RedisCache);
    await cache.close();
    const store = await openObjectStore({ dataDir: '/unused', s3: { bucket: 'b', endpoint: 'http://127.0.0.1:1' } });
    expect(store).toBeInstanceOf(S3ObjectStore);
    await store.close();
  });
});
