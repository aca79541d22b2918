import { describe, expect, it } from 'vitest';
import { withoutPassword } from '../src/index.ts';

describe('connection URLs in messages', () => {
  it('shows URLs without their password', () => {
    expect(withoutPassword('postgres://bosun:s3cr%40t@db:5432/bosun')).toBe('postgres://bosun:***@db:5432/bosun');
    expect(withoutPassword('redis://:token@redis:6379')).toBe('redis://:***@redis:6379');
    expect(withoutPassword('postgres://bosun@db/bosun')).toBe('postgres://bosun@db/bosun');
    expect(withoutPassword("got 'postgresql://u:p@h/d' and 'redis://a:b@c'")).toBe(
      "got 'postgresql://u:***@h/d' and 'redis://a:***@c'",
    );
  });
});
