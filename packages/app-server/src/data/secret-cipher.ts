import { checkedKey, keyIdOf as keyIdUnder, openParts, sealParts } from '@bosun/sealing';
import { SecretsKeyError } from './errors.ts';

export { newSecretsKey, parseSecretsKey } from '@bosun/sealing';

const FORMAT = 'v1';

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
    const parts = sealParts(this.keys.get(this.currentKeyId) as Buffer, binding, plaintext);
    return { keyId: this.currentKeyId, sealed: [FORMAT, this.currentKeyId, ...parts].join('.') };
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
      return openParts(key, binding, [iv as string, tag as string, ciphertext]);
    } catch {
      throw new SecretsKeyError('a sealed value does not authenticate: it was damaged or moved to another row');
    }
  }
}

/** What a sealed value is bound to: its table, its user and its key within the user's rows. */
export function sealBinding(table: string, userId: string, rowKey = ''): string {
  return `${table}\u0000${userId}\u0000${rowKey}`;
}

/** The public id of a key (an HMAC of it, not the key). */
export function keyIdOf(key: Buffer): string {
  return keyIdUnder(key, 'bosun app secrets key id');
}
