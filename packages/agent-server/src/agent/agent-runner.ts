import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AgentRuntime,
  type CriticFailure,
  type HookLogRecord,
  TOOL_NAMES,
  condenserProblems,
  createProvider,
  createToolset,
  hookConfigProblems,
} from '@bosun/agent';
import type { Conversation } from '../conversations/conversation.ts';
import type { AgentRunner } from '../conversations/runner.ts';
import type { Store } from '../store/store.ts';
import { LogSession } from './log-session.ts';

const RUNTIME = 'agent';

/** The directory private to a conversation: its tools' state (full outputs, task list, browser recordings). */
export function conversationStateDir(dataDir: string, conversationId: string): string {
  return join(dataDir, 'conversations', conversationId);
}

/** Secret values by name, whichever form they were given in. */
export function secretValues(conversation: Conversation): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, secret] of Object.entries(conversation.record.request.secrets)) {
    values[name] = typeof secret === 'string' ? secret : secret.value;
  }
  return values;
}

/**
 * Runs conversations with Bosun's agent. Each loaded conversation keeps one agent runtime (its LLM client and
 * its tools, the shell included) between runs; it is closed when the conversation is evicted or deleted.
 */
export function createAgentRunner(options: {
  store: Store;
  dataDir: string;
  /** Told why a critique of a conversation gave no `critic_result` (for the server's log). */
  onCriticFailure?: (conversationId: string, failure: CriticFailure) => void;
  /** Told about every hook run of a conversation (for the server's log). */
  onHookRun?: (conversationId: string, record: HookLogRecord) => void;
}): AgentRunner {
  async function runtimeOf(conversation: Conversation): Promise<AgentRuntime> {
    const existing = conversation.resources.get(RUNTIME);
    if (existing) return existing as AgentRuntime;
    const { request } = conversation.record;
    const workspace = request.workspace.working_dir;
    const stateDir = conversationStateDir(options.dataDir, conversation.id);
    await Promise.all([mkdir(workspace, { recursive: true }), mkdir(stateDir, { recursive: true })]);
    // Read at every use: secrets added later (POST .../secrets) reach the running shell and are masked too.
    const secrets = () => secretValues(conversation);
    const runtime = new AgentRuntime(request.agent, {
      provider: createProvider(request.agent.llm),
      tools: createToolset(request.agent.tools, { env: secrets }),
      workspace,
      stateDir,
      secrets,
      onCriticFailure: (failure) => options.onCriticFailure?.(conversation.id, failure),
      hooks: request.hook_config ?? null,
      onHookRun: (record) => options.onHookRun?.(conversation.id, record),
    });
    conversation.resources.set(RUNTIME, runtime);
    return runtime;
  }

  return {
    validate(request) {
      const tools = request.agent.tools.flatMap((tool, index) =>
        TOOL_NAMES.includes(tool.name)
          ? []
          : [
              {
                loc: ['body', 'agent', 'tools', index, 'name'],
                msg: `Unknown tool '${tool.name}'; available tools: ${TOOL_NAMES.join(', ')}`,
                type: 'value_error',
              },
            ],
      );
      return [
        ...tools,
        ...condenserProblems(request.agent, ['body', 'agent']),
        ...hookConfigProblems(request.hook_config, ['body', 'hook_config']),
      ];
    },
    async prepare(conversation) {
      const runtime = await runtimeOf(conversation);
      await runtime.ensureSystemPrompt(new LogSession(conversation, options.store));
    },
    async run(conversation) {
      const runtime = await runtimeOf(conversation);
      await runtime.run(new LogSession(conversation, options.store));
    },
    async reviewUserMessage(conversation, content) {
      // Without hooks there is nothing to ask (and no need to load the agent).
      if (!conversation.record.request.hook_config) return { blocked: null, extended_content: [] };
      const runtime = await runtimeOf(conversation);
      const review = await runtime.hooks.reviewPrompt(conversation.id, content);
      return { blocked: review.blocked, extended_content: review.extendedContent };
    },
    async condense(conversation) {
      const runtime = await runtimeOf(conversation);
      return runtime.condense(new LogSession(conversation, options.store));
    },
  };
}
