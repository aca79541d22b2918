import {
  type Runtime,
  type RuntimeHealth,
  type RuntimeSandbox,
  RuntimeUnavailableError,
  type SandboxStartSpec,
} from '@bosun/runtime';

/**
 * The runtime of an app whose sandboxes cannot run as configured (bubblewrap missing on this host): the app
 * serves everything else, each start is an ERROR saying why, `/ready` says the sandboxes are not answering.
 */
export class UnavailableRuntime implements Runtime {
  constructor(private readonly why: string) {}

  start(_spec: SandboxStartSpec): Promise<RuntimeSandbox> {
    return this.refuse();
  }

  stop(_id: string): Promise<void> {
    return this.refuse();
  }

  pause(_id: string): Promise<RuntimeSandbox> {
    return this.refuse();
  }

  resume(_id: string): Promise<RuntimeSandbox> {
    return this.refuse();
  }

  get(_id: string): Promise<RuntimeSandbox | undefined> {
    return this.refuse();
  }

  getBySession(_sessionId: string): Promise<RuntimeSandbox | undefined> {
    return this.refuse();
  }

  getManyBySession(_sessionIds: readonly string[]): Promise<(RuntimeSandbox | undefined)[]> {
    return this.refuse();
  }

  /** Nothing runs. */
  async list(): Promise<RuntimeSandbox[]> {
    return [];
  }

  health(): Promise<RuntimeHealth> {
    return this.refuse();
  }

  async close(): Promise<void> {}

  private async refuse(): Promise<never> {
    throw new RuntimeUnavailableError(this.why);
  }
}
