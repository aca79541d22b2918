import { describe, expect, it } from 'vitest';
import { inputBytes, isControlKey, specialKey } from '../../src/tools/terminal/keys.ts';
import { normalizeOutput, truncateMiddle } from '../../src/tools/terminal/output.ts';

describe('terminal output', () => {
  it('normalizes line endings, escape sequences and carriage returns', () => {
    expect(normalizeOutput('a\r\nb\r\n')).toBe('a\nb\n');
    expect(normalizeOutput('\x1b[1;31mred\x1b[0m \x1b]0;title\x07x\x1b(B')).toBe('red x');
    expect(normalizeOutput('progress 10%\rprogress 100%\r\ndone')).toBe('progress 100%\ndone');
    expect(normalizeOutput('tab\tbell\x07nul\x00\x7f')).toBe('tab\tbellnul');
    expect(normalizeOutput('partial line\r')).toBe('partial line');
    expect(normalizeOutput('caf\u00e9 \ufffd')).toBe('caf\u00e9 \ufffd');
  });

  it('keeps the head and the tail and says where the full output is', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(truncateMiddle(text, text.length, undefined)).toBe(text);
    const cut = truncateMiddle(text, 200, '/state/observations/out.txt');
    expect(cut.startsWith('line 1\nline 2\n')).toBe(true);
    expect(cut.endsWith('line 999\nline 1000')).toBe(true);
    expect(cut).toContain('<response clipped>');
    expect(cut).toContain('/state/observations/out.txt');
    expect(cut).toMatch(/starts around line \d+/);
    expect(cut.length).toBeLessThan(200 + 400);
    expect(truncateMiddle('😀'.repeat(100), 51, undefined)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe('terminal keys', () => {
  it('maps special keys to bytes and types other text followed by Enter', () => {
    expect(specialKey('C-c')).toBe('\x03');
    expect(specialKey(' C-d ')).toBe('\x04');
    expect(specialKey('C-Z')).toBe('\x1a');
    expect(specialKey('C-[')).toBe('\x1b');
    expect(specialKey('UP')).toBe('\x1b[A');
    expect(specialKey('PGDN')).toBe('\x1b[6~');
    expect(specialKey('ENTER')).toBe('\r');
    expect(specialKey('BS')).toBe('\x7f');
    expect(specialKey('hello')).toBeUndefined();
    expect(inputBytes('TAB')).toBe('\t');
    expect(inputBytes('yes')).toBe('yes\r');
    expect(isControlKey('C-c')).toBe(true);
    expect(isControlKey('UP')).toBe(false);
    expect(isControlKey('C-cc')).toBe(false);
  });
});
