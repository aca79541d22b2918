import {
  type LLMConfig,
  LLM_SECRET_FIELDS,
  type NewEvent,
  type Secrets,
  type SetConfirmationPolicyRequest,
  type UpdateConversationRequest,
} from '@bosun/protocol';
import type { Static } from '@sinclair/typebox';
import type { Conversation } from './conversation.ts';
import { REDACTED, redactedAgent, redactedSecretSources } from './info.ts';
import type { ConversationRecord, RecordedPlugin } from './record.ts';

/*
 * What a client may change in a conversation, each change recorded in the log as a `ConversationStateUpdateEvent`
 * (secrets by name only). Each is decided inside the conversation's single writer, against what the writes
 * queued before it leave.
 */

function stateUpdate(key: string, value: unknown): NewEvent {
  return { kind: 'ConversationStateUpdateEvent', source: 'environment', key, value };
}

export async function setConfirmationPolicy(
  conversation: Conversation,
  { policy, confirmation_timeout_seconds: timeout, on_confirmation_timeout: onTimeout }: SetConfirmationPolicyRequest,
): Promise<void> {
  const events = [stateUpdate('confirmation_policy', policy)];
  if (timeout !== undefined) events.push(stateUpdate('confirmation_timeout_seconds', timeout));
  if (onTimeout !== undefined) events.push(stateUpdate('on_confirmation_timeout', onTimeout));
  await conversation.append(events, (record) => {
    record.request.confirmation_policy = policy;
    if (timeout !== undefined) record.request.confirmation_timeout_seconds = timeout;
    if (onTimeout !== undefined) record.request.on_confirmation_timeout = onTimeout;
  });
}

export async function setSecurityAnalyzer(
  conversation: Conversation,
  analyzer: ConversationRecord['request']['security_analyzer'],
): Promise<void> {
  await conversation.append([stateUpdate('security_analyzer', analyzer)], (record) => {
    record.request.security_analyzer = analyzer;
  });
}

/** Adds or replaces secrets; the registry event names all of them, their values redacted. */
export async function addSecrets(conversation: Conversation, added: Static<typeof Secrets>): Promise<void> {
  await conversation.decide((record) => {
    record.request.secrets = { ...record.request.secrets, ...added };
    return [stateUpdate('secret_registry', { secret_sources: redactedSecretSources(record.request.secrets) })];
  });
}

/** Changes the title or replaces the tags (no event: OpenHands records none). */
export async function updateTitleAndTags(
  conversation: Conversation,
  { title, tags }: UpdateConversationRequest,
): Promise<void> {
  await conversation.update((record) => {
    if (title !== undefined) record.title = title.trim();
    if (tags !== undefined) record.tags = tags;
  });
}

/**
 * Replaces the agent's LLM; its agent is built again, with the new LLM, when it is next needed. Secrets shown as
 * `**********` (what responses show) keep their current value, so an LLM read from a response and sent back
 * keeps its key (OpenHands drops it). The caller checks no run is in progress, in the same turn.
 */
export async function switchLlm(conversation: Conversation, llm: LLMConfig): Promise<void> {
  await Promise.all([
    conversation.release(),
    conversation.decide((record) => {
      record.request.agent = { ...record.request.agent, llm: withLlm(record.request.agent.llm, llm) };
      return [stateUpdate('agent', redactedAgent(record.request.agent))];
    }),
  ]);
}

function withLlm(current: LLMConfig, llm: LLMConfig): LLMConfig {
  const next = { ...llm };
  for (const field of LLM_SECRET_FIELDS) if (next[field] === REDACTED) next[field] = current[field] ?? null;
  if (next.extra_headers) {
    const headers = Object.entries(next.extra_headers)
      .map(([name, value]) => [name, value === REDACTED ? current.extra_headers?.[name] : value])
      .filter(([, value]) => value !== undefined);
    next.extra_headers = Object.fromEntries(headers);
  }
  return next;
}

/** Records a loaded plugin after those already recorded (the caller releases the agent, to build it again). */
export async function recordPlugin(conversation: Conversation, added: RecordedPlugin): Promise<void> {
  await conversation.decide((record) => {
    record.plugins = [...(record.plugins ?? []), added];
    return [
      stateUpdate(
        'resolved_plugins',
        record.plugins.map((plugin) => plugin.resolved),
      ),
    ];
  });
}
