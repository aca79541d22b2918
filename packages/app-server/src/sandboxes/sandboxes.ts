import type { SandboxStatus } from '@bosun/protocol';

/** What a sandbox starts from: how its agent server is started, with what environment, in which workspace. */
export interface SandboxSpec {
  id: string;
  /** The agent server's command; null: the backend's own (the same Bosun the app runs). */
  command: string[] | null;
  initialEnv: Record<string, string>;
  /** The workspace as the sandbox sees it (`/workspace` under bubblewrap; its host path when not isolated). */
  workingDir: string;
  createdAt: string;
}

/** A sandbox as its owner sees it: the key and URL only while it runs. */
export interface Sandbox {
  id: string;
  ownerId: string;
  specId: string;
  status: SandboxStatus;
  statusDetail: string | null;
  /** The plain session key its agent server accepts (only while it runs and this app holds it). */
  sessionApiKey: string | null;
  /** Its agent server's base URL (only while it runs). */
  agentServerUrl: string | null;
  /** Where browsers are told to reach its agent server when not `agentServerUrl` (the app's proxy; see browser-urls.ts). */
  browserUrl?: string;
  createdAt: string;
}

export interface SandboxPageRequest {
  limit: number;
  pageId?: string;
}

/**
 * Sandboxes, each an agent server with its own workspace and session key, owned by one user. Every method takes
 * the owner: another user's sandbox is as unknown as one that does not exist (undefined, false).
 * The one implementation, RuntimeSandboxes, runs them in a runtime (`@bosun/runtime`: embedded or a service).
 */
export interface Sandboxes {
  /** Starts a sandbox from `spec` and answers it RUNNING (or ERROR with why), under `id` when given. */
  start(spec: SandboxSpec, ownerId: string, options?: { id?: string }): Promise<Sandbox>;
  /** Stops its process and revokes its key; its workspace is kept. */
  pause(ownerId: string, id: string): Promise<Sandbox | undefined>;
  /** Starts a paused (or failed) sandbox again over its workspace, with a new session key. */
  resume(ownerId: string, id: string): Promise<Sandbox | undefined>;
  /** Stops its process and removes its directories. */
  delete(ownerId: string, id: string): Promise<boolean>;
  get(ownerId: string, id: string): Promise<Sandbox | undefined>;
  /** In the order of `ids`, undefined for each unknown (or another user's). */
  getMany(ownerId: string, ids: readonly string[]): Promise<(Sandbox | undefined)[]>;
  /** The owner's sandboxes, newest first. */
  search(ownerId: string, page: SandboxPageRequest): Promise<{ items: Sandbox[]; next_page_id: string | null }>;
  /** The sandbox whose current session key is `key` (a sandbox calling the app), if it runs. */
  bySessionKey(key: string): Promise<Sandbox | undefined>;
  /** Keeps `count` new sandboxes started ahead where the runtime can (false where it cannot). */
  warmUp(count: number): Promise<boolean>;
  /** Stops every sandbox this app started (they are PAUSED, their workspaces kept). */
  close(): Promise<void>;
}
