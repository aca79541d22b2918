import { isDeepStrictEqual } from 'node:util';
import type { NetworkPolicy, SandboxStartSpec } from './runtime.ts';
import type { SerialQueues } from './serial-queues.ts';
import { checkStartSpec } from './spec.ts';

/** A warm pool: `count` sandboxes of one shape started ahead of time, each claimed by the first matching start. */
export interface WarmPoolConfig {
  name: string;
  count: number;
  /** The shape: a start spec without its session id (defaults are the runtime's, as for any start). */
  spec: Omit<SandboxStartSpec, 'sessionId'>;
}

/** What any backend's resolved spec has: the rule compares every other field of it as a whole. */
export interface WarmComparable {
  sessionId: string;
  command: readonly string[];
  workingDir: string;
  environment: Readonly<Record<string, string>>;
  resourceFactor: number;
  network: NetworkPolicy;
}

/** A pool's shape as the runtime runs it, every default applied. */
export interface WarmPool<Spec> {
  name: string;
  count: number;
  shape: Spec;
}

/** The session id of a sandbox waiting in a pool: never a caller's (a caller's session id has no `:`). */
export const warmSessionId = (pool: string, id: string) => `warm:${pool}:${id}`;

export const isWarmSessionId = (sessionId: string) => sessionId.startsWith('warm:');

/** The pools with their shapes resolved by `specOf` (the backend's defaults); a bad one is refused by name. */
export function resolvePools<Spec>(
  configs: readonly WarmPoolConfig[],
  specOf: (spec: SandboxStartSpec) => Spec,
): WarmPool<Spec>[] {
  const names = new Set<string>();
  return configs.map(({ name, count, spec }) => {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name) || names.has(name)) {
      throw new Error(`warm pool ${JSON.stringify(name)}: a unique name of letters, digits, _ . or -`);
    }
    if (!Number.isInteger(count) || count < 0 || count > 64) throw new Error(`warm pool ${name}: count 0 to 64`);
    names.add(name);
    const request = { ...spec, sessionId: name };
    try {
      checkStartSpec(request);
      return { name, count, shape: specOf(request) };
    } catch (error) {
      throw new Error(`warm pool ${name}: ${(error as Error).message}`);
    }
  });
}

/** What every warm keeper needs of its runtime (each backend's host adds how it starts and removes sandboxes). */
export interface WarmHostBase {
  queues: SerialQueues;
  closing(): boolean;
  logger: { warn(message: string): void } | undefined;
}

/**
 * A runtime's warm pools, kept full by refills that run one after another (a refill never competes with itself):
 * each backend says how its pools are filled (`fill`) and how a sandbox is claimed.
 */
export abstract class WarmKeeperBase<Spec, Host extends WarmHostBase> {
  private refilling: Promise<void> = Promise.resolve();

  constructor(
    private readonly pools_: WarmPool<Spec>[],
    protected readonly host: Host,
  ) {}

  get pools(): readonly WarmPool<Spec>[] {
    return this.pools_;
  }

  /** One more pool, filled in the background; refused when its name is taken. */
  add(pool: WarmPool<Spec>): void {
    if (this.pools_.some(({ name }) => name === pool.name)) {
      throw new Error(`warm pool ${pool.name}: the name is taken`);
    }
    this.pools_.push(pool);
    this.refill();
  }

  /** Starts what each pool lacks, once the refills asked for before have ended. */
  refill(): void {
    this.refilling = this.refilling
      .then(() => this.fill())
      .catch((error: Error) => this.host.logger?.warn(`warm pools: refilling failed: ${error.message}`));
  }

  /** Resolves once the refills asked for so far have ended. */
  idle(): Promise<void> {
    return this.refilling;
  }

  /** Starts what each pool lacks, one sandbox at a time. */
  protected abstract fill(): Promise<void>;
}

/**
 * Whether a start can be served by a sandbox of `shape`, for any backend (both with every default applied, so an
 * absent `working_dir` equals `/workspace` and an absent command the runtime's own). Everything the sandbox was
 * started with must be equal (command, working dir, user and group, resource factor, network policy, and the image
 * where the backend runs one), except:
 * - the environment: a variable with an empty value counts as absent, on either side; every other variable the
 *   start asks for must be in the shape with the same value; the shape may have more (the pool's configured
 *   defaults, which `/api/warm-runtime-configs` shows);
 * - a trailing `/` of the working dir.
 */
export function servesWarm<Spec extends WarmComparable>(request: Spec, shape: Spec): boolean {
  const fixed = ({ sessionId: _session, environment: _environment, workingDir, ...rest }: Spec) => ({
    ...rest,
    workingDir: workingDir.replace(/(.)\/+$/, '$1'),
  });
  if (!isDeepStrictEqual(fixed(request), fixed(shape))) return false;
  return Object.entries(request.environment).every(
    ([name, value]) => value === '' || shape.environment[name] === value,
  );
}

/**
 * A pool as `/api/warm-runtime-configs` answers it (OpenHands' shape; never a variable's value), with the
 * backend's own fields (`run_as_user`, `run_as_group`, `image`...).
 */
export function warmConfigWire<Spec extends WarmComparable>(pool: WarmPool<Spec>, own: Record<string, unknown>) {
  const { name, count, shape } = pool;
  return {
    name,
    count,
    command: shape.command,
    working_dir: shape.workingDir,
    environment_keys: Object.keys(shape.environment).sort(),
    resource_factor: shape.resourceFactor,
    ...own,
    network: shape.network,
  };
}
