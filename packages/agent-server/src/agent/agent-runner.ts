import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  Agent,
  type CriticFailure,
  type HookLogRecord,
  type McpLogRecord,
  condenserProblems,
  createProvider,
  createToolset,
  filterTools,
  secretMasker,
  toolFilterProblems,
  toolSpecProblems,
} from '@bosun/agent';
import type { NewEvent } from '@bosun/protocol';
import {
  type ConversationSkills,
  INVOKE_SKILL,
  SkillSet,
  hookConfigProblems,
  mcpConfigProblems,
  mergeHookConfigs,
  mergeMcpServers,
  withPluginSkills,
} from '@bosun/sources';
import type { Conversation } from '../conversations/conversation.ts';
import type { AgentRunner } from '../conversations/runner.ts';
import { currentSecretValues, secretValues } from '../conversations/secret-values.ts';
import { conversationStateDir } from '../conversations/state-dir.ts';
import { ensureWorkingDir, withDeadline } from '../conversations/workspace.ts';
import type { Store } from '../store/store.ts';
import { LogSession } from './log-session.ts';
import { ConversationMcp } from './mcp-servers.ts';
import { type PluginLoading, loadConversationPlugins, pluginRequestProblems } from './plugins.ts';
import { DEFAULT_SETUP_TIMEOUT_MS, SetupDeadline, latePlugins, lateSkills } from './setup-deadline.ts';
import { type SkillLoading, loadSkillsOf, skillsForMessage, skillsStateEvent } from './skills.ts';

const AGENT = 'agent';
const MCP = 'mcp';

/** `create()`, stopping the already started `mcp` servers when it throws (nothing else would). */
async function withCleanup<T>(mcp: ConversationMcp, create: () => T): Promise<T> {
  try {
    return create();
  } catch (error) {
    await mcp.close();
    throw error;
  }
}

/**
 * Runs conversations with Bosun's agent. Each loaded conversation keeps one agent (its LLM client and
 * its tools, the shell included) between runs; it is closed when the conversation is evicted or deleted.
 */
export function createAgentRunner(options: {
  store: Store;
  dataDir: string;
  /** Told why a critique of a conversation gave no `critic_result` (for the server's log). */
  onCriticFailure?: (conversationId: string, failure: CriticFailure) => void;
  /** Told about every hook run of a conversation (for the server's log). */
  onHookRun?: (conversationId: string, record: HookLogRecord) => void;
  /** Where skill repositories are fetched from, and who hears about skill problems. */
  skills?: SkillLoading;
  /** Told when an MCP server of a conversation started or failed to (for the server's log). */
  onMcpServer?: (conversationId: string, record: McpLogRecord) => void;
  /** Where plugins and marketplaces are fetched from, and who hears which plugins a conversation loaded. */
  plugins?: PluginLoading;
  /** How long plugins, skills and MCP servers may take to load when an agent is built (default 60 s). */
  setupTimeoutMs?: number;
  /** Told when plugins or skills did not load in time (the conversation is told too). */
  onSetupTimeout?: (conversationId: string, what: 'plugins' | 'skills') => void;
}): AgentRunner {
  // Creating an agent loads its skills (repositories may be fetched) and starts its MCP servers: concurrent
  // callers share one creation.
  const creating = new WeakMap<Conversation, Promise<Agent>>();
  // What the first load found, for the `skills` state update `prepare` appends.
  const loadedSkills = new WeakMap<Conversation, ConversationSkills>();
  // Plugin failures wait to be appended until the system prompt is there (it opens every conversation).
  const pluginErrors = new WeakMap<Conversation, NewEvent>();
  // The run in progress of each conversation can be interrupted (its LLM call cancelled, its tools stopped).
  const interrupts = new WeakMap<Conversation, AbortController>();
  async function reportPluginErrors(conversation: Conversation): Promise<void> {
    const event = pluginErrors.get(conversation);
    if (!event) return;
    pluginErrors.delete(conversation);
    await conversation.append([event]);
  }

  function agentOf(conversation: Conversation): Promise<Agent> {
    const existing = conversation.resources.get(AGENT);
    if (existing) return Promise.resolve(existing as Agent);
    let pending = creating.get(conversation);
    if (!pending) {
      pending = createAgent(conversation).finally(() => creating.delete(conversation));
      creating.set(conversation, pending);
    }
    return pending;
  }

  async function createAgent(conversation: Conversation): Promise<Agent> {
    const { request } = conversation.record;
    const workspace = request.workspace.working_dir;
    const stateDir = conversationStateDir(options.dataDir, conversation.id);
    // The working directory was checked when the conversation was created; it may have been removed since.
    const [unusable] = await ensureWorkingDir(workspace);
    if (unusable) throw new Error(unusable.msg);
    await withDeadline(`mkdir ${stateDir}`, mkdir(stateDir, { recursive: true }));
    // Read at every use: secrets added later (POST .../secrets) reach the running shell and are masked too.
    const secrets = () => secretValues(conversation);
    // LookupSecrets looked up once now for what reads them while the agent is built (plugins' and skills' Git
    // credentials, MCP `${NAME}`); one that fails is missing there, and says why at the next terminal command.
    await currentSecretValues(conversation).catch(() => undefined);
    // Plugins (whose skills, hooks and MCP servers join the conversation's own) and skills load side by side,
    // MCP servers start after them: all within one deadline, past which the conversation starts without them.
    const deadline = new SetupDeadline(options.setupTimeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS);
    const [plugins, ownSkills] = await Promise.all([
      deadline.race(loadConversationPlugins(conversation, options.plugins ?? {}, secrets, deadline), () => {
        options.onSetupTimeout?.(conversation.id, 'plugins');
        return latePlugins(deadline);
      }),
      deadline.race(loadSkillsOf(conversation, secrets(), options.skills ?? {}, deadline), () => {
        options.onSetupTimeout?.(conversation.id, 'skills');
        return lateSkills(deadline);
      }),
    ]);
    if (plugins.errorEvent) pluginErrors.set(conversation, plugins.errorEvent);
    const merged = await withPluginSkills(
      ownSkills,
      {
        below: plugins.fromMarketplaces,
        above: plugins.loaded.filter((plugin) => !plugins.fromMarketplaces.includes(plugin)),
      },
      request.agent.agent_context?.disabled_skills ?? [],
    );
    const sources: ConversationSkills['sources'] = {};
    for (const skill of merged.skills) sources[skill.source.scope] = (sources[skill.source.scope] ?? 0) + 1;
    const skills: ConversationSkills = { ...ownSkills, ...merged, sources };
    loadedSkills.set(conversation, skills);
    const pluginHooks = plugins.loaded.map((plugin) => plugin.hooks);
    const mcpConfig = mergeMcpServers(
      request.agent.mcp_config,
      plugins.loaded.map((plugin) => plugin.mcpServers),
    );
    // Looked up again before every command: a token renewed meanwhile reaches the running shell.
    const toolset = createToolset(request.agent.tools, { env: () => currentSecretValues(conversation) });
    const mcp = await ConversationMcp.start(mcpConfig, {
      workspace,
      reservedNames: [...toolset.map((tool) => tool.name), INVOKE_SKILL],
      secrets: secrets(),
      filterRegex: request.agent.filter_tools_regex,
      log: (record) => options.onMcpServer?.(conversation.id, record),
      // Starting and listing tools are bounded each: half of what is left each keeps both within the deadline.
      maxStartupMs: Math.floor(deadline.remainingMs() / 2),
    });
    const agent = await withCleanup(
      mcp,
      () =>
        new Agent(request.agent, {
          provider: createProvider(request.agent.llm),
          tools: [...filterTools(toolset, request.agent.filter_tools_regex), ...mcp.tools],
          contextNotes: mcp.contextNotes(),
          workspace,
          stateDir,
          secrets,
          onCriticFailure: (failure) => options.onCriticFailure?.(conversation.id, failure),
          // The conversation's own hooks run first, then each plugin's (in load order).
          hooks: pluginHooks.some(Boolean)
            ? mergeHookConfigs([request.hook_config, ...pluginHooks])
            : (request.hook_config ?? null),
          onHookRun: (record) => options.onHookRun?.(conversation.id, record),
          skills: new SkillSet(skills.skills),
        }),
    );
    conversation.resources.set(MCP, mcp);
    conversation.resources.set(AGENT, agent);
    return agent;
  }

  /** MCP servers that are not available, as events after the system prompt (never the first event). */
  async function reportMcpProblems(conversation: Conversation, session: LogSession): Promise<void> {
    const events = (conversation.resources.get(MCP) as ConversationMcp | undefined)?.unreportedProblems() ?? [];
    if (events.length) await session.append(events);
  }

  return {
    validate(request) {
      const tools = toolSpecProblems(request.agent.tools, ['body', 'agent', 'tools']);
      return [
        ...tools,
        ...mcpConfigProblems(request.agent.mcp_config, ['body', 'agent', 'mcp_config']),
        ...toolFilterProblems(request.agent.filter_tools_regex, ['body', 'agent', 'filter_tools_regex']),
        ...condenserProblems(request.agent, ['body', 'agent']),
        ...hookConfigProblems(request.hook_config, ['body', 'hook_config']),
        ...pluginRequestProblems(request, options.plugins?.providers ?? {}),
      ];
    },
    async prepare(conversation) {
      const agent = await agentOf(conversation);
      const session = new LogSession(conversation, options.store);
      await agent.ensureSystemPrompt(session);
      await reportPluginErrors(conversation);
      const loaded = loadedSkills.get(conversation);
      const report = loaded && skillsStateEvent(loaded);
      if (report) await conversation.append([report]);
      await reportMcpProblems(conversation, session);
    },
    async run(conversation, signals) {
      const agent = await agentOf(conversation);
      const session = new LogSession(conversation, options.store);
      await agent.ensureSystemPrompt(session);
      await reportPluginErrors(conversation);
      await (conversation.resources.get(MCP) as ConversationMcp | undefined)?.retry(agent);
      await reportMcpProblems(conversation, session);
      const controller = new AbortController();
      interrupts.set(conversation, controller);
      // An interrupt cancels like a stop, for this run only.
      const stop = signals ? AbortSignal.any([controller.signal, signals.stop]) : controller.signal;
      try {
        await agent.run(session, stop, signals?.pause);
      } catch (error) {
        // An interrupted run ends where it was cut off; the interruption already set the status.
        if (!controller.signal.aborted) throw error;
      } finally {
        interrupts.delete(conversation);
      }
    },
    interrupt(conversation) {
      interrupts.get(conversation)?.abort();
    },
    async reviewUserMessage(conversation, content) {
      const agent = await agentOf(conversation);
      // Hooks may come from `hook_config` or from plugins; without UserPromptSubmit hooks this asks nothing.
      const review = await agent.hooks.reviewPrompt(conversation.id, content);
      // A blocked message never reaches the LLM: it activates no skill.
      if (review.blocked !== null) return { blocked: review.blocked, extended_content: review.extendedContent };
      const skills = skillsForMessage(
        agent,
        conversation,
        content,
        secretMasker(Object.values(secretValues(conversation))),
      );
      return {
        blocked: null,
        extended_content: [...review.extendedContent, ...skills.extended_content],
        activated_skills: skills.activated_skills,
      };
    },
    async condense(conversation) {
      const agent = await agentOf(conversation);
      return agent.condense(new LogSession(conversation, options.store));
    },
  };
}
