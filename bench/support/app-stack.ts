import type { Agent } from 'node:http';
import {
  type AppServerConfig,
  type RunningAppServer,
  appServerConfig,
  createOwnerApiKey,
  startAppServer,
} from '@bosun/app-server';
import { startLlmReplay } from '@bosun/llm-replay';
import { httpRequest, keepAliveAgent } from './http.ts';
import { CLI, buildBundle, tempDataDir } from './server-process.ts';

/**
 * An app server in this process on SQLite, its sandboxes the bundle's agent server in its embedded runtime (under
 * bubblewrap unless SANDBOX_ISOLATION=unsafe-none), its model llm-replay.
 */
export interface AppStack {
  running: RunningAppServer;
  /** The owner's API key as an Authorization header. */
  headers: Record<string, string>;
  close(): Promise<void>;
}

export async function startAppStack(
  name: string,
  options: { warmPoolSize?: number; config?: Partial<AppServerConfig> } = {},
): Promise<AppStack> {
  await buildBundle();
  const llm = await startLlmReplay({ script: { turns: [{ content: 'ready' }], repeat_last: true } });
  const data = await tempDataDir(name);
  const running = await startAppServer(
    appServerConfig({
      port: 0,
      log_level: 'silent',
      data_dir: data.dir,
      llm_model: 'openai/bench',
      llm_base_url: llm.baseUrl,
      llm_api_key: 'sk-bench',
      sandbox_command: [process.execPath, CLI],
      // SANDBOX_ISOLATION=unsafe-none: plain processes, to see what bubblewrap costs.
      sandbox_isolation: process.env.SANDBOX_ISOLATION === 'unsafe-none' ? 'unsafe-none' : 'bubblewrap',
      sandbox_warm_pool_size: options.warmPoolSize ?? 0,
      ...options.config,
    }),
  );
  const key = await createOwnerApiKey({ dataDir: data.dir });
  return {
    running,
    headers: { authorization: `Bearer ${key}` },
    async close() {
      await running.close();
      await llm.close();
      await data.remove();
    },
  };
}

export interface ReadyTask {
  status: string;
  detail: string | null;
  app_conversation_id: string;
}

/** `POST /api/v1/app-conversations` with `text`, then its start task polled every `pollMs` until READY. */
export async function startThroughApp(stack: AppStack, agent: Agent, text: string, pollMs: number): Promise<ReadyTask> {
  const { url } = stack.running;
  const body = { initial_message: { role: 'user', content: [{ type: 'text', text }] } };
  const answer = await httpRequest(agent, `${url}/api/v1/app-conversations`, 'POST', body, stack.headers);
  if (answer.status !== 200) throw new Error(`POST app-conversations: HTTP ${answer.status} ${answer.body}`);
  const taskId = JSON.parse(answer.body).id as string;
  for (;;) {
    const path = `${url}/api/v1/app-conversations/start-tasks?ids=${taskId}`;
    const task = JSON.parse((await httpRequest(agent, path, 'GET', undefined, stack.headers)).body)[0] as ReadyTask;
    if (task.status === 'ERROR') throw new Error(`start task ERROR: ${task.detail}`);
    if (task.status === 'READY') return task;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** What the app tells a client about its conversation: where its agent server serves it, and with which key. */
export interface StartedConversation {
  id: string;
  conversation_url: string;
  session_api_key: string;
  sandbox_id: string;
}

/** An app stack with one conversation started through it and keep-alive agents (one socket each) to both servers. */
export interface ConversationStack {
  stack: AppStack;
  conversation: StartedConversation;
  toApp: Agent;
  toAgent: Agent;
  /** Destroys the agents and closes the stack. */
  close(): Promise<void>;
}

export async function startConversationStack(name: string): Promise<ConversationStack> {
  const stack = await startAppStack(name);
  const toApp = keepAliveAgent(1);
  const toAgent = keepAliveAgent(1);
  const close = async () => {
    toApp.destroy();
    toAgent.destroy();
    await stack.close();
  };
  try {
    const id = (await startThroughApp(stack, toApp, 'hello', 20)).app_conversation_id;
    const path = `${stack.running.url}/api/v1/app-conversations?ids=${id}`;
    const listed = await httpRequest(toApp, path, 'GET', undefined, stack.headers);
    const conversation = { id, ...(JSON.parse(listed.body)[0] as Omit<StartedConversation, 'id'>) };
    return { stack, conversation, toApp, toAgent, close };
  } catch (error) {
    await close();
    throw error;
  }
}
