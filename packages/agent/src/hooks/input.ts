import type { HookEventName } from '@bosun/protocol';

/** What every hook of a conversation is told about where it runs. */
export interface HookContext {
  sessionId: string;
  workspace: string;
}

/** What one event tells its hooks beyond the context (each event fills its own fields). */
export interface HookEventDetails {
  toolName?: string;
  /** The action (its fields and `kind`). */
  toolInput?: Record<string, unknown>;
  toolUseId?: string;
  /** The observation (PostToolUse). */
  toolResponse?: Record<string, unknown>;
  /** The text of the user's message (UserPromptSubmit). */
  prompt?: string;
  /** Stop: whether the agent is already working again because of a Stop hook. */
  stopHookActive?: boolean;
  /** Stop: the agent's final message (its `finish` message or its text answer). */
  lastAssistantMessage?: string | null;
  /** SessionStart: `startup` on the conversation's first run, `resume` after. */
  source?: 'startup' | 'resume';
  /** SessionEnd: the status the run ended in (`finished`, `paused`, `error`, ...). */
  reason?: string;
}

/**
 * The JSON a hook reads on stdin. It carries both vocabularies, so hooks written for either run unchanged:
 * Claude Code's (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, `tool_name`, `tool_input`,
 * `tool_use_id`, `tool_response`, `prompt`, `stop_hook_active`, `source`, `reason`) and OpenHands'
 * (`event_type`, `tool_name`, `tool_input`, `tool_response`, `message`, `session_id`, `working_dir`,
 * `metadata`). Shared names have the same value; fields of other events are absent (Claude Code) or null
 * (OpenHands' always-present fields). There is no transcript file: `transcript_path` is null.
 */
export function hookInput(
  event: HookEventName,
  context: HookContext,
  details: HookEventDetails = {},
): Record<string, unknown> {
  const claude: Record<string, unknown> = {
    session_id: context.sessionId,
    transcript_path: null,
    cwd: context.workspace,
    hook_event_name: event,
  };
  const metadata: Record<string, unknown> = {};
  if (event === 'PreToolUse' || event === 'PostToolUse') claude.tool_use_id = details.toolUseId ?? null;
  if (event === 'UserPromptSubmit') claude.prompt = details.prompt ?? '';
  if (event === 'Stop') {
    claude.stop_hook_active = details.stopHookActive ?? false;
    claude.last_assistant_message = details.lastAssistantMessage ?? null;
    metadata.stop_hook_active = claude.stop_hook_active;
  }
  if (event === 'SessionStart') {
    claude.source = details.source ?? 'startup';
    metadata.source = claude.source;
  }
  if (event === 'SessionEnd') {
    claude.reason = details.reason ?? 'other';
    metadata.reason = claude.reason;
  }
  return {
    ...claude,
    tool_name: details.toolName ?? null,
    tool_input: details.toolInput ?? null,
    tool_response: details.toolResponse ?? null,
    event_type: event,
    message: event === 'UserPromptSubmit' ? (details.prompt ?? '') : null,
    working_dir: context.workspace,
    metadata,
  };
}
