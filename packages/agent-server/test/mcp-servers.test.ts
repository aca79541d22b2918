import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tool } from '@bosun/agent';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ConversationMcp, MCP_SERVER_ERROR } from '../src/agent/mcp-servers.ts';

const STDIO_SERVER = fileURLToPath(new URL('../../../test/fixtures/mcp/stdio-server.mjs', import.meta.url));

async function workspace(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'bosun-mcp-runner-')));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe("a conversation's MCP servers", () => {
  it('reports a failure once, tries the server again at a later run and gives the agent its tools', async () => {
    const dir = await workspace();
    const mcp = await ConversationMcp.start(
      { late: { command: process.execPath, args: [STDIO_SERVER], cwd: 'later', enabled: true } },
      { workspace: dir, reservedNames: ['terminal'], secrets: {}, filterRegex: null, retryAfterMs: 0 },
    );
    onTestFinished(() => mcp.close());
    expect(mcp.tools).toEqual([]);
    expect(mcp.contextNotes()).toEqual([expect.stringMatching(/^The MCP server 'late' failed to start/)]);
    expect(mcp.unreportedProblems()).toEqual([
      expect.objectContaining({ kind: 'ConversationErrorEvent', code: MCP_SERVER_ERROR }),
    ]);
    const runtime = { added: [] as Tool[], addTools: (tools: readonly Tool[]) => runtime.added.push(...tools) };
    await mcp.retry(runtime);
    expect(runtime.added).toEqual([]);
    expect(mcp.unreportedProblems()).toEqual([]);

    await mkdir(join(dir, 'later'));
    await mcp.retry(runtime);
    expect(runtime.added.map((tool) => tool.name)).toContain('echo');
    expect(mcp.tools).toHaveLength(runtime.added.length);
    expect(mcp.unreportedProblems()).toEqual([]);
    expect(mcp.contextNotes()).toEqual([]);
  });

  it('applies filter_tools_regex to MCP tools (matched from the start of the name)', async () => {
    const mcp = await ConversationMcp.start(
      { calc: { command: process.execPath, args: [STDIO_SERVER], enabled: true } },
      { workspace: await workspace(), reservedNames: [], secrets: {}, filterRegex: 'add|echo' },
    );
    onTestFinished(() => mcp.close());
    expect(mcp.tools.map((tool) => tool.name)).toEqual(['echo', 'add']);
  });
});
