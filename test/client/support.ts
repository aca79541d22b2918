import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentServer, type AgentServerOptions, buildAgentServer } from '@bosun/agent-server';
import { AgentServerClient } from '@bosun/client';
import { onTestFinished } from 'vitest';

export interface ClientStack {
  /** `http://127.0.0.1:PORT` */
  url: string;
  client: AgentServerClient;
  server: AgentServer;
  /** A fresh directory for the agent's workspace. */
  workspace: string;
  /** Stops the server and starts it again on the same port and data directory (a process restart). */
  restart(): Promise<void>;
  /** Drops every open WebSocket connection, as a failing network or proxy would. */
  dropSockets(): number;
}

/** An agent server on a free loopback port with its own directories (removed when the test ends). */
export async function startAgentServer(
  options: Omit<AgentServerOptions, 'dataDir'> = {},
  sessionApiKey?: string,
): Promise<ClientStack> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'bosun-client-')));
  const dataDir = join(root, 'data');
  const start = async (port: number) => {
    const server = await buildAgentServer({ ...options, dataDir });
    const url = await server.app.listen({ host: '127.0.0.1', port });
    return { server, url };
  };
  let { server, url } = await start(0);
  const stack: ClientStack = {
    url,
    client: new AgentServerClient({ baseUrl: url, ...(sessionApiKey ? { sessionApiKey } : {}) }),
    server,
    workspace: join(root, 'workspace'),
    async restart() {
      await server.close();
      ({ server, url } = await start(Number(new URL(url).port)));
      stack.server = server;
    },
    dropSockets() {
      const clients = [...server.app.websocketServer.clients];
      for (const socket of clients) socket.terminate();
      return clients.length;
    },
  };
  onTestFinished(async () => {
    await stack.server.close();
    await rm(root, { recursive: true, force: true });
  });
  return stack;
}

/** A user message as the API takes it. */
export function userMessage(text: string, run = false) {
  return { content: [{ type: 'text' as const, text }], ...(run ? { run } : {}) };
}
