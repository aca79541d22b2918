import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseOpenError } from '@bosun/database';
import { SecretsKeyError } from '@bosun/sealing';
import type { FastifyInstance } from 'fastify';
import { buildRuntimeApi } from '../http/runtime-api.ts';
import type { KubernetesRuntimeSettings } from '../kubernetes/kubernetes-config.ts';
import { KubernetesRuntime } from '../kubernetes/kubernetes-runtime.ts';
import type { LifecycleOptions } from '../lifecycle.ts';
import type { LocalSpec } from '../local/launcher.ts';
import { LocalRuntime } from '../local/local-runtime.ts';
import type { NetworkPolicy, Runtime } from '../runtime.ts';
import { parseAllowedHost } from '../settings.ts';
import { DatabaseSandboxStore } from '../store/database-store.ts';
import type { SandboxStore } from '../store/sandbox-store.ts';
import type { RuntimeApiConfig } from './config.ts';
import { RuntimeApiStartError, apiKeyOf, secretsKeyOf } from './secrets.ts';

export { RuntimeApiStartError } from './secrets.ts';

/** A backend behind the service: the runtime, and its warm pools for `/api/warm-runtime-configs`. */
export interface RuntimeBackend {
  runtime: Runtime;
  warmConfigs?: () => readonly object[];
}

export interface BackendContext {
  /** The service's database as a backend's record store (its specs sealed); the backend owns and closes it. */
  openStore<Spec extends { sessionId: string }>(): Promise<SandboxStore<Spec>>;
  logger: { warn(message: string): void };
}

/**
 * The backend `runtime_backend` names, opened. The seam for more backends: a `kubernetes` one adds its case here
 * (its settings in RuntimeApiConfig).
 */
export async function openRuntimeBackend(config: RuntimeApiConfig, context: BackendContext): Promise<RuntimeBackend> {
  switch (config.runtime_backend) {
    case 'local': {
      const store = await context.openStore<LocalSpec>();
      const runtime = await LocalRuntime.open({
        root: config.sandbox_root ?? join(config.data_dir, 'sandboxes'),
        // No sandbox sees the service's data (its database, its keys), whatever its root.
        hiddenPaths: [resolve(config.data_dir)],
        network: networkOf(config),
        limits: {
          memoryBytes: config.sandbox_memory_mb * 2 ** 20,
          cpus: config.sandbox_cpus,
          processes: config.sandbox_processes,
        },
        unsafeNoIsolation: config.unsafe_no_isolation,
        store,
        logger: context.logger,
        lifecycle: lifecycleOf(config),
        warmPools: config.warm_pool_size > 0 ? [warmPoolOf(config)] : [],
      });
      return { runtime, warmConfigs: () => runtime.warmConfigs() };
    }
    case 'kubernetes': {
      // Its objects in the cluster are its state: the service's database keeps nothing of it.
      if (config.kubernetes === undefined) throw new Error('needs the `kubernetes` settings (image, runtime_base_url)');
      const runtime = await KubernetesRuntime.open({
        settings: config.kubernetes as KubernetesRuntimeSettings,
        lifecycle: lifecycleOf(config),
        logger: context.logger,
        warmPools: config.warm_pool_size > 0 ? [warmPoolOf(config)] : [],
      });
      return { runtime, warmConfigs: () => runtime.warmConfigs() };
    }
  }
}

/** `idle_seconds` and `dead_seconds` (0: never) for either backend. */
function lifecycleOf(config: RuntimeApiConfig): LifecycleOptions {
  return {
    ...(config.idle_seconds > 0 ? { idlePauseMs: config.idle_seconds * 1000 } : {}),
    ...(config.dead_seconds > 0 ? { deadDeleteMs: config.dead_seconds * 1000 } : {}),
  };
}

function networkOf(config: RuntimeApiConfig): NetworkPolicy {
  if (config.sandbox_network !== 'allow') return { mode: config.sandbox_network };
  return { mode: 'allow', hosts: config.sandbox_allow_hosts.map(parseAllowedHost) };
}

function warmPoolOf(config: RuntimeApiConfig) {
  const environment = Object.fromEntries(
    config.warm_pool_environment.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  const workingDir = config.warm_pool_working_dir;
  return {
    name: 'default',
    count: config.warm_pool_size,
    spec: { environment, ...(workingDir ? { workingDir } : {}) },
  };
}

export interface RunningRuntimeApi {
  url: string;
  app: FastifyInstance;
  backend: RuntimeBackend;
  /** Stops listening, then the backend (its sandboxes PAUSED), then the database. */
  close(): Promise<void>;
}

/** Opens the database and the backend, and listens. A setting it cannot use is a RuntimeApiStartError naming it. */
export async function startRuntimeApi(config: RuntimeApiConfig): Promise<RunningRuntimeApi> {
  const apiKey = apiKeyOf(config);
  // 0711: sandboxes' user traverses it to their root (inside it by default); no one else lists it.
  mkdirSync(config.data_dir, { recursive: true, mode: 0o711 });
  let key: Buffer;
  try {
    key = secretsKeyOf(config);
  } catch (error) {
    if (error instanceof SecretsKeyError) throw new RuntimeApiStartError(error.message);
    throw error;
  }
  // The backend logs through the HTTP server's logger, which exists once the backend does.
  const logs: { to?: FastifyInstance } = {};
  const logger = { warn: (message: string) => logs.to?.log.warn(message) };
  const sqlitePath = join(config.data_dir, 'runtime.db');
  if (!config.database_url) ownFile(sqlitePath);
  const stores: { close(): Promise<void> }[] = [];
  const openStore = async <Spec extends { sessionId: string }>() => {
    const store = await DatabaseSandboxStore.open<Spec>({
      ...(config.database_url ? { url: config.database_url } : {}),
      sqlitePath,
      createDatabase: config.create_databases,
      key,
    });
    stores.push(store);
    return store;
  };
  let backend: RuntimeBackend;
  try {
    backend = await openRuntimeBackend(config, { openStore, logger });
  } catch (error) {
    // A backend that failed to open may not have closed what it opened (closing twice is harmless).
    await Promise.all(stores.map((store) => store.close()));
    if (error instanceof DatabaseOpenError) throw error;
    throw new RuntimeApiStartError(`runtime_backend ${config.runtime_backend}: ${(error as Error).message}`);
  }
  const app = buildRuntimeApi({
    runtime: backend.runtime,
    apiKeys: [apiKey, ...config.runtime_api_key_previous],
    logLevel: config.log_level,
    ...(backend.warmConfigs ? { warmConfigs: backend.warmConfigs } : {}),
  });
  logs.to = app;
  const url = await app.listen({ host: config.host, port: config.port });
  const health = await backend.runtime.health();
  if (!health.isolated) app.log.warn(`sandboxes are NOT isolated: ${health.notEnforced.join('; ')}`);
  return {
    url,
    app,
    backend,
    close: async () => {
      await app.close();
      await backend.runtime.close();
    },
  };
}

/** Makes the database file readable by this user alone before SQLite opens it (its journal files take its mode). */
function ownFile(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
}
