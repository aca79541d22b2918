import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AgentRuntime,
  type CriticFailure,
  GitCache,
  type GitProviders,
  type HookLogRecord,
  TOOL_NAMES,
  condenserProblems,
  createProvider,
  createToolset,
  hookConfigProblems,
  mergeHookConfigs,
} from '@bosun/agent';
import type { NewEvent, ResolvedPlugin } from '@bosun/protocol';
import type { Conversation } from '../conversations/conversation.ts';
import type { AgentRunner } from '../conversations/runner.ts';
import type { Store } from '../store/store.ts';
import { LogSession } from './log-session.ts';
import { loadConversationPlugins, pluginRequestProblems } from './plugins.ts';

const RUNTIME = 'agent';

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
  /** Base URLs of `github:`, `gitlab:`, `bitbucket:` plugin sources (tests point them at local repositories). */
  gitProviders?: GitProviders;
  /** Where fetched plugin commits are kept (default `<dataDir>/git-cache`). */
  gitCacheDir?: string;
  /** Told which plugins a conversation loaded, with their problems (for the server's log). */
  onPluginsLoaded?: (conversationId: string, plugins: ResolvedPlugin[]) => void;
}): AgentRunner {
  const providers = options.gitProviders ?? {};
  const gitCache = new GitCache({ dir: options.gitCacheDir ?? join(options.dataDir, 'git-cache'), providers });
  // Building a runtime fetches plugins: callers arriving meanwhile wait for the same one.
  const building = new WeakMap<Conversation, Promise<AgentRuntime>>();
  // Plugin failures wait to be appended until the system prompt is there (it opens every conversation).
  const pluginErrors = new WeakMap<Conversation, NewEvent>();
  async function reportPluginErrors(conversation: Conversation): Promise<void> {
    const event = pluginErrors.get(conversation);
    if (!event) return;
    pluginErrors.delete(conversation);
    await conversation.append([event]);
  }

  function runtimeOf(conversation: Conversation): Promise<AgentRuntime> {
    const existing = conversation.resources.get(RUNTIME);
    if (existing) return Promise.resolve(existing as AgentRuntime);
    let pending = building.get(conversation);
    if (!pending) {
      pending = buildRuntime(conversation).finally(() => building.delete(conversation));
      building.set(conversation, pending);
    }
    return pending;
  }

  async function buildRuntime(conversation: Conversation): Promise<AgentRuntime> {
    const { request } = conversation.record;
    const workspace = request.workspace.working_dir;
    const stateDir = join(options.dataDir, 'conversations', conversation.id);
    await Promise.all([mkdir(workspace, { recursive: true }), mkdir(stateDir, { recursive: true })]);
    // Read at every use: secrets added later (POST .../secrets) reach the running shell and are masked too.
    const secrets = () => secretValues(conversation);
    const plugins = await loadConversationPlugins(conversation, { cache: gitCache, providers, secrets });
    if (plugins.resolved.length) options.onPluginsLoaded?.(conversation.id, plugins.resolved);
    if (plugins.errorEvent) pluginErrors.set(conversation, plugins.errorEvent);
    const pluginHooks = plugins.loaded.map((plugin) => plugin.hooks);
    const runtime = new AgentRuntime(request.agent, {
      provider: createProvider(request.agent.llm),
      tools: createToolset(request.agent.tools, { env: secrets }),
      workspace,
      stateDir,
      secrets,
      onCriticFailure: (failure) => options.onCriticFailure?.(conversation.id, failure),
      // The conversation's own hooks run first, then each plugin's (in load order).
      hooks: pluginHooks.some(Boolean)
        ? mergeHookConfigs([request.hook_config, ...pluginHooks])
        : (request.hook_config ?? null),
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
        ...pluginRequestProblems(request, providers),
      ];
    },
    async prepare(conversation) {
      const runtime = await runtimeOf(conversation);
      await runtime.ensureSystemPrompt(new LogSession(conversation, options.store));
      await reportPluginErrors(conversation);
    },
    async run(conversation) {
      const runtime = await runtimeOf(conversation);
      await reportPluginErrors(conversation);
      await runtime.run(new LogSession(conversation, options.store));
    },
    async reviewUserMessage(conversation, content) {
      // Without hooks there is nothing to ask (and no need to load the agent).
      if (!mayHaveHooks(conversation)) return { blocked: null, extended_content: [] };
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

/** Whether the conversation has hooks of its own or plugins that may bring some. */
function mayHaveHooks(conversation: Conversation): boolean {
  const { request, plugins } = conversation.record;
  if (request.hook_config) return true;
  if (plugins) return plugins.some((plugin) => plugin.resolved.resolved_ref !== null);
  return !!request.plugins?.length || !!request.agent.agent_context?.registered_marketplaces.length;
}
