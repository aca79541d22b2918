import { describe, expect, it } from 'vitest';
import { secretMasker } from '../../src/shared/secret-masker.ts';

// `>?` and `~` make standard base64 hold `+` and `/`, so the URL-safe form differs from it.
const SECRET = 's3cr3t>?~Value-42';
const mask = secretMasker([SECRET]);

const base64 = (text: string) => Buffer.from(text).toString('base64');
const base64url = (text: string) => Buffer.from(text).toString('base64url');
const hex = (text: string) => Buffer.from(text).toString('hex');

/** Whether any base64 run of `text`, decoded at any of its four offsets, still holds `secret`. */
function base64Reveals(text: string, secret: string): boolean {
  for (const run of text.split(/[^A-Za-z0-9+/_-]+/)) {
    for (let offset = 0; offset < 4; offset++) {
      const decoded = Buffer.from(run.slice(offset).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString();
      if (decoded.includes(secret)) return true;
    }
  }
  return false;
}

describe('secretMasker', () => {
  it('masks the value itself', () => {
    expect(mask(`token=${SECRET}.`)).toBe('token=<secret-hidden>.');
  });

  it('masks the standard and URL-safe base64 of the value, with and without padding', () => {
    expect(base64(SECRET)).toMatch(/[+/]/);
    expect(base64url(SECRET)).not.toBe(base64(SECRET).replace(/=+$/, ''));
    for (const form of [
      base64(SECRET),
      base64(SECRET).replace(/=+$/, ''),
      base64url(SECRET),
      `${base64url(SECRET)}=`,
    ]) {
      expect(mask(`[${form}]`)).toBe('[<secret-hidden>]');
    }
  });

  it('masks base64 of a text that embeds the value, at each of the three alignments', () => {
    for (const prefix of ['', 'a', 'ab', 'abc', 'Authorization: Bearer ']) {
      for (const suffix of ['', '\n', 'xy', ' and more text']) {
        const text = `${prefix}${SECRET}${suffix}`;
        for (const encoded of [base64(text), base64url(text)]) {
          expect(base64Reveals(encoded, SECRET), 'the check itself finds the value').toBe(true);
          const masked = mask(encoded);
          expect(masked).toContain('<secret-hidden>');
          expect(base64Reveals(masked, SECRET), `${JSON.stringify(text)} as ${masked}`).toBe(false);
        }
      }
    }
  });

  it('masks the hex of the value, lower and upper case', () => {
    expect(mask(`0x${hex(SECRET)}`)).toBe('0x<secret-hidden>');
    expect(mask(hex(SECRET).toUpperCase())).toBe('<secret-hidden>');
  });

  it('masks the value upper-cased, lower-cased and reversed', () => {
    expect(mask(SECRET.toUpperCase())).toBe('<secret-hidden>');
    expect(mask(SECRET.toLowerCase())).toBe('<secret-hidden>');
    expect(mask([...SECRET].reverse().join(''))).toBe('<secret-hidden>');
  });

  it('masks the URL-encoded value', () => {
    expect(mask(`?t=${encodeURIComponent(SECRET)}`)).toBe('?t=<secret-hidden>');
  });

  it('leaves other text alone, also for short secrets whose encodings are short', () => {
    // `YWJj` is the base64 of `abc`, `FiY` the part of it that `abc` alone decides at one alignment: too short.
    const text = 'The quick brown fox, FiY and YWJj: nothing secret.';
    expect(secretMasker(['abc'])(text)).toBe(text);
    expect(secretMasker(['abc'])('abc cba ABC')).toBe('<secret-hidden> <secret-hidden> <secret-hidden>');
    expect(secretMasker([SECRET, 'another-secret'])(text)).toBe(text);
    expect(secretMasker([])(text)).toBe(text);
  });

  it('masks several secrets, the longest first', () => {
    const masker = secretMasker(['abcdef', 'abcdefghij']);
    expect(masker('abcdefghij abcdef')).toBe('<secret-hidden> <secret-hidden>');
  });
});
