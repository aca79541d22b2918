import { constants, accessSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The programs the local backend runs, where this host has them. */
export interface HostTools {
  bwrap: string | undefined;
  /** Bridges a sandbox's own network to the runtime (its agent server, its allow-listed hosts). */
  socat: string | undefined;
  /** Switches to the sandbox's user before bwrap, when the runtime runs as root (util-linux). */
  setpriv: string | undefined;
  /** Sets the resource limits no cgroup enforces (util-linux). */
  prlimit: string | undefined;
  /** Enters a sandbox's network namespace to let its user listen below port 1024 there (util-linux). */
  nsenter: string | undefined;
}

export function findHostTools(bwrapPath?: string): HostTools {
  return {
    bwrap: bwrapPath === undefined ? which('bwrap') : executable(bwrapPath) ? bwrapPath : undefined,
    socat: which('socat'),
    setpriv: which('setpriv'),
    prlimit: which('prlimit'),
    nsenter: which('nsenter'),
  };
}

/** The program's path on the system's PATH (the standard directories first, not the caller's PATH alone). */
function which(name: string): string | undefined {
  const dirs = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', ...(process.env.PATH ?? '').split(delimiter)];
  return dirs
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find(executable);
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
