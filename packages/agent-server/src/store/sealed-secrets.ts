import { SecretsKeyError, checkedKey, keyIdOf as keyIdUnder, openParts, sealParts } from '@bosun/sealing';

export { SecretsKeyError, newSecretsKey, parseSecretsKey } from '@bosun/sealing';

const VERSION = 'sealed:v1';
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
    const parts = sealParts(this.keys.get(this.keyId) as Buffer, conversationId, json);
    return [this.prefix.slice(0, -1), ...parts].join(':');
  }

  /** The record in clear; a record from before sealing (plain JSON) is returned as it is. */
  openRecord(conversationId: string, data: string): string {
    if (!isSealed(data)) return data;
    const [, , keyId, iv, tag, sealed] = data.split(':') as string[];
    const key = this.keys.get(keyId as string);
    if (!key) throw new SecretsKeyError(`conversation ${conversationId} was sealed with another secrets key`);
    try {
      return openParts(key, conversationId, [iv as string, tag as string, sealed as string]);
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

/** The public id of a key (an HMAC of it). */
export function keyIdOf(key: Buffer): string {
  return keyIdUnder(key, 'bosun secrets key id');
}
