import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentServerOptions, buildAgentServer } from '@bosun/agent-server';
import { type LlmReplay, type RecordedRequest, type Script, startLlmReplay } from '@bosun/llm-replay';
import { expect, onTestFinished } from 'vitest';
import { E2EServer } from './server.ts';

export * from './events.ts';
export * from './server.ts';

/** Options of the agent server a test starts (its data directory is the test's). */
export type ServerOptions = Omit<AgentServerOptions, 'dataDir'>;

/**
 * Starts an agent server and a scripted LLM for the current test; both (and the temporary directories) are
 * removed when the test ends, pass or fail.
 */
export async function startStack(
  script: Script | ((server: E2EServer) => Script),
  options: ServerOptions = {},
): Promise<{ server: E2EServer; llm: LlmReplay }> {
  const server = await startServer(options);
  const llm = await startLlmReplay({ script: typeof script === 'function' ? script(server) : script });
  onTestFinished(() => llm.close());
  return { server, llm };
}

/** A stack whose agent server logs at `level` into `logs` (to assert what the log holds, and never holds). */
export async function startLoggedStack(
  script: Script,
  level: 'info' | 'trace',
): Promise<{ server: E2EServer; llm: LlmReplay; logs: string[] }> {
  const logs: string[] = [];
  const stack = await startStack(script, { logLevel: level, logStream: { write: (line: string) => logs.push(line) } });
  return { ...stack, logs };
}

export async function startServer(options: ServerOptions = {}): Promise<E2EServer> {
  const stack = await restartableServer(options);
  await stack.start();
  return stack.server;
}

/**
 * One data directory served by an agent server that can be stopped and started again (a process restart),
 * closed and removed after the test. `options` may depend on the test's temporary `root` (for example the
 * provider URL of bare repositories kept under it).
 */
export async function restartableServer(options: ServerOptions | ((root: string) => ServerOptions) = {}) {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'bosun-e2e-')));
  const settings = typeof options === 'function' ? options(root) : options;
  const server = new E2EServer(join(root, 'data'), join(root, 'workspace'), join(root, 'outside'));
  const stop = async () => {
    // The server first (it stops the agents and their shells), then its files.
    await server.agentServer?.close();
    server.agentServer = undefined;
  };
  const start = async () => {
    // The routes that reach the machine (bash, files, Git) stay in the test's workspace: their default is the
    // process's working directory, the checkout itself (the HTTP fuzzer's commands once left files there).
    await mkdir(server.workspace, { recursive: true });
    server.agentServer = await buildAgentServer({
      workspaceRoot: server.workspace,
      ...settings,
      dataDir: server.dataDir,
    });
    server.url = await server.agentServer.app.listen({ host: '127.0.0.1', port: 0 });
  };
  onTestFinished(async () => {
    await stop();
    await rm(root, { recursive: true, force: true });
  });
  return {
    root,
    server,
    start,
    stop,
    async restart() {
      await stop();
      await start();
    },
  };
}

/** The API requests llm-replay received (control requests excluded), as recorded by its `GET /__requests`. */
export async function recordedRequests(llm: LlmReplay): Promise<RecordedRequest[]> {
  const response = await fetch(`${llm.url}/__requests`);
  expect(response.status).toBe(200);
  return (await response.json()) as RecordedRequest[];
}
