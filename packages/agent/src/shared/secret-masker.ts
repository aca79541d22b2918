/** What a secret value is replaced with in everything tools return. */
export const SECRET_MASK = '<secret-hidden>';

/** Shorter values are not masked: masking every `ab` would garble any text. */
const MIN_SECRET_LENGTH = 3;
/** Encoded forms shorter than this (of very short secrets) would match random text. */
const MIN_ENCODED_LENGTH = 6;
/**
 * Base64 characters to drop at the start of the encoding of `<0, 1 or 2 bytes of other text><secret>`: those
 * that carry bits of the other text.
 */
const LEADING_MIXED_CHARS = [0, 2, 3];

const identity = (text: string) => text;

/**
 * Replaces every secret value in a text with `<secret-hidden>`, and the forms an agent commonly turns it into:
 * any letter case, reversed, URL-encoded, hex, and base64 (standard and URL-safe, padded or not, alone or inside
 * a longer encoded text at any of the three byte alignments). One case-insensitive pattern matches them all in
 * a single pass, longest first.
 */
export function secretMasker(values: string[]): (text: string) => string {
  const forms = new Set<string>();
  for (const value of values) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    forms.add(value);
    forms.add([...value].reverse().join(''));
    forms.add(encodeURIComponent(value));
    for (const form of encodedForms(Buffer.from(value))) if (form.length >= MIN_ENCODED_LENGTH) forms.add(form);
  }
  if (forms.size === 0) return identity;
  const alternatives = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(alternatives.join('|'), 'gi');
  return (text) => text.replace(pattern, SECRET_MASK);
}

/** Hex and base64 forms of `bytes` (hex case is left to the case-insensitive match). */
function encodedForms(bytes: Buffer): string[] {
  const padded = bytes.toString('base64');
  const forms = [bytes.toString('hex'), padded, padded.replace(/=+$/, '')];
  for (const [leading, skip] of LEADING_MIXED_CHARS.entries()) {
    const unpadded = Buffer.concat([Buffer.alloc(leading), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    // Only the characters made of the secret's bits alone: the next ones depend on what follows it.
    forms.push(unpadded.slice(skip, Math.floor(((leading + bytes.length) * 8) / 6)));
  }
  return forms.flatMap((form) => (/[+/=]/.test(form) ? [form, toBase64Url(form)] : [form]));
}

const toBase64Url = (base64: string) => base64.replace(/\+/g, '-').replace(/\//g, '_');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
