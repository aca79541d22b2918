import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** The real Redis the tests use. */
export const REDIS_URL = process.env.BOSUN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test (or test run) uses. */
export function uniquePrefix(): string {
  return `bosun-test-${randomUUID()}:`;
}

/** Runs `use` with a plain client of the test's Redis, outside the cache under test. */
export async function withAdmin<T>(use: (admin: Redis) => Promise<T>): Promise<T> {
  const admin = new Redis(REDIS_URL, { lazyConnect: true });
  try {
    return await use(admin);
  } finally {
    admin.disconnect();
  }
}

export function keysUnder(prefix: string): Promise<string[]> {
  return withAdmin(async (admin) => {
    const found: string[] = [];
    for await (const batch of admin.scanStream({ match: `${prefix}*`, count: 500 })) found.push(...(batch as string[]));
    return found;
  });
}

/** Deletes every key a test wrote under its prefix. */
export async function removeKeys(prefix: string): Promise<void> {
  const keys = await keysUnder(prefix);
  if (keys.length > 0) await withAdmin((admin) => admin.del(...keys));
}
