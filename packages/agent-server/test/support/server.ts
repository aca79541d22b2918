import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentServer, type AgentServerOptions, buildAgentServer, idleRunner } from '../../src/index.ts';

export interface TestServer {
  server: AgentServer;
  /** `http://127.0.0.1:PORT` */
  url: string;
  dataDir: string;
  /** Closes the server and removes its data directory. */
  close(): Promise<void>;
}

/**
 * Starts an agent server on a free loopback port with a fresh data directory. Runs do nothing (`idleRunner`)
 * unless a runner is given: these tests are about the server, not the agent.
 */
export async function startTestServer(options: Partial<AgentServerOptions> = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'bosun-agent-server-')));
  const server = await buildAgentServer({ runner: idleRunner, ...options, dataDir });
  const url = await server.app.listen({ host: '127.0.0.1', port: 0 });
  return {
    server,
    url,
    dataDir,
    async close() {
      await server.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A minimal valid body for `POST /api/conversations`. */
export function startRequest(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    agent: { llm: { model: 'test-model', api_key: 'sk-test-secret' }, tools: [{ name: 'terminal' }] },
    workspace: { working_dir: '/tmp/bosun-test-workspace' },
    ...extra,
  };
}
