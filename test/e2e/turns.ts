import type { Turn } from '@bosun/llm-replay';

/** A scripted model answer that makes one tool call. */
export const call = (name: string, args: Record<string, unknown>): Turn => ({
  tool_calls: [{ name, arguments: args }],
});

export const finish = (message = 'done') => call('finish', { message });

export const terminal = (command: string) => call('terminal', { command });

export const think = (thought: string) => call('think', { thought });
