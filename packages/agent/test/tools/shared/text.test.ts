import { describe, expect, it } from 'vitest';
import {
  countLines,
  lineEnding,
  lineNumberAt,
  numberLines,
  numberedRange,
  offsetAfterLine,
  splitLines,
} from '../../../src/tools/shared/lines.ts';
import { formatSize, isBinary } from '../../../src/tools/shared/text-file.ts';
import { findOccurrences, truncateText } from '../../../src/tools/shared/text.ts';

describe('truncateText', () => {
  it('leaves short text alone', () => {
    expect(truncateText('abc', 10, '[cut]')).toEqual({ text: 'abc', truncated: false });
  });

  it('cuts after the last whole line and appends the notice', () => {
    const text = 'line one\nline two\nline three\n';
    expect(truncateText(text, 20, '[cut]')).toEqual({ text: 'line one\nline two\n[cut]', truncated: true });
  });

  it('cuts inside a line that has no newline before the limit, never in a surrogate pair', () => {
    expect(truncateText('abcdefghij', 4, '[cut]').text).toBe('abcd\n[cut]');
    expect(truncateText('abc😀def', 4, '[cut]').text).toBe('abc\n[cut]');
  });
});

describe('line helpers', () => {
  it('split and count lines; a final newline does not start a line', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\r\nb')).toEqual(['a', 'b']);
    expect(splitLines('\n')).toEqual(['']);
    expect([countLines(''), countLines('a'), countLines('a\n'), countLines('a\nb'), countLines('\n\n')]).toEqual([
      0, 1, 1, 2, 2,
    ]);
  });

  it('number lines like cat -n', () => {
    expect(numberLines(['x', 'y'], 9)).toBe('     9\tx\n    10\ty');
    expect(numberedRange('a\nb\nc\n', 0, 99)).toBe('     1\ta\n     2\tb\n     3\tc');
    expect(numberedRange('a\nb\nc\n', 2, 2)).toBe('     2\tb');
  });

  it('locate lines by offset and offsets by line', () => {
    const text = 'ab\ncd\nef';
    expect([lineNumberAt(text, 0), lineNumberAt(text, 3), lineNumberAt(text, 7)]).toEqual([1, 2, 3]);
    expect([0, 1, 2, 3, 4].map((line) => offsetAfterLine(text, line))).toEqual([0, 3, 6, 8, 8]);
    expect([lineEnding('a\r\nb'), lineEnding('a\nb')]).toEqual(['\r\n', '\n']);
  });

  it('find non-overlapping occurrences', () => {
    expect(findOccurrences('aaaa', 'aa')).toEqual([0, 2]);
    expect(findOccurrences('abc', 'x')).toEqual([]);
  });
});

describe('isBinary', () => {
  it('sees NUL bytes and invalid UTF-8 as binary, UTF-8 text as text', () => {
    expect(isBinary(new Uint8Array([0x50, 0x4b, 0x00, 0x01]))).toBe(true);
    expect(isBinary(new Uint8Array([0xff, 0xfe, 0x41]))).toBe(true);
    expect(isBinary(new TextEncoder().encode('héllo wörld ✓\n'))).toBe(false);
    expect(isBinary(new Uint8Array())).toBe(false);
  });

  it('formats sizes', () => {
    expect([formatSize(512), formatSize(2048), formatSize(5 * 1024 * 1024)]).toEqual(['512 B', '2.0 KB', '5.0 MB']);
  });
});
