import type { HookEventName } from '@bosun/protocol';
import { runCommandHook } from './command.ts';
import { type HookSettings, hooksFor } from './config.ts';
import { type HookEventDetails, hookInput } from './input.ts';

/** One hook run, as the host logs it (hooks leave no events: the 14 event kinds are fixed). */
export interface HookLogRecord {
  event: HookEventName;
  command: string;
  name: string | null;
  tool_name: string | null;
  outcome: 'allow' | 'block' | 'error';
  exit_code: number | null;
  duration_ms: number;
  reason: string | null;
  error: string | null;
  /** Set when the decision is not applied (a Stop block past the round limit, for example). */
  note?: string;
}

export interface HookRunnerOptions {
  /** The hooks' working directory (`cwd`, `working_dir`, `CLAUDE_PROJECT_DIR`). */
  workspace: string;
  /** Told about every hook run. */
  log?: (record: HookLogRecord) => void;
  /** Masks secrets in what hooks say, before it goes into events. */
  mask?: () => (text: string) => string;
}

/** What the hooks of one event decided together. */
export interface HookDecision {
  blocked: boolean;
  /** The blocking hook's reason (masked). */
  reason: string | null;
  /** Context from every hook that ran, in order (masked). */
  additionalContext: string[];
}

export interface HookRunOptions {
  signal?: AbortSignal;
  /** Blocks are not applied (and logged with this note): every hook runs, and the decision allows. */
  ignoreBlocks?: string;
}

const ALLOWED: HookDecision = { blocked: false, reason: null, additionalContext: [] };

/** Runs the hooks of an event: the matching ones in configuration order, one at a time, up to the first block. */
export class HookRunner {
  constructor(
    readonly settings: HookSettings,
    private readonly options: HookRunnerOptions,
  ) {}

  /** Whether any hook would run for `event` (and a call of `toolName` with `toolInput`, for tool events). */
  has(event: HookEventName, toolName?: string, toolInput?: Record<string, unknown>): boolean {
    return hooksFor(this.settings, event, toolName, toolInput, this.options.workspace).length > 0;
  }

  async run(
    event: HookEventName,
    sessionId: string,
    details: HookEventDetails = {},
    { signal, ignoreBlocks }: HookRunOptions = {},
  ): Promise<HookDecision> {
    const hooks = hooksFor(this.settings, event, details.toolName, details.toolInput, this.options.workspace);
    if (hooks.length === 0) return ALLOWED;
    const { workspace } = this.options;
    const input = hookInput(event, { sessionId, workspace }, details);
    const env: Record<string, string> = {
      CLAUDE_PROJECT_DIR: workspace,
      OPENHANDS_PROJECT_DIR: workspace,
      OPENHANDS_SESSION_ID: sessionId,
      OPENHANDS_EVENT_TYPE: event,
      ...(details.toolName ? { OPENHANDS_TOOL_NAME: details.toolName } : {}),
    };
    const mask = this.options.mask?.() ?? ((text: string) => text);
    const additionalContext: string[] = [];
    for (const hook of hooks) {
      const result = await runCommandHook(hook, event, input, { cwd: workspace, env, signal });
      // Secrets are masked in log lines too.
      const record: HookLogRecord = {
        event,
        command: mask(hook.command),
        name: hook.name,
        tool_name: details.toolName ?? null,
        outcome: result.outcome,
        exit_code: result.exitCode,
        duration_ms: result.durationMs,
        reason: result.reason === null ? null : mask(result.reason),
        error: result.error === null ? null : mask(result.error),
        ...(ignoreBlocks && result.outcome === 'block' ? { note: ignoreBlocks } : {}),
      };
      this.options.log?.(record);
      if (result.additionalContext) additionalContext.push(mask(result.additionalContext));
      if (result.outcome === 'block' && !ignoreBlocks) {
        return { blocked: true, reason: mask(result.reason ?? ''), additionalContext };
      }
    }
    return { blocked: false, reason: null, additionalContext };
  }
}
