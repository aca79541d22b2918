import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { SecretsKeyError } from './errors.ts';

const FORMAT = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_CHARS = 16;

/** A sealed value and the id of the key that sealed it (stored in its own column, for rotation). */
export interface Sealed {
  keyId: string;
  sealed: string;
}

/**
 * The keys that seal secrets at rest with AES-256-GCM. `current` seals; `previous` keys only open, during a
 * rotation. Every value gets a fresh random IV and is bound to its row by additional authenticated data (the
 * table, the user and the row's key), so a sealed value neither reads in clear nor moves to another row.
 *
 * A sealed value reads `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url). The key id is an HMAC of the key, not
 * the key: it says which key sealed a value, so a wrong key is a clear error and rotation finds what to re-seal.
 */
export class KeyRing {
  readonly currentKeyId: string;
  private readonly keys = new Map<string, Buffer>();

  /** `source` says where the current key came from, for error messages (never the key itself). */
  constructor(
    current: Buffer,
    previous: Buffer[] = [],
    readonly source = 'the configured secrets key',
  ) {
    for (const key of previous) this.keys.set(keyIdOf(checkedKey(key, 'a previous secrets key')), key);
    this.currentKeyId = keyIdOf(checkedKey(current, 'the secrets key'));
    this.keys.set(this.currentKeyId, current);
  }

  /** Whether this ring holds the key with this id. */
  has(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  seal(binding: string, plaintext: string): Sealed {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId) as Buffer, iv);
    cipher.setAAD(Buffer.from(binding));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const sealed = [FORMAT, this.currentKeyId, b64(iv), b64(cipher.getAuthTag()), b64(ciphertext)].join('.');
    return { keyId: this.currentKeyId, sealed };
  }

  /** The plaintext of a value sealed for `binding`; a wrong key or a damaged or moved value is a SecretsKeyError. */
  open(binding: string, sealed: string): string {
    const [format, keyId, iv, tag, ciphertext] = sealed.split('.');
    if (format !== FORMAT || ciphertext === undefined) throw new SecretsKeyError('a sealed value is malformed');
    const key = this.keys.get(keyId as string);
    if (!key) {
      throw new SecretsKeyError(
        `a value was sealed with secrets key ${keyId}, which is not configured (${this.source} is key ${this.currentKeyId})`,
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv as string, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(binding));
      decipher.setAuthTag(Buffer.from(tag as string, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretsKeyError('a sealed value does not authenticate: it was damaged or moved to another row');
    }
  }
}

/** What a sealed value is bound to: its table, its user and its key within the user's rows. */
export function sealBinding(table: string, userId: string, rowKey = ''): string {
  return `${table}\u0000${userId}\u0000${rowKey}`;
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

/** The public id of a key (an HMAC of it, not the key). */
export function keyIdOf(key: Buffer): string {
  return createHmac('sha256', key).update('bosun app secrets key id').digest('hex').slice(0, KEY_ID_CHARS);
}

function checkedKey(key: Buffer, what: string): Buffer {
  if (key.length !== KEY_BYTES) throw new SecretsKeyError(`${what} must be ${KEY_BYTES} bytes, not ${key.length}`);
  return key;
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');
