import { RuntimeUnavailableError, SandboxConflictError, SandboxNotFoundError, SandboxSpecError } from '../errors.ts';
import type { RuntimeInfoWire } from '../http/schemas.ts';
import { resumeBody, sandboxOf, startBody } from '../http/wire.ts';
import type { ResumeRefresh, Runtime, RuntimeHealth, RuntimeSandbox, SandboxStartSpec } from '../runtime.ts';

export interface RemoteRuntimeOptions {
  /** The runtime API's base URL (Bosun's `buildRuntimeApi`, or OpenHands' runtime API). */
  baseUrl: string;
  apiKey: string;
  /** Per call; a start waits for the sandbox to run (default 120 s). */
  timeoutMs?: number;
}

const BATCH = 100;

/** A runtime reached over HTTP (`/start`, `/stop`, `/pause`, `/resume`, `/sessions/...`, `/list`, `/health`). */
export class RemoteRuntime implements Runtime {
  private readonly base: string;

  constructor(private readonly options: RemoteRuntimeOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  async start(spec: SandboxStartSpec): Promise<RuntimeSandbox> {
    return sandboxOf(await this.call<RuntimeInfoWire>('POST', '/start', startBody(spec)));
  }

  async stop(id: string): Promise<void> {
    await this.call('POST', '/stop', { runtime_id: id }, id);
  }

  async pause(id: string): Promise<RuntimeSandbox> {
    return sandboxOf(await this.call<RuntimeInfoWire>('POST', '/pause', { runtime_id: id }, id));
  }

  /** A refresh goes as Bosun's `environment` and `network` beside `runtime_id` (OpenHands' API takes neither). */
  async resume(id: string, refresh?: ResumeRefresh): Promise<RuntimeSandbox> {
    return sandboxOf(await this.call<RuntimeInfoWire>('POST', '/resume', resumeBody(id, refresh), id));
  }

  get(id: string): Promise<RuntimeSandbox | undefined> {
    return this.found(`/runtime/${encodeURIComponent(id)}`);
  }

  getBySession(sessionId: string): Promise<RuntimeSandbox | undefined> {
    return this.found(`/sessions/${encodeURIComponent(sessionId)}`);
  }

  async getManyBySession(sessionIds: readonly string[]): Promise<(RuntimeSandbox | undefined)[]> {
    const found: (RuntimeSandbox | undefined)[] = [];
    for (let i = 0; i < sessionIds.length; i += BATCH) {
      const query = sessionIds
        .slice(i, i + BATCH)
        .map((id) => `ids=${encodeURIComponent(id)}`)
        .join('&');
      const page = await this.call<(RuntimeInfoWire | null)[]>('GET', `/sessions/batch?${query}`);
      found.push(...page.map((info) => (info ? sandboxOf(info) : undefined)));
    }
    return found;
  }

  async list(): Promise<RuntimeSandbox[]> {
    return (await this.call<{ runtimes: RuntimeInfoWire[] }>('GET', '/list')).runtimes.map(sandboxOf);
  }

  async health(): Promise<RuntimeHealth> {
    const health = await this.call<{
      backend?: string;
      isolated?: boolean;
      enforced?: string[];
      not_enforced?: string[];
      running?: number;
      warm?: Record<string, number>;
    }>('GET', '/health');
    return {
      backend: health.backend ?? 'remote',
      isolated: health.isolated ?? false,
      enforced: health.enforced ?? [],
      notEnforced: health.not_enforced ?? ['unknown: the runtime API does not say what it enforces'],
      running: health.running ?? 0,
      ...(health.warm ? { warm: health.warm } : {}),
    };
  }

  /** The sandboxes are the service's: they outlive this client. */
  async close(): Promise<void> {}

  private async found(path: string): Promise<RuntimeSandbox | undefined> {
    try {
      return sandboxOf(await this.call<RuntimeInfoWire>('GET', path, undefined, ''));
    } catch (error) {
      if (error instanceof SandboxNotFoundError) return undefined;
      throw error;
    }
  }

  /** One call; its errors as the runtime's (`id`: the sandbox a 404 or 409 is about). */
  private async call<T>(method: string, path: string, body?: unknown, id?: string): Promise<T> {
    const { response, text } = await this.exchange(method, path, body);
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (response.ok) return parsed as T;
    const detail = (parsed as { detail?: unknown } | undefined)?.detail;
    if (response.status >= 500) {
      throw new RuntimeUnavailableError(
        `the runtime API failed ${method} ${path} (${response.status}): ${JSON.stringify(detail ?? text)}`,
      );
    }
    if (response.status === 404 && id !== undefined) throw new SandboxNotFoundError(id);
    if (response.status === 409 && id) {
      throw new SandboxConflictError(String(detail), (await this.get(id))?.status ?? 'MISSING');
    }
    if (response.status === 422 && Array.isArray(detail)) {
      const items = detail as { loc?: (string | number)[]; msg?: string }[];
      throw new SandboxSpecError(items.map((item) => `${(item.loc ?? []).slice(1).join('.')}: ${item.msg}`).join('; '));
    }
    throw new Error(`the runtime API answered ${method} ${path} with ${response.status}: ${JSON.stringify(detail)}`);
  }

  /** The answer to one request; not reaching the service (refused, reset, timed out) is `RuntimeUnavailableError`. */
  private async exchange(method: string, path: string, body: unknown): Promise<{ response: Response; text: string }> {
    try {
      const response = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          'X-API-Key': this.options.apiKey,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 120_000),
      });
      return { response, text: await response.text() };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new RuntimeUnavailableError(
        `the runtime API at ${this.base} cannot be reached (${method} ${path}): ${why}`,
      );
    }
  }
}
