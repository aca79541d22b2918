import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** A secrets key that is missing, malformed, or not the one the data was sealed with. */
export class SecretsKeyError extends Error {
  override name = 'SecretsKeyError';
}

const VERSION = 'sealed:v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_CHARS = 16;
/** The length of `sealed:v1:<key id>:`, the part of a sealed value that names its key. */
export const SEALED_PREFIX_LENGTH = VERSION.length + KEY_ID_CHARS + 2;

/**
 * Seals conversation records with AES-256-GCM: a fresh random IV per value, and the conversation id as
 * authenticated data, so a sealed record neither reads nor moves to another row without the key.
 *
 * A sealed value reads `sealed:v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url). The key id is an HMAC of the
 * key, not the key: it tells which key sealed a value, so a wrong key is refused at start instead of failing
 * on some later read, and values sealed with a previous key can be found and sealed again with the current one.
 */
export class SecretsKeyring {
  readonly keyId: string;
  private readonly keys = new Map<string, Buffer>();

  /** `current` seals; `previous` keys only open (during a rotation). */
  constructor(current: Buffer, previous: Buffer[] = []) {
    this.keyId = keyIdOf(checkedKey(current, 'the secrets key'));
    for (const key of previous) this.keys.set(keyIdOf(checkedKey(key, 'a previous secrets key')), key);
    this.keys.set(this.keyId, current);
  }

  /** What every value sealed with the current key starts with. */
  get prefix(): string {
    return `${VERSION}:${this.keyId}:`;
  }

  /** Whether this keyring holds the key with this id. */
  has(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  sealRecord(conversationId: string, json: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.keyId) as Buffer, iv);
    cipher.setAAD(Buffer.from(conversationId));
    const sealed = Buffer.concat([cipher.update(json, 'utf8'), cipher.final()]);
    return [this.prefix.slice(0, -1), b64(iv), b64(cipher.getAuthTag()), b64(sealed)].join(':');
  }

  /** The record in clear; a record from before sealing (plain JSON) is returned as it is. */
  openRecord(conversationId: string, data: string): string {
    if (!isSealed(data)) return data;
    const [, , keyId, iv, tag, sealed] = data.split(':') as string[];
    const key = this.keys.get(keyId as string);
    if (!key) throw new SecretsKeyError(`conversation ${conversationId} was sealed with another secrets key`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv as string, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(conversationId));
      decipher.setAuthTag(Buffer.from(tag as string, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed as string, 'base64url')), decipher.final()]).toString();
    } catch {
      throw new SecretsKeyError(
        `the sealed record of conversation ${conversationId} is damaged (it does not authenticate)`,
      );
    }
  }
}

/** Whether a stored value is sealed (else it is a plain record, from before sealing). */
export function isSealed(data: string): boolean {
  return data.startsWith(`${VERSION}:`);
}

/** The id of the key that sealed a stored value, or undefined for a plain one. */
export function sealingKeyId(data: string): string | undefined {
  return isSealed(data) ? data.split(':', 3)[2] : undefined;
}

/** A key from its base64 text (32 bytes), or a clear error naming where it came from. */
export function parseSecretsKey(text: string, from: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) || key.length !== KEY_BYTES) {
    throw new SecretsKeyError(
      `${from} must be ${KEY_BYTES} random bytes in base64 (for example the output of \`openssl rand -base64 32\`)`,
    );
  }
  return key;
}

export function newSecretsKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

function checkedKey(key: Buffer, what: string): Buffer {
  if (key.length !== KEY_BYTES) throw new SecretsKeyError(`${what} must be ${KEY_BYTES} bytes, not ${key.length}`);
  return key;
}

/** The public id of a key (an HMAC of it). */
export function keyIdOf(key: Buffer): string {
  return createHmac('sha256', key).update('bosun secrets key id').digest('hex').slice(0, KEY_ID_CHARS);
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');
