import type { SandboxStatus } from '@bosun/protocol';

/** A sandbox that does not exist (or no longer does). */
export class SandboxNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`no sandbox ${id}`);
    this.name = 'SandboxNotFoundError';
  }
}

/** An operation the sandbox's status does not allow (e.g. resuming one that runs). */
export class SandboxConflictError extends Error {
  constructor(
    message: string,
    readonly status: SandboxStatus,
  ) {
    super(message);
    this.name = 'SandboxConflictError';
  }
}

/** A start request the backend refuses (bad spec, or a session id already live). */
export class SandboxSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxSpecError';
  }
}

/** The runtime could not be asked (a runtime service down, out of reach or failing): nothing was changed. */
export class RuntimeUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeUnavailableError';
  }
}
