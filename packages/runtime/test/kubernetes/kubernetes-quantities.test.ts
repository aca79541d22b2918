import { describe, expect, it } from 'vitest';
import { scaled } from '../../src/kubernetes/pod-manifest.ts';

describe('resource quantities times a resource factor', () => {
  it('keeps the unit and writes no needless decimals', () => {
    expect(scaled('500m', 4)).toBe('2000m');
    expect(scaled('1.5Gi', 2)).toBe('3Gi');
    expect(scaled('0.3', 3)).toBe('0.9');
    expect(scaled('1.0001', 1)).toBe('1');
    expect(scaled('3072Mi', 8)).toBe('24576Mi');
    expect(() => scaled('lots', 2)).toThrow('not a quantity: lots');
  });
});
