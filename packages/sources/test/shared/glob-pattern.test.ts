import { describe, expect, it } from 'vitest';
import { GlobSyntaxError, compileGlob, normalizeGlob } from '../../src/shared/glob-pattern.ts';

const PATHS = [
  'top.ts',
  'README.md',
  'src/x.ts',
  'src/[x].ts',
  'src/a.md',
  'src/a/y.ts',
  'src/a/b/z.ts',
  'lib/w.ts',
  'lib/w.tsx',
  'docs/guide/intro.md',
];

const selected = (pattern: string) => PATHS.filter((path) => compileGlob(pattern).selectsFile(path));

describe('compileGlob (ripgrep --glob semantics)', () => {
  it.each([
    ['*.ts', ['top.ts', 'src/x.ts', 'src/[x].ts', 'src/a/y.ts', 'src/a/b/z.ts', 'lib/w.ts']],
    ['**/*.ts', ['top.ts', 'src/x.ts', 'src/[x].ts', 'src/a/y.ts', 'src/a/b/z.ts', 'lib/w.ts']],
    ['src/*.ts', ['src/x.ts', 'src/[x].ts']],
    ['src/**/*.ts', ['src/x.ts', 'src/[x].ts', 'src/a/y.ts', 'src/a/b/z.ts']],
    ['src/**', ['src/x.ts', 'src/[x].ts', 'src/a.md', 'src/a/y.ts', 'src/a/b/z.ts']],
    ['**/a/*.ts', ['src/a/y.ts']],
    ['*/y.ts', []],
    ['/top.ts', ['top.ts']],
    ['x.ts', ['src/x.ts']],
    ['*.{ts,tsx}', ['top.ts', 'src/x.ts', 'src/[x].ts', 'src/a/y.ts', 'src/a/b/z.ts', 'lib/w.ts', 'lib/w.tsx']],
    ['{src,lib}/*.ts', ['src/x.ts', 'src/[x].ts', 'lib/w.ts']],
    ['s?c/*.ts', ['src/x.ts', 'src/[x].ts']],
    ['src/[a-x].ts', ['src/x.ts']],
    ['src/[!x].ts', []],
    ['lib/w.ts[x]', ['lib/w.tsx']],
    ['src/\\[x\\].ts', ['src/[x].ts']],
    ['src/a**', ['src/a.md']],
    ['**', PATHS],
    ['*', PATHS],
    ['src', []],
    ['src/', []],
    ['*.MD', []],
    ['docs/**/*.md', ['docs/guide/intro.md']],
  ])('%s', (pattern, expected) => {
    expect(selected(pattern)).toEqual(expected);
  });

  it('a leading "!" selects what does not match, and excludes matching directories', () => {
    expect(selected('!*.ts')).toEqual(['README.md', 'src/a.md', 'lib/w.tsx', 'docs/guide/intro.md']);
    const notSrc = compileGlob('!src');
    expect(notSrc.excludesDirectory('src')).toBe(true);
    expect(notSrc.excludesDirectory('lib')).toBe(false);
    expect(compileGlob('src').excludesDirectory('src')).toBe(false);
  });

  it.each([
    ['src/[a', /unclosed character class/],
    ['{a,{b,c}}', /nested alternate groups/],
    ['{a,b', /unclosed alternate group/],
    ['a\\', /dangling escape/],
    ['!', /empty/],
  ])('rejects %s', (pattern, message) => {
    expect(() => compileGlob(pattern)).toThrow(GlobSyntaxError);
    expect(() => compileGlob(pattern)).toThrow(message);
  });

  it('normalizes a leading ./ away', () => {
    expect(normalizeGlob('./src/*.ts')).toBe('src/*.ts');
    expect(normalizeGlob(' *.ts ')).toBe('*.ts');
  });
});
