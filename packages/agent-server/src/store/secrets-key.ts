import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SecretsKeyError, createKeyFile, parseSecretsKey, readKeyFile } from '@bosun/sealing';
import { SecretsKeyring, keyIdOf } from './sealed-secrets.ts';

/** Where the key that seals secrets at rest comes from. */
export interface SecretsKeyOptions {
  /** The key: base64 of 32 random bytes (`BOSUN_SECRETS_KEY`). */
  key?: string;
  /** A file holding the key in base64 (`--secrets-key-file`, `BOSUN_SECRETS_KEY_FILE`). */
  keyFile?: string;
  /** Keys the data may still be sealed with (`BOSUN_SECRETS_KEY_PREVIOUS`): read, then sealed again with `key`. */
  previousKeys?: string[];
}

/** The key generated when none is configured, inside the data directory. */
export const GENERATED_KEY_FILE = 'secrets.key';

/**
 * The keyring of the configured key (and previous keys). With no key configured, the key of
 * `<dataDir>/secrets.key`, generated (mode 0600) on first start; never generated when the database already holds
 * values sealed with a key nobody gave (`sealedKeyIds`, read only then): that would make them unreadable for good.
 */
export function loadSecretsKeyring(
  dataDir: string,
  options: SecretsKeyOptions,
  sealedKeyIds: () => Set<string>,
): SecretsKeyring {
  const previous = (options.previousKeys ?? []).map((key) => parseSecretsKey(key, 'BOSUN_SECRETS_KEY_PREVIOUS'));
  if (options.key !== undefined && options.keyFile !== undefined) {
    throw new SecretsKeyError('give the secrets key either directly (BOSUN_SECRETS_KEY) or in a file, not both');
  }
  if (options.key !== undefined) return new SecretsKeyring(parseSecretsKey(options.key, 'BOSUN_SECRETS_KEY'), previous);
  if (options.keyFile !== undefined) return new SecretsKeyring(readKeyFile(options.keyFile), previous);
  const generated = join(dataDir, GENERATED_KEY_FILE);
  if (existsSync(generated)) return new SecretsKeyring(readKeyFile(generated), previous);
  const previousIds = new Set(previous.map(keyIdOf));
  if ([...sealedKeyIds()].some((id) => !previousIds.has(id))) {
    throw new SecretsKeyError(
      [
        `bosun.db holds secrets sealed with a key, but ${generated} is missing:`,
        'restore that file, or give the key (BOSUN_SECRETS_KEY or --secrets-key-file)',
      ].join(' '),
    );
  }
  return new SecretsKeyring(createKeyFile(generated), previous);
}
