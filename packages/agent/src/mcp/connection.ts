import type { McpServerSettings } from '@bosun/sources';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { type McpSdk, mcpSdk } from './sdk.ts';
import { type OpenedTransport, openTransport } from './transport.ts';

export type { McpToolInfo };

const CLIENT_INFO = { name: 'bosun', version: '0.1.0' };
/** Pages of `tools/list` read at most (a server that pages forever is cut off). */
const MAX_TOOL_PAGES = 50;

export class McpTimeoutError extends Error {
  override name = 'McpTimeoutError';
}

/** Rejects with `McpTimeoutError` when `promise` takes longer than `ms`; `onTimeout` runs first. */
function withDeadline<T>(promise: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new McpTimeoutError(`${what} timed out after ${ms / 1000} s`));
    }, ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * The client side of one MCP server: starts it (a child process, or an HTTP session), lists its tools, calls
 * them. Every step is bounded by the server's timeout. When the server goes away (it crashed, the HTTP session
 * ended), the next call starts it again once before giving up.
 */
export class McpConnection {
  private client: Client | undefined;
  private opened: OpenedTransport | undefined;
  private connecting: Promise<Client> | undefined;
  private closed = false;

  constructor(readonly settings: McpServerSettings) {}

  get name(): string {
    return this.settings.name;
  }

  /** Starts the server and lists its tools. Throws (with the server's stderr when it has some) on failure. */
  async start(): Promise<McpToolInfo[]> {
    const client = await this.connect();
    const { startupTimeoutMs } = this.settings;
    return withDeadline(
      this.listTools(client, startupTimeoutMs),
      startupTimeoutMs,
      `listing the tools of '${this.name}'`,
    );
  }

  /**
   * Calls a tool within the server's `timeout`; a server that went away is started again first (within its
   * startup timeout). Throws on timeouts and lost connections.
   */
  async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    const client = await this.connect();
    // The SDK never removes the listener it adds to a request's signal, and a run's signal serves every call of
    // the run: each call gets its own signal, linked for the time of the call.
    const own = new AbortController();
    const forward = () => own.abort(signal?.reason);
    if (signal?.aborted) forward();
    signal?.addEventListener('abort', forward, { once: true });
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: this.settings.timeoutMs,
        signal: own.signal,
      });
      return result as CallToolResult;
    } catch (error) {
      throw this.explain(error, await mcpSdk());
    } finally {
      signal?.removeEventListener('abort', forward);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private connect(): Promise<Client> {
    if (this.closed) return Promise.reject(new Error(`MCP server '${this.name}' is closed`));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<Client> {
    const sdk = await mcpSdk();
    const opened = openTransport(sdk, this.settings);
    const client = new sdk.Client(CLIENT_INFO, { capabilities: {} });
    this.opened = opened;
    // A server that exits or ends its session is started again by the next call.
    client.onclose = () => {
      if (this.client === client) this.client = undefined;
    };
    const what = `starting MCP server '${this.name}'`;
    // A server that did not start is ended at once, and its failure told once it is gone: the transport's own close
    // gives a process seconds to stop, which an agent server that stops meanwhile would leave running.
    let ending: Promise<void> | undefined;
    const end = () => {
      opened.kill();
      ending ??= client.close().catch(() => undefined);
      return ending;
    };
    try {
      await withDeadline(
        client.connect(opened.transport, { timeout: this.settings.startupTimeoutMs }),
        this.settings.startupTimeoutMs,
        what,
        () => void end(),
      );
    } catch (error) {
      await end();
      throw this.explain(error, sdk);
    }
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new Error(`MCP server '${this.name}' is closed`);
    }
    this.client = client;
    return client;
  }

  private async listTools(client: Client, timeout: number): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await client.listTools(cursor ? { cursor } : {}, { timeout });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  /** The error with what the server printed to stderr, when that says more than "connection closed". */
  private explain(error: unknown, sdk: McpSdk): Error {
    let message = error instanceof Error ? error.message : String(error);
    // HTTP transports' errors carry the status in `code`, not in the message.
    const { code } = error as { code?: unknown };
    const httpError = error instanceof sdk.StreamableHTTPError || error instanceof sdk.SseError;
    if (httpError && typeof code === 'number' && code >= 100) message = `HTTP ${code}: ${message}`;
    const explained = new Error(this.stderrNote(message));
    explained.name = error instanceof Error ? error.name : 'Error';
    return explained;
  }

  private stderrNote(message: string): string {
    const stderr = this.opened?.stderrTail();
    return stderr && !message.includes(stderr) ? `${message}; stderr: ${stderr}` : message;
  }
}
