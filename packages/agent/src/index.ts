export { type CondensationReason, SummarizingCondenser } from './condenser/condenser.ts';
export {
  CONDENSER_USAGE_ID,
  type CondenserSettings,
  NoCondenserError,
  condenserProblems,
  condenserSettings,
} from './condenser/config.ts';
export { SUMMARY_PROMPT_START, estimateTokens, summaryPrompt } from './condenser/prompt.ts';
export { CONTEXT_WINDOW_CODE, completeWithCondensation } from './condenser/step.ts';
export { type ForgettingPlan, cutPoints, planForgetting } from './condenser/forgetting.ts';
export { type LLMView, llmView } from './session/llm-view.ts';
export { completionLogEvent, withoutEncryptedContent } from './llm/completion-log.ts';
export * from './llm/errors.ts';
export { createProvider, type WireApi, wireApiOf } from './llm/provider.ts';
export type {
  LLMAttemptFailure,
  LLMCallObserver,
  LLMDelta,
  LLMProvider,
  LLMRequest,
  LLMResponse,
  LLMTool,
  LLMToolCall,
  LLMUsage,
} from './llm/types.ts';
export { Agent, type AgentOptions } from './loop/agent.ts';
export { LLM_RETRY_KEY, observedCall } from './loop/llm-call.ts';
export { rejection } from './session/events.ts';
export { pendingActions } from './session/pending-actions.ts';
export { STUCK_REPEATS } from './loop/stuck.ts';
export type { AgentSession, AnswerStreamPart, UsageRecord } from './session/session.ts';
export { SECRET_MASK, secretMasker } from './shared/secret-masker.ts';
export { buildMessages, observationText } from './session/messages.ts';
export { DEFAULT_CHROMIUM_PATH } from './tools/browser/launch.ts';
export { RECORDINGS_DIR, recordingsDir } from './tools/browser/recording.ts';
export { type BrowserToolSetOptions, createBrowserToolSet } from './tools/browser/tool-set.ts';
export { createEditTool } from './tools/edit/index.ts';
export { createFileEditorTool } from './tools/file-editor/index.ts';
export { createFinishTool } from './tools/finish/index.ts';
export { createGlobTool, type SearchToolOptions } from './tools/glob/index.ts';
export { createGrepTool } from './tools/grep/index.ts';
export { createListDirectoryTool } from './tools/list-directory/index.ts';
export { llmParameters } from './tools/parameters.ts';
export { createPlanningFileEditorTool, PLAN_FILE, planPath } from './tools/planning-file-editor/index.ts';
export { createReadFileTool } from './tools/read-file/index.ts';
export {
  createToolset,
  TOOL_NAMES,
  type ToolRegistry,
  type ToolsetOptions,
  UnknownToolError,
  toolRegistry,
  toolSpecProblems,
} from './tools/registry.ts';
export { TOOL_RECORDS } from './tools/list.ts';
export { LOW_RISK, MEDIUM_RISK, type RiskSubject, UNKNOWN_RISK } from './tools/risk-subject.ts';
export { type ToolRecord, toolRecord } from './tools/tool-record.ts';
export { createTaskTrackerTool, TASKS_FILE } from './tools/task-tracker/index.ts';
export { createTerminalTool, type TerminalToolOptions } from './tools/terminal/terminal-tool.ts';
export { createThinkTool } from './tools/think/index.ts';
export type { ShellEnv, Tool, ToolContext } from './tools/tool.ts';
export { isInside, resolveInWorkspace, ToolInputError } from './tools/workspace-path.ts';
export { createWriteFileTool } from './tools/write-file/index.ts';
export {
  type AnalyzedAction,
  type AnalyzerContext,
  type RiskRule,
  actionRisk,
  analyzeAction,
  predictedRisk,
} from './security/analyzer.ts';
export { commandRisk } from './security/command-risk.ts';
export {
  NEVER_CONFIRM,
  acceptedByRun,
  assessRisks,
  holdForConfirmation,
  needsConfirmation,
  shouldConfirm,
  terminalCwd,
} from './security/confirmation.ts';
export { reaches, worstRisk } from './security/risk.ts';
export { type CriticAnswer, parseCriticAnswer } from './critic/answer.ts';
export { CRITIC_USAGE_ID, type CriticEvaluate, type CriticSettings, criticSettings } from './critic/config.ts';
export { type CriticFailure, LLMCritic } from './critic/critic.ts';
export { CONTEXT_EVENTS, CRITIC_PROMPT_START, type CriticSubject, criticPrompt, subjectText } from './critic/prompt.ts';
export {
  AgentHooks,
  MAX_STOP_ROUNDS,
  type PromptReview,
  STOP_FEEDBACK_PREFIX,
  awaitsBlockedPrompt,
  lastAssistantMessage,
  stopRounds,
} from './hooks/agent-hooks.ts';
export {
  DEFAULT_BLOCK_REASON,
  type HookRunResult,
  interpret as interpretHookOutput,
  runCommandHook,
} from './hooks/command.ts';
export {
  type CommandHook,
  DEFAULT_HOOK_TIMEOUT_SECONDS,
  HookConfigError,
  type HookGroup,
  type HookSettings,
  hooksFor,
  normalizeHookConfig,
} from './hooks/config.ts';
export { type HookContext, type HookEventDetails, hookInput } from './hooks/input.ts';
export { compileMatcher, type ToolMatcher } from './hooks/matcher.ts';
export { type ToolCondition, compileCondition } from './hooks/condition.ts';
export { claudeToolName } from './hooks/claude-tools.ts';
export {
  type HookDecision,
  type HookLogRecord,
  type HookRunOptions,
  HookRunner,
  type HookRunnerOptions,
} from './hooks/runner.ts';
export { createMcpTool } from './mcp/mcp-tool.ts';
export {
  type ConnectMcpOptions,
  type McpLogRecord,
  type McpProblem,
  type McpServers,
  connectMcpServers,
  mcpToolName,
} from './mcp/servers.ts';
export { filterTools, toolFilterProblems } from './tools/filter.ts';
export { createInvokeSkillTool } from './skills/invoke-tool.ts';
export { skillContentOf } from './skills/retained.ts';
