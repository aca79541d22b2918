import type { ToolCall, Turn } from '@bosun/llm-replay';

/** One tool call of a scripted model answer (an answer may make several). */
export const toolCall = (name: string, args: Record<string, unknown>): ToolCall => ({ name, arguments: args });

export const terminalCall = (command: string, extra: Record<string, unknown> = {}) =>
  toolCall('terminal', { command, ...extra });

/** A scripted model answer that makes one tool call. */
export const call = (name: string, args: Record<string, unknown>): Turn => ({ tool_calls: [toolCall(name, args)] });

export const finish = (message = 'done') => call('finish', { message });

export const terminal = (command: string, extra: Record<string, unknown> = {}) =>
  call('terminal', { command, ...extra });

export const think = (thought: string) => call('think', { thought });
