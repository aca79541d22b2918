import { join, resolve } from 'node:path';

/** Where a sandbox's agent server keeps its data and where its home is, inside the sandbox. */
export const SANDBOX_DATA_DIR = '/var/lib/bosun';
export const SANDBOX_HOME = '/home/sandbox';
/** The sandbox's own run directory (a tmpfs): its agent server's Unix socket, and the egress sockets below it. */
export const SANDBOX_RUN_DIR = '/run/bosun';
export const AGENT_SOCKET = `${SANDBOX_RUN_DIR}/agent.sock`;
export const EGRESS_DIR = `${SANDBOX_RUN_DIR}/egress`;
/** The file the runtime puts in the egress directory once the sandbox may start listening for its hosts. */
export const EGRESS_READY = '.ready';
/** The agent server's port inside a sandbox with a network of its own (nothing else can listen there first). */
export const AGENT_PORT = 8000;

/** Where each of a sandbox's directories (and its log) is, under its own directory. */
const PARTS = {
  workspace: 'workspace',
  data: 'data',
  home: 'home',
  etc: 'etc',
  egress: 'egress',
  log: 'agent-server.log',
} as const;

/**
 * A sandbox's directories on the host, under the runtime's root: `workspace/`, `data/` (its agent server's) and
 * `home/` are the only ones it may write; `etc/` (its generated passwd, group and hosts) and `egress/` (the sockets
 * the runtime forwards) it sees read-only; its log is the runtime's alone.
 */
export type SandboxLayout = { readonly dir: string } & { readonly [part in keyof typeof PARTS]: string };

export function sandboxLayout(root: string, id: string): SandboxLayout {
  const dir = resolve(root, id);
  const parts = Object.entries(PARTS).map(([part, name]) => [part, join(dir, name)]);
  return { dir, ...Object.fromEntries(parts) } as SandboxLayout;
}
