import type { Agent } from '@bosun/agent';
import type { MessageContent, NewEvent, TextContent } from '@bosun/protocol';
import {
  type ConversationSkills,
  type GitCache,
  type GitProviders,
  type SkillProblem,
  loadConversationSkills,
  redactCredentials,
} from '@bosun/sources';
import type { Conversation } from '../conversations/conversation.ts';

export interface SkillLoading {
  /** Fetches skill repositories (one cache per server). */
  git?: GitCache;
  providers?: GitProviders;
  /** Told about the problems (errors and warnings) of each load, for the server's log. */
  onProblems?: (conversationId: string, problems: SkillProblem[]) => void;
}

/**
 * The skills of a conversation's agent: from its workspace and its repositories, at the commits recorded the
 * first time (recorded then, so every later load of the conversation sees the same skills).
 */
export async function loadSkillsOf(
  conversation: Conversation,
  secrets: Record<string, string>,
  loading: SkillLoading,
  given: { readonly expired: boolean } = { expired: false },
): Promise<ConversationSkills> {
  const { request, skill_repositories: recorded } = conversation.record;
  const loaded = await loadConversationSkills({
    workspace: request.workspace.working_dir,
    context: request.agent.agent_context ?? null,
    secrets,
    ...(loading.git ? { git: loading.git } : {}),
    ...(loading.providers ? { providers: loading.providers } : {}),
    ...(recorded ? { recorded } : {}),
  });
  // Only repositories have commits to pin: a conversation without any is not written again (its creation saves
  // a write), and loading it later finds none again.
  if (recorded === undefined && loaded.repositories.length > 0 && !given.expired) {
    await conversation.update((record) => {
      record.skill_repositories = loaded.repositories;
    });
  }
  const reported = loaded.problems.filter((problem) => problem.severity !== 'info');
  if (reported.length) loading.onProblems?.(conversation.id, reported);
  return loaded;
}

/**
 * What the conversation loaded, for the user: a `ConversationStateUpdateEvent` with key `skills` (the skills
 * with their scope and file, the repositories with their commits, every diagnostic). None when there is
 * nothing to say (no skill, no problem).
 */
export function skillsStateEvent(loaded: ConversationSkills): NewEvent | null {
  if (loaded.skills.length === 0 && loaded.problems.length === 0 && loaded.repositories.length === 0) return null;
  return {
    kind: 'ConversationStateUpdateEvent',
    source: 'environment',
    key: 'skills',
    value: {
      skills: loaded.skills.map((skill) => ({
        name: skill.name,
        format: skill.format,
        scope: skill.source.scope,
        origin: redactCredentials(skill.source.origin),
        file: skill.file,
      })),
      repositories: loaded.repositories.map((repository) => ({
        ...repository,
        source: redactCredentials(repository.source),
      })),
      diagnostics: loaded.problems,
    },
  };
}

/**
 * What the agent's skills add to a user message: the skills it triggers that the conversation has not
 * activated yet, then `agent_context.user_message_suffix`.
 */
export function skillsForMessage(
  agent: Agent,
  conversation: Conversation,
  content: readonly MessageContent[],
  /** Hides secret values: a skill's text reaches the LLM and the log like any tool result, masked. */
  mask: (text: string) => string,
): { activated_skills: string[]; extended_content: TextContent[] } {
  const text = content
    .filter((block): block is TextContent => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
  const triggered = agent.skills.triggered(text, conversation.record.activated_knowledge_skills);
  const suffix = conversation.record.request.agent.agent_context?.user_message_suffix?.trim();
  return {
    activated_skills: triggered.names,
    extended_content: [
      ...triggered.content.map((block) => ({ ...block, text: mask(block.text) })),
      ...(suffix ? [{ type: 'text' as const, text: suffix, cache_prompt: false }] : []),
    ],
  };
}
