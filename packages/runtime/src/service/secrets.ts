import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createKeyFile, parseSecretsKey, readKeyFile } from '@bosun/sealing';
import type { RuntimeApiConfig } from './config.ts';

/** A setting the service cannot start with; the message names the key. */
export class RuntimeApiStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeApiStartError';
  }
}

/** The one key callers give in `X-API-Key`: from the environment or the file, never a flag. */
export function apiKeyOf(config: RuntimeApiConfig): string {
  refuseBoth(config, 'runtime_api_key');
  if (config.runtime_api_key) return config.runtime_api_key;
  if (config.runtime_api_key_file) {
    let key: string;
    try {
      key = readFileSync(config.runtime_api_key_file, 'utf8').split('\n')[0]?.trim() ?? '';
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new RuntimeApiStartError(`runtime_api_key_file: cannot read ${config.runtime_api_key_file} (${why})`);
    }
    if (key.length < 16) throw new RuntimeApiStartError('runtime_api_key_file: the key must be 16 characters or more');
    return key;
  }
  throw new RuntimeApiStartError(
    'runtime_api_key: required, in BOSUN_RUNTIME_API_KEY or a file named by runtime_api_key_file (never a flag)',
  );
}

/** The key sealing records at rest: given, in a file, or generated once into `<data_dir>/secrets.key`. */
export function secretsKeyOf(config: RuntimeApiConfig): Buffer {
  refuseBoth(config, 'secrets_key');
  if (config.secrets_key) return parseSecretsKey(config.secrets_key, 'secrets_key');
  if (config.secrets_key_file) {
    try {
      return readKeyFile(config.secrets_key_file);
    } catch (error) {
      throw new RuntimeApiStartError(`secrets_key_file: ${(error as Error).message}`);
    }
  }
  const path = join(config.data_dir, 'secrets.key');
  if (existsSync(path)) return readKeyFile(path);
  return createKeyFile(path);
}

/** A key given both itself and in a file: which one was meant is unknown, so neither is used. */
function refuseBoth(config: RuntimeApiConfig, key: 'runtime_api_key' | 'secrets_key'): void {
  if (config[key] !== undefined && config[`${key}_file`] !== undefined) {
    throw new RuntimeApiStartError(`${key}, ${key}_file: give the key or the file that holds it, not both`);
  }
}
