import { hkdfSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createKeyFile, parseSecretsKey, readKeyFile } from '@bosun/sealing';
import { SecretsKeyError } from './errors.ts';
import { KeyRing } from './secret-cipher.ts';

export interface KeyRingOptions {
  /** The key: base64 of 32 random bytes (`BOSUN_SECRETS_KEY`). */
  secretsKey?: string;
  /** Keys values may still be sealed with: they open, and are sealed again with the current key at open. */
  previousSecretsKeys?: string[];
  /** JWT secrets the key was once derived from (moving from a derived key to an explicit one): they open only. */
  previousJwtSecrets?: string[];
  /** The install's JWT secret: the key is derived from it (HKDF-SHA256) when no `secretsKey` is given. */
  jwtSecret?: string;
  /** Without either, the key of `<dataDir>/secrets.key`, generated (mode 0600) the first time. */
  dataDir: string;
}

/** The key generated in the data directory when none is configured. */
export const GENERATED_KEY_FILE = 'secrets.key';

/** The key ring from configuration: the explicit key, else one derived from the JWT secret, else the key file. */
export function loadKeyRing(options: KeyRingOptions): KeyRing {
  const previous = [
    ...(options.previousSecretsKeys ?? []).map((key, index) =>
      parseSecretsKey(key, `previous secrets key #${index + 1}`),
    ),
    ...(options.previousJwtSecrets ?? []).map(deriveFromJwtSecret),
  ];
  if (options.secretsKey !== undefined) {
    return new KeyRing(parseSecretsKey(options.secretsKey, 'the secrets key'), previous, 'the configured secrets key');
  }
  if (options.jwtSecret !== undefined) {
    return new KeyRing(deriveFromJwtSecret(options.jwtSecret), previous, 'the key derived from the JWT secret');
  }
  const file = join(options.dataDir, GENERATED_KEY_FILE);
  return new KeyRing(readOrCreateKeyFile(file), previous, `the key in ${file}`);
}

/** The secrets key of an install that configures only a JWT secret. */
export function deriveFromJwtSecret(jwtSecret: string): Buffer {
  if (jwtSecret.length < 16) throw new SecretsKeyError('the JWT secret must be at least 16 characters long');
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'bosun', 'bosun app secrets key v1', 32));
}

function readOrCreateKeyFile(path: string): Buffer {
  return existsSync(path) ? readKeyFile(path) : createKeyFile(path);
}
