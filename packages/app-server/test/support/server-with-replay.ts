import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentServerClient, type AppServerClient, type StartConversationInput } from '@bosun/client';
import { type LlmReplay, type LlmReplayOptions, startLlmReplay } from '@bosun/llm-replay';
import type { SandboxInfo } from '@bosun/protocol';
import { afterAll, beforeAll, expect } from 'vitest';
import { SANDBOX_COMMAND } from '../../../../test/support/sandbox-bundle.ts';
import { type RunningAppServer, appServerConfig, startAppServer } from '../../src/index.ts';
import { sandboxWorkspace } from '../sandboxes/processes.ts';
import { conversationRow, newUser } from './server-users.ts';

type StartRequest = StartConversationInput;

export interface ServerWithReplay {
  running: RunningAppServer;
  replay: LlmReplay;
  dataDir: string;
  /**
   * A new user's sandbox (started) and conversation `id` on its agent server, its agent asking llm-replay, with
   * the row the app knows it by; `initialMessage` given, the conversation starts with it.
   */
  conversation(initialMessage?: StartRequest['initial_message']): Promise<SandboxConversation>;
}

export interface SandboxConversation {
  id: string;
  user: { id: string; key: string; app: AppServerClient };
  sandbox: SandboxInfo;
  agent: AgentServerClient;
  services: NonNullable<RunningAppServer['server']['context']['services']>;
}

/**
 * For the file's tests (started before them, closed after): the whole server as `bosun serve` runs it (SQLite,
 * in-process cache) with a fast event sweep, and llm-replay playing `script`. Its sandboxes are not isolated (the
 * wiring, not the isolation: test/sandboxes/): their agent reaches llm-replay wherever it listens. The fields are
 * there once the tests run.
 */
export function serverWithReplay(prefix: string, script: LlmReplayOptions['script']): ServerWithReplay {
  const setup = {
    async conversation(initialMessage) {
      const services = setup.running.server.context.services;
      if (!services) throw new Error('the server has no services');
      const user = await newUser(setup.running);
      const sandbox = await user.app.post('/api/v1/sandboxes', { body: {} });
      expect(sandbox.status).toBe('RUNNING');
      const id = randomUUID();
      await conversationRow(services.repositories, { id, userId: user.id, sandboxId: sandbox.id });
      const url = sandbox.exposed_urls?.[0]?.url as string;
      const agent = new AgentServerClient({ baseUrl: url, sessionApiKey: sandbox.session_api_key as string });
      const workingDir = await sandboxWorkspace(services.sandboxRuntime.runtime, setup.dataDir, sandbox.id);
      await agent.post('/api/conversations', {
        body: {
          conversation_id: id,
          agent: { llm: { model: 'openai/replay', base_url: setup.replay.baseUrl, api_key: 'sk-replay' }, tools: [] },
          workspace: { working_dir: workingDir },
          ...(initialMessage ? { initial_message: initialMessage } : {}),
        },
      });
      return { id, user, sandbox, agent, services };
    },
  } as ServerWithReplay;
  let root: string | undefined;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), prefix));
    // Sandboxes run as another user, who must reach the runtime's root inside it.
    await chmod(root, 0o711);
    setup.dataDir = join(root, 'data');
    setup.replay = await startLlmReplay({ script });
    setup.running = await startAppServer(
      appServerConfig({
        port: 0,
        log_level: 'silent',
        data_dir: setup.dataDir,
        event_sweep_interval: 0.2,
        sandbox_isolation: 'unsafe-none',
        sandbox_command: SANDBOX_COMMAND,
      }),
    );
  });
  afterAll(async () => {
    await setup.running?.close();
    await setup.replay?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });
  return setup;
}
