import { join, resolve } from 'node:path';
import { LocalRuntime, RemoteRuntime, type Runtime } from '@bosun/runtime';
import type { AppServerConfig } from '../config.ts';
import { UnavailableRuntime } from './unavailable-runtime.ts';

/**
 * How long a sandbox's agent server has to stop when it is paused before it is killed (its log keeps what it
 * acknowledged). An app stopping pauses its sandboxes after up to 2 s for its starts (HANDOVER_GRACE_MS): this
 * keeps the whole within the 10 s the app has to stop.
 */
export const SANDBOX_STOP_GRACE_MS = 5_000;

export type SandboxRuntimeConfig = Pick<
  AppServerConfig,
  | 'data_dir'
  | 'sandbox_isolation'
  | 'sandbox_command'
  | 'sandbox_start_timeout'
  | 'sandbox_memory_mb'
  | 'sandbox_cpus'
  | 'sandbox_processes'
  | 'runtime_api_url'
  | 'runtime_api_key'
>;

export interface SandboxRuntime {
  runtime: Runtime;
  /** In this process (its sandboxes die with the app), rather than a runtime service. */
  embedded: boolean;
  /** What it is, for a person (no secret). */
  description: string;
}

/** Thrown when the sandboxes' runtime cannot be opened as configured: a start error. */
export class SandboxRuntimeError extends Error {}

/**
 * The runtime the app's sandboxes run in: a runtime service (`runtime_api_url`, `runtime_api_key`), or one
 * embedded in this process over `<data_dir>/sandboxes`, each sandbox under bubblewrap that hides the data
 * directory and the configuration file; `sandbox_isolation: unsafe-none` runs them as plain processes instead.
 */
export async function openSandboxRuntime(
  config: SandboxRuntimeConfig,
  options: {
    configFile?: string;
    logger?: { warn(message: string): void };
    /** Where bubblewrap is (default: found on the system's PATH). */
    bwrapPath?: string;
  } = {},
): Promise<SandboxRuntime> {
  if (config.runtime_api_url && config.runtime_api_key) {
    const runtime = new RemoteRuntime({ baseUrl: config.runtime_api_url, apiKey: config.runtime_api_key });
    return { runtime, embedded: false, description: `Sandboxes: runtime service ${config.runtime_api_url}` };
  }
  const unsafe = config.sandbox_isolation === 'unsafe-none';
  const dataDir = resolve(config.data_dir);
  const root = join(dataDir, 'sandboxes');
  let runtime: LocalRuntime;
  try {
    runtime = await LocalRuntime.open({
      root,
      hiddenPaths: [dataDir, ...(options.configFile ? [resolve(options.configFile)] : [])],
      limits: {
        memoryBytes: config.sandbox_memory_mb * 2 ** 20,
        cpus: config.sandbox_cpus,
        processes: config.sandbox_processes,
      },
      ...(config.sandbox_command ? { command: config.sandbox_command } : {}),
      startTimeoutMs: config.sandbox_start_timeout * 1000,
      stopGraceMs: SANDBOX_STOP_GRACE_MS,
      ...(unsafe ? { isolation: 'none' as const } : {}),
      ...(options.bwrapPath ? { bwrapPath: options.bwrapPath } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
  } catch (error) {
    const why = (error as Error).message;
    if (!unsafe && /bubblewrap/.test(why)) {
      // The app serves all the rest: a first `npm start` on a machine without bubblewrap opens in a browser.
      const refusal =
        'sandbox_isolation: bubblewrap is not installed (Debian: apt-get install bubblewrap socat); or set ' +
        'sandbox_isolation to unsafe-none to run sandboxes as plain processes that see everything this server sees';
      options.logger?.warn(`no sandbox can start: ${refusal}`);
      return {
        runtime: new UnavailableRuntime(refusal),
        embedded: true,
        description: `Sandboxes: none can start: ${refusal}`,
      };
    }
    throw new SandboxRuntimeError(`sandboxes: ${why}`);
  }
  const description = unsafe
    ? `Sandboxes: NOT isolated (sandbox_isolation unsafe-none), in ${runtime.root}`
    : `Sandboxes: bubblewrap, in ${runtime.root}${runtime.root === root ? '' : ` (${root} is out of their user's reach)`}`;
  return { runtime, embedded: true, description };
}
