import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The three base64url parts of a sealed value: a fresh random IV, the authentication tag, the ciphertext. */
export type SealedParts = [iv: string, tag: string, ciphertext: string];

/** AES-256-GCM with a fresh random IV, bound to `binding` as additional authenticated data. */
export function sealParts(key: Buffer, binding: string, plaintext: string): SealedParts {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(binding));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [b64(iv), b64(cipher.getAuthTag()), b64(ciphertext)];
}

/** The plaintext of sealed parts; throws when they do not authenticate (wrong key, damaged, or another binding). */
export function openParts(key: Buffer, binding: string, [iv, tag, ciphertext]: SealedParts): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(binding));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');
