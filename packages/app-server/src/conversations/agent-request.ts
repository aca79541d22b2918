import type { StartConversationInput } from '@bosun/client';
import type {
  AppConversationStartRequest,
  RegisteredMarketplace,
  SecretSource,
  SkillRepository,
} from '@bosun/protocol';
import type { EffectiveLlm } from '../settings/llm-defaults.ts';

/** The tools every conversation of the application gets (the agent server's names). */
export const DEFAULT_TOOLS = ['terminal', 'file_editor', 'task_tracker'] as const;

export interface ConversationToStart {
  id: string;
  /** Where the agent works: the cloned repository, else the sandbox's workspace. */
  workingDir: string;
  llm: EffectiveLlm & { model: string };
  request: AppConversationStartRequest;
  /** The user's provider tokens (LookupSecrets when the sandbox can read them from the app), secrets and the request's. */
  secrets: Record<string, SecretSource>;
  /** The auto-loaded marketplaces, each pinned to a commit. */
  marketplaces?: RegisteredMarketplace[];
  /** The organization's and the user's skills repositories, each pinned to a commit. */
  skillRepositories?: SkillRepository[];
  /** Skills the user turned off (their settings' `disabled_skills`): left out wherever they come from. */
  disabledSkills?: string[];
  /** The user's settings' `confirmation_mode`: every action waits for them to approve or reject it. */
  confirmationMode?: boolean;
}

/** The LLM as the agent server takes it (at a start, or switching a conversation's LLM). */
export function agentLlm(llm: EffectiveLlm & { model: string }) {
  return {
    model: llm.model,
    ...(llm.baseUrl ? { base_url: llm.baseUrl } : {}),
    ...(llm.apiKey ? { api_key: llm.apiKey } : {}),
    ...llm.retry,
  };
}

/** What the agent server is asked to start. */
export function startConversationInput(start: ConversationToStart) {
  const { id, workingDir, llm, request, secrets, marketplaces, skillRepositories, disabledSkills, confirmationMode } =
    start;
  const agentContext = {
    ...(skillRepositories?.length ? { skill_repositories: skillRepositories } : {}),
    ...(disabledSkills?.length ? { disabled_skills: disabledSkills } : {}),
    ...(request.system_message_suffix ? { system_message_suffix: request.system_message_suffix } : {}),
    ...(marketplaces?.length ? { registered_marketplaces: marketplaces } : {}),
  };
  const input: StartConversationInput = {
    conversation_id: id,
    workspace: { working_dir: workingDir },
    agent: {
      llm: agentLlm(llm),
      tools: DEFAULT_TOOLS.map((name) => ({ name })),
      ...(Object.keys(agentContext).length ? { agent_context: agentContext } : {}),
    },
    secrets,
    ...(confirmationMode ? { confirmation_policy: { kind: 'AlwaysConfirm' as const } } : {}),
    ...(titleOf(request) ? { title: titleOf(request) as string } : {}),
    ...(request.plugins?.length
      ? {
          plugins: request.plugins.map(({ source, ref, repo_path }) => ({
            source,
            ...(ref ? { ref } : {}),
            ...(repo_path ? { repo_path } : {}),
          })),
        }
      : {}),
    // The agent runs a start's first message whatever `run` says (as OpenHands' app does).
    ...(request.initial_message ? { initial_message: { ...request.initial_message, run: true } } : {}),
  };
  return input;
}

/** The conversation's title from the request: its first 200 characters, when it has any but blanks. */
export function titleOf(request: AppConversationStartRequest): string | undefined {
  const title = request.title?.trim().slice(0, 200);
  return title ? title : undefined;
}
