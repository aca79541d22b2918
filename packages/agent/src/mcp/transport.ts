import type { Readable } from 'node:stream';
import type { McpServerSettings } from '@bosun/sources';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpSdk } from './sdk.ts';

/** How much of a stdio server's standard error is kept for error messages (its end, where the crash is). */
const STDERR_TAIL_CHARS = 2000;

export interface OpenedTransport {
  transport: Transport;
  /** The end of the server's standard error so far (stdio only; empty otherwise). */
  stderrTail(): string;
  /** Ends the server's process at once, if it has one (stdio); the transport's close still follows. */
  kill(): void;
}

/**
 * The SDK transport for a server: a child process spoken to over stdin/stdout (its environment: the SDK's
 * minimal inherited one plus the server's `env`, never the agent server's credentials), or HTTP.
 */
export function openTransport(sdk: McpSdk, settings: McpServerSettings): OpenedTransport {
  if (settings.transport === 'stdio') {
    const transport = new sdk.StdioClientTransport({
      command: settings.command as string,
      args: settings.args,
      env: settings.env,
      ...(settings.cwd ? { cwd: settings.cwd } : {}),
      stderr: 'pipe',
    });
    let tail = '';
    (transport.stderr as Readable | null)?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    const kill = () => {
      const { pid } = transport;
      if (pid === null) return;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    return { transport, stderrTail: () => tail.trim(), kill };
  }
  const url = new URL(settings.url as string);
  const requestInit = { headers: settings.headers };
  const transport =
    settings.transport === 'sse'
      ? new sdk.SSEClientTransport(url, { requestInit })
      : new sdk.StreamableHTTPClientTransport(url, { requestInit });
  return { transport, stderrTail: () => '', kill: () => undefined };
}
