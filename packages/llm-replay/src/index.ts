export type { ApiName } from './apis/adapter.ts';
export {
  type FinishReason,
  loadScript,
  type Script,
  ScriptValidationError,
  scriptErrors,
  type ToolCall,
  type Turn,
  type TurnError,
  type TurnUsage,
  type TurnWhen,
  validateScript,
} from './script.ts';
export { type LlmReplay, type LlmReplayOptions, type RecordedRequest, startLlmReplay } from './server.ts';
