import { createHmac, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** A secrets key that is missing, malformed, or not the one the data was sealed with. */
export class SecretsKeyError extends Error {
  override name = 'SecretsKeyError';
}

export const KEY_BYTES = 32;
const KEY_ID_CHARS = 16;

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

/** The key itself when it has the right length; a SecretsKeyError naming `what` otherwise. */
export function checkedKey(key: Buffer, what: string): Buffer {
  if (key.length !== KEY_BYTES) throw new SecretsKeyError(`${what} must be ${KEY_BYTES} bytes, not ${key.length}`);
  return key;
}

/** The public id of a key: an HMAC of it under `label` (never the key), 16 hex characters. */
export function keyIdOf(key: Buffer, label: string): string {
  return createHmac('sha256', key).update(label).digest('hex').slice(0, KEY_ID_CHARS);
}

/** The key in a key file; a SecretsKeyError saying why it cannot be read or used. */
export function readKeyFile(path: string): Buffer {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SecretsKeyError(`cannot read the secrets key file ${path}: ${(error as Error).message}`);
  }
  return parseSecretsKey(text, `the secrets key file ${path}`);
}

/** Writes a new key to `path` durably, readable by the owner only; if another process won the race, its key. */
export function createKeyFile(path: string): Buffer {
  mkdirSync(dirname(path), { recursive: true });
  const key = newSecretsKey();
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, `${key.toString('base64')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readKeyFile(path);
  } finally {
    unlinkSync(temporary);
  }
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
  return key;
}
