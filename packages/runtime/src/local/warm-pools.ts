import { isDeepStrictEqual } from 'node:util';
import type { SandboxStartSpec } from '../runtime.ts';
import { checkStartSpec } from '../spec.ts';
import type { LocalSpec } from './launcher.ts';

/** A warm pool: `count` sandboxes of one shape started ahead of time, each claimed by the first matching start. */
export interface WarmPoolConfig {
  name: string;
  count: number;
  /** The shape: a start spec without its session id (defaults are the runtime's, as for any start). */
  spec: Omit<SandboxStartSpec, 'sessionId'>;
}

/** A pool's shape as the runtime runs it, every default applied. */
export interface WarmPool {
  name: string;
  count: number;
  shape: LocalSpec;
}

/** The session id of a sandbox waiting in a pool: never a caller's (a caller's session id has no `:`). */
export const warmSessionId = (pool: string, id: string) => `warm:${pool}:${id}`;

/** The pools with their shapes resolved by `localSpec` (the runtime's defaults); a bad one is refused by name. */
export function resolvePools(configs: readonly WarmPoolConfig[], localSpec: (spec: SandboxStartSpec) => LocalSpec) {
  const names = new Set<string>();
  return configs.map(({ name, count, spec }): WarmPool => {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name) || names.has(name)) {
      throw new Error(`warm pool ${JSON.stringify(name)}: a unique name of letters, digits, _ . or -`);
    }
    if (!Number.isInteger(count) || count < 0 || count > 64) throw new Error(`warm pool ${name}: count 0 to 64`);
    names.add(name);
    const request = { ...spec, sessionId: name };
    try {
      checkStartSpec(request);
      return { name, count, shape: localSpec(request) };
    } catch (error) {
      throw new Error(`warm pool ${name}: ${(error as Error).message}`);
    }
  });
}

/**
 * Whether a start can be served by a sandbox of `shape` (both with every default applied, so an absent
 * `working_dir` equals `/workspace` and an absent command the runtime's own). Everything the process was started
 * with must be equal (command, working dir, user and group, resource factor, network policy), except:
 * - the environment: a variable with an empty value counts as absent, on either side; every other variable the
 *   start asks for must be in the shape with the same value; the shape may have more (the pool's configured
 *   defaults, which `/api/warm-runtime-configs` shows);
 * - the image, which the local backend does not run;
 * - a trailing `/` of the working dir.
 */
export function servesWarm(request: LocalSpec, shape: LocalSpec): boolean {
  const fixed = (spec: LocalSpec) => ({
    command: spec.command,
    workingDir: spec.workingDir.replace(/(.)\/+$/, '$1'),
    uid: spec.uid,
    gid: spec.gid,
    resourceFactor: spec.resourceFactor,
    network: spec.network,
  });
  if (!isDeepStrictEqual(fixed(request), fixed(shape))) return false;
  return Object.entries(request.environment).every(
    ([name, value]) => value === '' || shape.environment[name] === value,
  );
}

/** The pools as `/api/warm-runtime-configs` answers them (OpenHands' shape; never a variable's value). */
export function warmConfigsWire(pools: readonly WarmPool[]) {
  return pools.map(({ name, count, shape }) => ({
    name,
    count,
    command: shape.command,
    working_dir: shape.workingDir,
    environment_keys: Object.keys(shape.environment).sort(),
    resource_factor: shape.resourceFactor,
    run_as_user: shape.uid,
    run_as_group: shape.gid,
    network: shape.network,
  }));
}
