import { redactUrl } from '@bosun/http';
import {
  type AgentSpec,
  type ConversationInfo,
  type LLMConfig,
  LLM_SECRET_FIELDS,
  type SecretSource,
  isLookupSecret,
} from '@bosun/protocol';
import { redactCredentials } from '@bosun/sources';
import type { Conversation } from './conversation.ts';
import { metricsSnapshot } from './metrics.ts';
import { redactedMcpConfig } from './redact-mcp.ts';

/** How a secret value is shown anywhere outside the server. */
export const REDACTED = '**********';

/**
 * An LLM configuration as the API shows it: its keys redacted, and every extra header's value too, since a
 * gateway's credential often travels in one.
 */
export function redactedLlm<T extends LLMConfig>(llm: T): T {
  const redacted = { ...llm };
  for (const field of LLM_SECRET_FIELDS) if (redacted[field]) redacted[field] = REDACTED;
  if (redacted.extra_headers) {
    redacted.extra_headers = Object.fromEntries(Object.keys(redacted.extra_headers).map((name) => [name, REDACTED]));
  }
  return redacted;
}

/** The agent as the API shows it: every secret of its LLMs, MCP servers and repository URLs redacted. */
export function redactedAgent(agent: AgentSpec): AgentSpec {
  const llm = redactedLlm(agent.llm);
  const condenser = redactedCondenser(agent.condenser);
  const critic = redactedCritic(agent.critic);
  const agentContext = redactedAgentContext(agent.agent_context);
  return {
    ...agent,
    llm,
    mcp_config: redactedMcpConfig(agent.mcp_config, REDACTED),
    ...(condenser !== undefined ? { condenser } : {}),
    ...(critic !== undefined ? { critic } : {}),
    ...(agentContext ? { agent_context: agentContext } : {}),
  };
}

/**
 * The secrets as the API (and the registry events) show them: a value redacted; a LookupSecret's URL (its
 * credentials and query redacted) with its headers' names, each value redacted (OpenHands redacts only those named
 * like a credential; any header may carry one).
 */
export function redactedSecretSources(secrets: Record<string, SecretSource>): Record<string, object> {
  const sources: Record<string, object> = {};
  for (const [name, secret] of Object.entries(secrets)) {
    const description = typeof secret === 'object' && secret.description ? { description: secret.description } : {};
    sources[name] = isLookupSecret(secret)
      ? {
          kind: 'LookupSecret',
          url: redactCredentials(redactUrl(secret.url)),
          headers: Object.fromEntries(Object.keys(secret.headers ?? {}).map((header) => [header, REDACTED])),
          ...description,
        }
      : { kind: 'StaticSecret', value: REDACTED, ...description };
  }
  return sources;
}

/** The conversation as the API returns it: its configuration and state, with every secret redacted. */
export function conversationInfo(conversation: Conversation): ConversationInfo {
  const { record } = conversation;
  const { request } = record;
  return {
    id: conversation.id,
    title: record.title,
    agent: redactedAgent(request.agent),
    workspace: request.workspace,
    execution_status: record.execution_status,
    confirmation_policy: request.confirmation_policy,
    confirmation_timeout_seconds: request.confirmation_timeout_seconds ?? null,
    on_confirmation_timeout: request.on_confirmation_timeout ?? 'deny',
    security_analyzer: request.security_analyzer ?? null,
    max_iterations: request.max_iterations,
    stuck_detection: request.stuck_detection,
    initial_message: request.initial_message ?? null,
    plugins: request.plugins?.map((plugin) => ({ ...plugin, source: redactCredentials(plugin.source) })) ?? null,
    resolved_plugins: record.plugins?.map((plugin) => plugin.resolved) ?? [],
    hook_config: request.hook_config ?? null,
    secret_registry: { secret_sources: redactedSecretSources(request.secrets) },
    tags: record.tags,
    stats: record.stats,
    activated_knowledge_skills: record.activated_knowledge_skills,
    blocked_actions: record.blocked_actions,
    blocked_messages: record.blocked_messages,
    last_user_message_id: record.last_user_message_id,
    event_count: conversation.lastSeq,
    metrics: metricsSnapshot(record),
    agent_state: {},
    forked_from_conversation_id: record.forked_from?.conversation_id ?? null,
    forked_from_event_id: record.forked_from?.event_id ?? null,
    persistence_dir: `conversations/${conversation.id}`,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/** The condenser with its own LLM's secrets redacted. */
function redactedCondenser(condenser: AgentSpec['condenser']): AgentSpec['condenser'] {
  if (condenser?.kind !== 'LLMSummarizingCondenser' || !condenser.llm) return condenser;
  return { ...condenser, llm: redactedLlm(condenser.llm) };
}

/** The agent context with credentials written into repository URLs redacted. */
function redactedAgentContext(context: AgentSpec['agent_context']): AgentSpec['agent_context'] {
  if (!context) return context;
  return {
    ...context,
    skill_repositories: context.skill_repositories.map((repository) => ({
      ...repository,
      source: redactCredentials(repository.source),
    })),
    registered_marketplaces: context.registered_marketplaces.map((registration) => ({
      ...registration,
      source: redactCredentials(registration.source),
    })),
  };
}

/** The critic with its own LLM's secrets redacted. */
function redactedCritic(critic: AgentSpec['critic']): AgentSpec['critic'] {
  if (critic?.kind !== 'LLMCritic' || !critic.llm) return critic;
  return { ...critic, llm: redactedLlm(critic.llm) };
}
