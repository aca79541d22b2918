import type { SandboxStatus } from '@bosun/protocol';

/**
 * Where a sandbox may connect. `none`: nowhere (only its own agent server is reachable, from the runtime's side);
 * `allow`: only the listed `host:port`s, each forwarded by the runtime; `open`: the host's network as it is,
 * including the host's loopback services (no isolation of the network at all).
 */
export type NetworkPolicy = { mode: 'none' } | { mode: 'allow'; hosts: AllowedHost[] } | { mode: 'open' };

export interface AllowedHost {
  host: string;
  port: number;
}

/** What a sandbox starts from (OpenHands' runtime API `/start` body, without what a local backend cannot honour). */
export interface SandboxStartSpec {
  /** The caller's name for the sandbox (OpenHands' `session_id`): unique among the runtime's live sandboxes. */
  sessionId: string;
  /** A container image for backends that run images; the local backend ignores it and runs `command`. */
  image?: string;
  /** The command before `agent-server` and its flags; absent: the backend's own (the same Bosun it runs). */
  command?: readonly string[];
  /** The workspace, as the sandbox sees it (default `/workspace`); the agent server starts there. */
  workingDir?: string;
  /** The sandbox's own environment, added to the backend's small allow-list; never the runtime's own. */
  environment?: Readonly<Record<string, string>>;
  /** Multiplies the backend's per-sandbox resources (1, 2, 4 or 8). */
  resourceFactor?: ResourceFactor;
  /** Who the sandbox runs as (default: the backend's own choice, e.g. 10001 when the runtime runs as root). */
  runAsUser?: number;
  runAsGroup?: number;
  network?: NetworkPolicy;
}

/**
 * What a resume may replace (Bosun's): the sandbox's whole environment and its network, as at a start. What is
 * absent stays as it was.
 */
export type ResumeRefresh = Pick<SandboxStartSpec, 'environment' | 'network'>;

export const RESOURCE_FACTORS = [1, 2, 4, 8] as const;
export type ResourceFactor = (typeof RESOURCE_FACTORS)[number];

/** A sandbox as the runtime reports it (OpenHands' `RuntimeInfo`): the key and URL only while it runs. */
export interface RuntimeSandbox {
  /** The runtime's id for it (OpenHands' `runtime_id`). */
  id: string;
  sessionId: string;
  status: SandboxStatus;
  /** Why it is in its status (an error's reason), for a person; never a secret. */
  statusDetail: string | null;
  /** Its agent server's base URL, reachable from the runtime's side (only while it runs). */
  url: string | null;
  /** The key its agent server accepts (`X-Session-API-Key`); new at every start and resume. */
  sessionApiKey: string | null;
  /** What the backend enforces on it: each a sentence, e.g. `memory: 1024 MiB (cgroup v1)`. */
  isolation: string[];
  createdAt: string;
}

/** What a backend enforces and what it cannot, for health checks and a person deciding whether to trust it. */
export interface RuntimeHealth {
  backend: string;
  /** False when a sandbox started now would not be isolated (only with an explicit unsafe option). */
  isolated: boolean;
  enforced: string[];
  /** What it cannot enforce here, each with why. */
  notEnforced: string[];
  running: number;
  /** Sandboxes waiting in each warm pool, by pool name (backends with pools). */
  warm?: Record<string, number>;
}

/**
 * Sandboxes, each an agent server with its own workspace and session key, behind one interface: the local
 * backend (bubblewrap) in process, a Kubernetes backend, or a remote runtime API over HTTP. The app server
 * keeps who owns what; the runtime knows only sandboxes.
 */
export interface Runtime {
  /**
   * Starts a sandbox and answers once it is RUNNING (its agent server answers with its key at `url`), or ERROR
   * with why not. Throws SandboxSpecError for a spec it refuses.
   */
  start(spec: SandboxStartSpec): Promise<RuntimeSandbox>;
  /** Stops its process and removes its workspace and data; it is then unknown. Throws SandboxNotFoundError. */
  stop(id: string): Promise<void>;
  /** Stops its process and revokes its key; its workspace and data are kept. Throws SandboxNotFoundError. */
  pause(id: string): Promise<RuntimeSandbox>;
  /**
   * Starts a PAUSED or ERROR sandbox again over its workspace, with a new session key; with `refresh`, with its
   * environment and network from then on (kept for later resumes). Throws SandboxNotFoundError,
   * SandboxConflictError in any other status, or SandboxSpecError for a refresh it refuses (nothing changed).
   */
  resume(id: string, refresh?: ResumeRefresh): Promise<RuntimeSandbox>;
  get(id: string): Promise<RuntimeSandbox | undefined>;
  /** The sandbox started under `sessionId`, if any. */
  getBySession(sessionId: string): Promise<RuntimeSandbox | undefined>;
  /** In the order of `sessionIds`, undefined for each unknown. */
  getManyBySession(sessionIds: readonly string[]): Promise<(RuntimeSandbox | undefined)[]>;
  /** The sandboxes that are STARTING or RUNNING, oldest first (OpenHands' `/list`: what runs, to reconcile with). */
  list(): Promise<RuntimeSandbox[]>;
  health(): Promise<RuntimeHealth>;
  /** Stops every sandbox it runs itself (PAUSED, workspaces kept); a client of a runtime service stops none. */
  close(): Promise<void>;
}
