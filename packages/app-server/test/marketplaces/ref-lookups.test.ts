import { describe, expect, it } from 'vitest';
import { type RefLookup, RefLookups } from '../../src/marketplaces/ref-lookups.ts';

const lookup = (password?: string): RefLookup => ({
  url: 'https://github.com/acme/market.git',
  ref: 'main',
  auth: password ? { username: 'x-access-token', password } : undefined,
});

/** A lookup the test settles, counting how often it was asked. */
function gate() {
  const asked: { resolve: (sha: string) => void; reject: (error: Error) => void }[] = [];
  const resolve = () => new Promise<string>((resolve, reject) => asked.push({ resolve, reject }));
  return { asked, resolve };
}

describe('RefLookups: one lookup for the callers asking the same, never across credentials', () => {
  it('coalesces identical lookups made while one is under way; a failure is shared, never kept', async () => {
    const lookups = new RefLookups(0);
    const { asked, resolve } = gate();
    const answers = Promise.all(Array.from({ length: 5 }, () => lookups.resolve(lookup('token-a'), resolve)));
    expect(asked).toHaveLength(1);
    asked[0]?.resolve('a'.repeat(40));
    expect(await answers).toEqual(Array(5).fill('a'.repeat(40)));

    // Not kept (no TTL): asked again, and a failure reaches every caller waiting on it, then asked anew.
    const failing = [lookups.resolve(lookup('token-a'), resolve), lookups.resolve(lookup('token-a'), resolve)];
    expect(asked).toHaveLength(2);
    asked[1]?.reject(new Error('remote: Repository not found'));
    for (const answer of failing) await expect(answer).rejects.toThrow(/not found/);
    const again = lookups.resolve(lookup('token-a'), resolve);
    expect(asked).toHaveLength(3);
    asked[2]?.resolve('b'.repeat(40));
    expect(await again).toBe('b'.repeat(40));
  });

  it('never answers one caller with what another’s credentials found, at once or kept', async () => {
    const lookups = new RefLookups(60_000);
    const { asked, resolve } = gate();
    const withA = lookups.resolve(lookup('token-a'), resolve);
    const withB = lookups.resolve(lookup('token-b'), resolve);
    const anonymous = lookups.resolve(lookup(), resolve);
    const otherUser = lookups.resolve({ ...lookup('token-a'), auth: { username: 'me', password: 'token-a' } }, resolve);
    expect(asked).toHaveLength(4);
    asked[0]?.resolve('a'.repeat(40));
    asked[1]?.reject(new Error('remote: Repository not found'));
    asked[2]?.reject(new Error('Authentication failed'));
    asked[3]?.resolve('d'.repeat(40));
    expect(await withA).toBe('a'.repeat(40));
    await expect(withB).rejects.toThrow(/not found/);
    await expect(anonymous).rejects.toThrow(/Authentication/);
    expect(await otherUser).toBe('d'.repeat(40));
    // A's answer is kept for A alone: B and the anonymous caller ask the remote themselves.
    expect(await lookups.resolve(lookup('token-a'), resolve)).toBe('a'.repeat(40));
    expect(asked).toHaveLength(4);
    const laterB = lookups.resolve(lookup('token-b'), resolve);
    const laterAnonymous = lookups.resolve(lookup(), resolve);
    expect(asked).toHaveLength(6);
    asked[4]?.reject(new Error('remote: Repository not found'));
    asked[5]?.reject(new Error('Authentication failed'));
    await expect(laterB).rejects.toThrow(/not found/);
    await expect(laterAnonymous).rejects.toThrow(/Authentication/);
  });

  it('keeps a commit found for the TTL, for the same repository and ref only', async () => {
    let now = 1_000;
    const lookups = new RefLookups(5_000, () => now);
    const { asked, resolve } = gate();
    const first = lookups.resolve(lookup(), resolve);
    asked[0]?.resolve('a'.repeat(40));
    expect(await first).toBe('a'.repeat(40));
    now += 4_999;
    expect(await lookups.resolve(lookup(), resolve)).toBe('a'.repeat(40));
    const otherRef = lookups.resolve({ ...lookup(), ref: 'v2' }, resolve);
    const otherRepository = lookups.resolve({ ...lookup(), url: 'https://github.com/acme/other.git' }, resolve);
    expect(asked).toHaveLength(3);
    asked[1]?.resolve('b'.repeat(40));
    asked[2]?.resolve('c'.repeat(40));
    expect([await otherRef, await otherRepository]).toEqual(['b'.repeat(40), 'c'.repeat(40)]);
    now += 1;
    const expired = lookups.resolve(lookup(), resolve);
    expect(asked).toHaveLength(4);
    asked[3]?.resolve('e'.repeat(40));
    expect(await expired).toBe('e'.repeat(40));
  });
});
