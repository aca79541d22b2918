import { describe, expect, it } from 'vitest';
import { splitAbsolutePattern } from '../../../src/tools/shared/search-path.ts';

describe('splitAbsolutePattern', () => {
  it('splits absolute patterns at the first wildcard, anchoring the rest', () => {
    expect(splitAbsolutePattern('/repo/src/**/*.ts')).toEqual({ base: '/repo/src', pattern: '/**/*.ts' });
    expect(splitAbsolutePattern('/repo/*.md')).toEqual({ base: '/repo', pattern: '/*.md' });
    expect(splitAbsolutePattern('/repo/README.md')).toEqual({ base: '/repo', pattern: '/README.md' });
    expect(splitAbsolutePattern('/*.md')).toEqual({ base: '/', pattern: '/*.md' });
  });
});
