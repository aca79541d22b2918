import { estimateTokens, fakeSignature } from './ids.ts';
import type { FinishReason, Turn } from './script.ts';

export interface AnswerToolCall {
  /** The id the script fixed, if any; each API makes its own otherwise. */
  id?: string;
  name: string;
  /** The arguments as sent in OpenAI formats (a JSON string, possibly invalid). */
  argumentsText: string;
  /** The arguments as an Anthropic `input`: the object, or the raw string when it is not a JSON object. */
  input: unknown;
}

export interface AnswerUsage {
  prompt: number;
  completion: number;
  cached: number;
  reasoning: number;
}

/** A scripted turn resolved for one request, independent of the wire format. */
export interface Answer {
  model: string;
  content: string | null;
  reasoning?: string;
  /** Anthropic thinking signature / Responses encrypted_content. */
  signature: string;
  redactedReasoning?: string;
  toolCalls: AnswerToolCall[];
  finishReason: FinishReason;
  usage: AnswerUsage;
  tokenIds?: { prompt?: number[]; response?: number[] };
}

function toolInput(args: Record<string, unknown> | string): unknown {
  if (typeof args !== 'string') return args;
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed;
  } catch {
    // Not JSON: the test wants a malformed call; pass the string through.
  }
  return args;
}

export function buildAnswer(turn: Turn, options: { model: string; promptText: string }): Answer {
  const toolCalls: AnswerToolCall[] = (turn.tool_calls ?? []).map((call) => {
    const args = call.arguments ?? {};
    return {
      ...(call.id !== undefined ? { id: call.id } : {}),
      name: call.name,
      argumentsText: typeof args === 'string' ? args : JSON.stringify(args),
      input: toolInput(args),
    };
  });
  const content = turn.content ?? null;
  const reasoningTokens = turn.usage?.reasoning_tokens ?? estimateTokens(turn.reasoning ?? '');
  const outputText = [content ?? '', ...toolCalls.map((call) => call.name + call.argumentsText)].join('');
  const usage: AnswerUsage = {
    prompt:
      turn.usage?.prompt_tokens ?? turn.token_ids?.prompt?.length ?? Math.max(1, estimateTokens(options.promptText)),
    completion:
      turn.usage?.completion_tokens ??
      turn.token_ids?.response?.length ??
      Math.max(1, estimateTokens(outputText) + reasoningTokens),
    cached: turn.usage?.cached_tokens ?? 0,
    reasoning: reasoningTokens,
  };
  return {
    model: options.model,
    content,
    ...(turn.reasoning !== undefined ? { reasoning: turn.reasoning } : {}),
    signature: turn.reasoning_signature ?? fakeSignature(turn.reasoning ?? turn.redacted_reasoning ?? ''),
    ...(turn.redacted_reasoning !== undefined ? { redactedReasoning: turn.redacted_reasoning } : {}),
    toolCalls,
    finishReason: turn.finish_reason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage,
    ...(turn.token_ids ? { tokenIds: turn.token_ids } : {}),
  };
}

/** The text of a message's content in any of the three APIs' shapes (tool results excluded). */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content
    .filter(
      (part): part is { text: string } =>
        typeof part === 'object' &&
        part !== null &&
        typeof (part as { text?: unknown }).text === 'string' &&
        ['text', 'input_text', 'output_text'].includes((part as { type?: unknown }).type as string),
    )
    .map((part) => part.text);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

export type Body = Record<string, unknown>;

export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** What `pick` gives for the last item of `list` (a JSON array; anything else is empty) that it gives a value for. */
export function lastPicked<T>(list: unknown, pick: (item: Record<string, unknown>) => T | undefined): T | undefined {
  const items = asArray(list);
  for (let i = items.length - 1; i >= 0; i--) {
    const picked = pick(asRecord(items[i]));
    if (picked !== undefined) return picked;
  }
  return undefined;
}
