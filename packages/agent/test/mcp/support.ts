import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MCPServer } from '@bosun/protocol';
import { onTestFinished } from 'vitest';
import {
  type ConnectMcpOptions,
  type McpLogRecord,
  type McpServers,
  connectMcpServers,
} from '../../src/mcp/servers.ts';
import type { Tool, ToolContext } from '../../src/tools/tool.ts';

/** The test MCP servers shared with the end-to-end tests. */
export const FIXTURES = resolve(fileURLToPath(new URL('../../../../test/fixtures/mcp/', import.meta.url)));
export const STDIO_SERVER = join(FIXTURES, 'stdio-server.mjs');

/** A stdio server entry for the test server, with `extra` arguments and fields. */
export function stdioServer(args: string[] = [], extra: Partial<MCPServer> = {}): MCPServer {
  return { command: process.execPath, args: [STDIO_SERVER, ...args], enabled: true, ...extra };
}

/** A workspace in a temporary directory, removed after the test. */
export async function workspace(): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'bosun-mcp-')));
  onTestFinished(() => rm(root, { recursive: true, force: true }));
  return root;
}

/** Connects the servers; they are closed after the test. The log records are collected in `logs`. */
export async function connect(
  config: Record<string, MCPServer>,
  options: Partial<ConnectMcpOptions> = {},
): Promise<McpServers & { logs: McpLogRecord[]; workspace: string; tool(name: string): Tool }> {
  const logs: McpLogRecord[] = [];
  const dir = options.workspace ?? (await workspace());
  const servers = await connectMcpServers(config, { workspace: dir, log: (record) => logs.push(record), ...options });
  onTestFinished(() => servers.close());
  return Object.assign(servers, {
    logs,
    workspace: dir,
    tool(name: string): Tool {
      const found = servers.tools.find((tool) => tool.name === name);
      if (!found) throw new Error(`no tool ${name}; tools: ${servers.tools.map((t) => t.name)}`);
      return found;
    },
  });
}

export function toolContext(dir: string, options: { signal?: AbortSignal; mask?: (t: string) => string } = {}) {
  const context: ToolContext = {
    workspace: dir,
    stateDir: join(dir, '.state'),
    signal: options.signal ?? new AbortController().signal,
    mask: options.mask ?? ((text) => text),
  };
  return context;
}

/** The text of an observation's content. */
export function textOf(content: readonly { type: string; text?: string }[]): string {
  return content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}
