import { join } from 'node:path';
import { withoutPassword } from '@bosun/database';
import type { Logger } from 'pino';
import { openCache } from '../cache/index.ts';
import type { AppServerConfig } from '../config.ts';
import type { AppDependencies } from '../context.ts';
import {
  DatabaseOpenError,
  type KeyRing,
  SQLITE_FILE,
  SecretsKeyError,
  loadKeyRing,
  openDatabase,
} from '../data/index.ts';
import { type S3Options, openObjectStore } from '../objects/index.ts';
import { SandboxRuntimeError, openSandboxRuntime } from '../sandboxes/index.ts';
import { StartError } from './start-errors.ts';

export interface OpenedDependencies {
  dependencies: AppDependencies;
  keyRing: KeyRing;
  /** What each one is, for a person: no secret, no password. */
  description: string[];
  close(): Promise<void>;
}

/**
 * Opens what the configuration names, or the embedded defaults in the data directory: the secrets key, the
 * database (migrated, secrets sealed again after a key rotation), the cache, the object store, the sandboxes' runtime. Redis and S3 are
 * reached on first use: one that is down makes the server not ready, not unable to start. Whatever fails, what was opened is closed.
 */
export async function openDependencies(
  config: AppServerConfig,
  logger?: Logger,
  options: { configFile?: string } = {},
): Promise<OpenedDependencies> {
  const opened: { close(): Promise<void> }[] = [];
  const close = async () => {
    for (const dependency of opened.reverse()) await dependency.close().catch(() => {});
  };
  try {
    const keyRing = loadKeyRing({
      dataDir: config.data_dir,
      previousSecretsKeys: config.secrets_key_previous,
      previousJwtSecrets: config.jwt_secret_previous,
      ...(config.secrets_key ? { secretsKey: config.secrets_key } : {}),
      ...(config.jwt_secret ? { jwtSecret: config.jwt_secret } : {}),
    });
    const database = await openDatabase({
      dataDir: config.data_dir,
      createDatabase: config.create_databases,
      migrate: config.migrate_on_start,
      keyRing,
      ...(config.database_url ? { url: config.database_url } : {}),
      ...(logger ? { logger } : {}),
    });
    opened.push(database);
    const cache = await openCache({
      ...(config.redis_url ? { redisUrl: config.redis_url } : {}),
      ...(logger ? { logger } : {}),
    });
    opened.push(cache);
    const objects = await openObjectStore({ dataDir: config.data_dir, ...(s3Of(config) ? { s3: s3Of(config) } : {}) });
    opened.push(objects);
    const sandboxRuntime = await openSandboxRuntime(config, {
      ...options,
      ...(logger ? { logger: { warn: (message: string) => logger.warn(message) } } : {}),
    });
    opened.push(sandboxRuntime.runtime);
    return {
      dependencies: { database, cache, objects, sandboxRuntime },
      keyRing,
      description: [...describe(config), sandboxRuntime.description],
      close,
    };
  } catch (error) {
    await close();
    if (
      error instanceof DatabaseOpenError ||
      error instanceof SecretsKeyError ||
      error instanceof SandboxRuntimeError
    ) {
      throw new StartError(withoutPassword(error.message));
    }
    throw error;
  }
}

/** The S3 bucket the configuration names, if any. */
function s3Of(config: AppServerConfig): S3Options | undefined {
  if (config.s3_bucket === undefined) return undefined;
  return {
    bucket: config.s3_bucket,
    ...(config.s3_endpoint ? { endpoint: config.s3_endpoint } : {}),
    ...(config.s3_region ? { region: config.s3_region } : {}),
    ...(config.s3_access_key_id ? { accessKeyId: config.s3_access_key_id } : {}),
    ...(config.s3_secret_access_key ? { secretAccessKey: config.s3_secret_access_key } : {}),
  };
}

function describe(config: AppServerConfig): string[] {
  const { database_url: url, redis_url: redis, s3_bucket: bucket, s3_endpoint: endpoint } = config;
  return [
    url ? `Database: PostgreSQL ${withoutPassword(url)}` : `Database: SQLite ${join(config.data_dir, SQLITE_FILE)}`,
    redis ? `Cache: Redis ${withoutPassword(redis)}` : 'Cache: in-process',
    bucket
      ? `Objects: S3 bucket ${bucket}${endpoint ? ` at ${withoutPassword(endpoint)}` : ''}`
      : `Objects: on disk ${join(config.data_dir, 'objects')}`,
  ];
}
